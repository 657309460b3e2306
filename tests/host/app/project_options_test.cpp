// ProjectOptions: `run` and `smoke` declare the project's options in one place, so both take
// the same flags with the same checks and defaults.
#include "../../support/test_support.hpp"
#include "run_options.hpp"
#include "smoke_command.hpp"

#include <CLI/CLI.hpp>
#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

/// Parses `args` after "scripthost" with both subcommands declared; returns the parsed
/// options of each.
struct Parsed {
    RunOptions run;
    SmokeOptions smoke;
};

void parse(Parsed& parsed, std::vector<std::string> args) {
    CLI::App app;
    addRunCommand(app, parsed.run);
    addSmokeCommand(app, parsed.smoke);
    args.insert(args.begin(), "scripthost");
    std::vector<const char*> argv;
    for (const std::string& arg : args)
        argv.push_back(arg.c_str());
    app.parse(static_cast<int>(argv.size()), argv.data());
}

} // namespace

TEST_CASE("ProjectOptions: run and smoke take the project's flags into the same fields") {
    TempDir dir("project-options");
    writeFile(dir / "scene.json", "{}");
    writeFile(dir / "game.so", "not really a library");
    for (const char* command : {"run", "smoke"}) {
        INFO(command);
        Parsed parsed;
        parse(parsed, {command, "--scripts", (dir / "a").string(), "--scripts",
                       (dir / "b").string(), "--scene", (dir / "scene.json").string(), "--game",
                       (dir / "game.so").string(), "--scriptcore", "/opt/ScriptCore.dll",
                       "--cold-compiler", "--watchdog-ms", "250", "--log-level", "debug"});
        const ProjectOptions& o = std::string(command) == "run"
                                      ? static_cast<const ProjectOptions&>(parsed.run)
                                      : static_cast<const ProjectOptions&>(parsed.smoke);
        CHECK(o.scriptDirs == std::vector<std::filesystem::path>{dir / "a", dir / "b"});
        CHECK(o.scene == dir / "scene.json");
        CHECK(o.game == dir / "game.so");
        CHECK(o.scriptCore == "/opt/ScriptCore.dll");
        CHECK(o.coldCompiler);
        CHECK(o.watchdogMs == 250);
        CHECK(o.logLevel == "debug");
    }
}

TEST_CASE("ProjectOptions: the same checks and defaults for run and smoke") {
    for (const char* command : {"run", "smoke"}) {
        INFO(command);
        {
            Parsed parsed;
            parse(parsed, {command, "--scripts", "s"});
            const ProjectOptions& o = std::string(command) == "run"
                                          ? static_cast<const ProjectOptions&>(parsed.run)
                                          : static_cast<const ProjectOptions&>(parsed.smoke);
            CHECK(o.watchdogMs == 1000);
            CHECK(o.logLevel == "info");
            CHECK_FALSE(o.coldCompiler);
            CHECK(o.game.empty());
        }
        Parsed parsed;
        CHECK_THROWS_AS(parse(parsed, {command}), CLI::RequiredError); // --scripts is required
        CHECK_THROWS_AS(parse(parsed, {command, "--scripts", "s", "--game", "/no/such/game.so"}),
                        CLI::ValidationError);
        CHECK_THROWS_AS(parse(parsed, {command, "--scripts", "s", "--watchdog-ms", "-1"}),
                        CLI::ValidationError);
        CHECK_THROWS_AS(parse(parsed, {command, "--scripts", "s", "--log-level", "loud"}),
                        CLI::ValidationError);
    }
}
