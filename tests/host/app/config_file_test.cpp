// ConfigFile: relative paths in scripthost.toml mean the file's folder, flags the working
// directory — through the real `run` command's options.
#include "../../support/test_support.hpp"
#include "config_file.hpp"
#include "run_options.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;

namespace {

/// Parses `args` (after the program name) as scripthost's top level with `run`.
RunOptions parseRun(std::vector<std::string> args) {
    CLI::App app;
    useConfigFile(app);
    RunOptions options;
    addRunCommand(app, options);
    args.insert(args.begin(), "scripthost");
    std::vector<const char*> argv;
    for (const std::string& arg : args)
        argv.push_back(arg.c_str());
    app.parse(static_cast<int>(argv.size()), argv.data());
    return options;
}

} // namespace

TEST_CASE("config file: relative paths resolve against the file's folder, absolute ones stay, "
          "other values are untouched") {
    TempDir dir("config-file");
    writeFile(dir / "game/scene.json", "{}");
    const fs::path config = dir / "game/scripthost.toml";
    writeFile(config, "[run]\n"
                      "scripts = [\"scripts\", \"../common/scripts\", \"/opt/more\"]\n"
                      "scene = \"scene.json\"\n"
                      "state = \"saves/world.json\"\n"
                      "control = \"run/control.sock\"\n"
                      "log-level = \"warn\"\n");
    const RunOptions options = parseRun({"--config", config.string(), "run"});
    const fs::path game = dir.path() / "game";
    CHECK(options.scriptDirs ==
          std::vector<fs::path>{game / "scripts", dir / "common/scripts", "/opt/more"});
    CHECK(options.scene == game / "scene.json");
    CHECK(options.state == game / "saves/world.json");
    CHECK(options.control == game / "run/control.sock");
    CHECK(options.logLevel == "warn");
}

TEST_CASE("config file: a path given as a flag stays relative to the working directory and wins") {
    TempDir dir("config-flags");
    const fs::path config = dir / "scripthost.toml";
    writeFile(config, "[run]\nscripts = [\"scripts\"]\nstate = \"world.json\"\n");
    const RunOptions options =
        parseRun({"--config", config.string(), "run", "--state", "elsewhere/world.json"});
    CHECK(options.state == "elsewhere/world.json");
    CHECK(options.scriptDirs == std::vector<fs::path>{dir / "scripts"});
}

TEST_CASE("config file: --config may follow the subcommand") {
    TempDir dir("config-after");
    const fs::path config = dir / "scripthost.toml";
    writeFile(config, "[run]\nscripts = [\"scripts\"]\nframes = 7\n");
    const RunOptions options = parseRun({"run", "--config", config.string()});
    CHECK(options.scriptDirs == std::vector<fs::path>{dir / "scripts"});
    CHECK(options.frames == 7);
}
