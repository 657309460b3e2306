// `scripthost new DIR`, end to end: the real binary writes a project into a real temp folder,
// and `scripthost run` in that folder builds it with the real mcs and runs it.
#include "../support/host_process.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <regex>

using namespace scripthost::testing;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// Runs `scripthost new ARGS…` to its end; returns the exit code and its output.
std::pair<int, std::string> runNew(std::vector<std::string> args) {
    args.insert(args.begin(), "new");
    HostProcess command(std::move(args));
    const int code = command.wait(60s);
    return {code, command.output()};
}

/// `scripthost new DIR/NAME`, which must succeed; returns the project's folder.
fs::path newProject(const TempDir& dir, const std::string& name) {
    const fs::path project = dir / name;
    const auto [code, out] = runNew({project.string()});
    REQUIRE_MESSAGE(code == 0, out);
    return project;
}

/// Every file under `folder` with its contents, by path relative to `folder`.
std::map<std::string, std::string> filesUnder(const fs::path& folder) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        if (entry.is_regular_file())
            files[entry.path().lexically_relative(folder).string()] = readFile(entry.path());
    }
    return files;
}

/// The value of the field `name` of the first script on the entity `entity` in a state file.
json scriptField(const json& state, const std::string& entity, const std::string& name) {
    for (const json& e : state.at("entities")) {
        if (e.value("name", "") == entity)
            return e.at("scripts").at(0).at("fields").at(name);
    }
    return nullptr;
}

} // namespace

TEST_CASE("scripthost new: the project runs with a plain `scripthost run` in its folder, the "
          "example script's log lines and fields show it ran") {
    TempDir dir("new-project");
    const fs::path project = newProject(dir, "my-game");
    for (const char* file :
         {"scripts/Rotator.cs", "scripts/MyGame.asmdef", "scene.json", "scripthost.toml",
          "MyGame.csproj", "MyGame.sln", ".vscode/launch.json", ".gitignore"})
        CHECK_MESSAGE(fs::is_regular_file(project / file), file);

    // No --scripts or --scene: they come from ./scripthost.toml (relative to its folder).
    HostProcess host({"run", "--headless", "--frames", "60", "--fps", "0", "--no-control",
                      "--state", "world.json"},
                     project);
    const int code = host.wait(120s);
    const std::string out = host.output();
    REQUIRE_MESSAGE(code == 0, out);
    CHECK_MESSAGE(out.find("Hello from Player!") != std::string::npos, out);
    CHECK_MESSAGE(out.find("Player ran 60 frames") != std::string::npos, out);
    const json state = json::parse(readFile(project / "world.json"));
    CHECK(scriptField(state, "Player", "frames") == 60);
    CHECK(scriptField(state, "Player", "speed") == 90.0);
}

TEST_CASE("scripthost new: the .csproj references the ScriptCore.dll the host uses, and "
          "ScriptCore.xml beside it documents the API") {
    TempDir dir("new-csproj");
    const fs::path project = newProject(dir, "Arena");
    const std::string csproj = readFile(project / "Arena.csproj");
    std::smatch hint;
    REQUIRE(std::regex_search(csproj, hint, std::regex("<HintPath>([^<]+)</HintPath>")));
    const fs::path scriptCore = hint[1].str();
    CHECK(scriptCore.is_absolute());
    REQUIRE(fs::exists(scriptCore));
    CHECK(fs::equivalent(scriptCore, SCRIPTHOST_SCRIPTCORE_DLL));
    CHECK(csproj.find("<LangVersion>7.2</LangVersion>") != std::string::npos);

    const fs::path docs = fs::path(scriptCore).replace_extension(".xml");
    REQUIRE(fs::exists(docs));
    const std::string xml = readFile(docs);
    CHECK(xml.find("<name>ScriptCore</name>") != std::string::npos);
    const auto log = xml.find("<member name=\"M:UEngine.Debug.Log(System.Object)\">");
    REQUIRE(log != std::string::npos);
    CHECK(xml.find("to the host's log at info level", log) < xml.find("</member>", log));
    CHECK(xml.find("<member name=\"M:UEngine.UMonoScriptComponent.Update(System.Single)\">") !=
          std::string::npos);
}

TEST_CASE("scripthost new: the editor projects follow the assembly definitions: a folder given "
          "one while the host runs gets its project, and the solution names it") {
    TempDir dir("new-editor-projects");
    const fs::path project = newProject(dir, "Arena");
    CHECK(readFile(project / "Arena.csproj").find("scripts/Rotator.cs") != std::string::npos);
    writeFile(project / "scripts/Tools/Tools.asmdef", R"({"name": "Tools"})");
    writeFile(project / "scripts/Tools/Dice.cs",
              "namespace Tools { public static class Dice { public static int Roll() { return 4; "
              "} } }");
    HostProcess host({"run", "--headless", "--frames", "5", "--fps", "0", "--no-control"}, project);
    const int code = host.wait(120s);
    REQUIRE_MESSAGE(code == 0, host.output());
    CHECK_MESSAGE(host.output().find("editor projects updated") != std::string::npos,
                  host.output());
    const std::string tools = readFile(project / "Tools.csproj");
    CHECK(tools.find("<Compile Include=\"scripts/Tools/Dice.cs\" />") != std::string::npos);
    CHECK(readFile(project / "Arena.csproj").find("Dice.cs") == std::string::npos);
    CHECK(readFile(project / "Arena.sln").find("\"Tools.csproj\"") != std::string::npos);
}

TEST_CASE("scripthost new: a folder that is not empty is refused (exit 1, nothing written) "
          "unless --force") {
    TempDir dir("new-not-empty");
    const fs::path project = dir / "busy";
    writeFile(project / "notes.txt", "mine\n");
    writeFile(project / "scene.json", "my own scene\n");
    const auto before = filesUnder(project);

    const auto [refused, refusedOut] = runNew({project.string()});
    CHECK(refused == 1);
    CHECK_MESSAGE(refusedOut.find("is not empty") != std::string::npos, refusedOut);
    CHECK_MESSAGE(refusedOut.find("--force") != std::string::npos, refusedOut);
    CHECK(filesUnder(project) == before);

    const auto [forced, forcedOut] = runNew({project.string(), "--force"});
    REQUIRE_MESSAGE(forced == 0, forcedOut);
    CHECK(readFile(project / "notes.txt") == "mine\n");
    CHECK(fs::is_regular_file(project / "scripts/Rotator.cs"));
    CHECK(readFile(project / "scene.json").find("Busy.Rotator") != std::string::npos);
}

TEST_CASE("scripthost new: a path that is a file is refused with exit 1") {
    TempDir dir("new-file");
    writeFile(dir / "taken", "a file\n");
    const auto [code, out] = runNew({(dir / "taken").string()});
    CHECK(code == 1);
    CHECK_MESSAGE(out.find("is not a folder") != std::string::npos, out);
    CHECK(readFile(dir / "taken") == "a file\n");
}
