// ProjectTemplate: the names and texts `scripthost new` writes, without writing anything.
#include "host/model/scene.hpp"
#include "project_template.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace scripthost;

namespace {

const ProjectFile& fileAt(const std::vector<ProjectFile>& files, const std::string& path) {
    auto it = std::ranges::find_if(files, [&](const ProjectFile& f) { return f.path == path; });
    REQUIRE_MESSAGE(it != files.end(), path);
    return *it;
}

} // namespace

TEST_CASE("namespaceFromFolderName: PascalCase words of letters and digits, never a keyword") {
    CHECK(namespaceFromFolderName("my-game 2") == "MyGame2");
    CHECK(namespaceFromFolderName("space_invaders.v3") == "SpaceInvadersV3");
    CHECK(namespaceFromFolderName("Demo") == "Demo");
    CHECK(namespaceFromFolderName("class") == "Class");
    CHECK(namespaceFromFolderName("2048") == "_2048");
    CHECK(namespaceFromFolderName("caf\xC3\xA9 bar") == "CafBar");
    CHECK(namespaceFromFolderName("---") == "Game");
    CHECK(namespaceFromFolderName("") == "Game");
}

TEST_CASE("projectTemplate: the scene puts the example script, in the project's namespace, on "
          "an entity") {
    const auto files = projectTemplate("MyGame");
    const std::string script = fileAt(files, "scripts/Rotator.cs").text;
    CHECK(script.find("namespace MyGame") != std::string::npos);
    CHECK(script.find("public class Rotator : UMonoScriptComponent") != std::string::npos);

    auto scene = Scene::fromText(fileAt(files, "scene.json").text);
    REQUIRE_MESSAGE(scene, scene.error().message);
    REQUIRE(scene->entities.size() == 1);
    CHECK(scene->entities[0].name == "Player");
    REQUIRE(scene->entities[0].scripts.size() == 1);
    CHECK(scene->entities[0].scripts[0].className == "MyGame.Rotator");
    CHECK(scene->entities[0].scripts[0].fields["speed"] == 90.0);
}

TEST_CASE("projectTemplate: scripthost.toml names the scripts folder and the scene it writes, for "
          "run and smoke") {
    const auto files = projectTemplate("MyGame");
    const std::string toml = fileAt(files, "scripthost.toml").text;
    CHECK(toml.find("[run]\nscripts = [\"scripts\"]\nscene = \"scene.json\"\n") !=
          std::string::npos);
    CHECK(toml.find("[smoke]\nscripts = [\"scripts\"]\nscene = \"scene.json\"\n") !=
          std::string::npos);
    CHECK(toml.find("\nheadless") == std::string::npos); // a terminal view unless asked
}

TEST_CASE("projectTemplate: the scripts folder is one assembly named after the project (an "
          "assembly definition Unity reads too)") {
    const auto files = projectTemplate("MyGame");
    const auto definition = nlohmann::json::parse(fileAt(files, "scripts/MyGame.asmdef").text);
    CHECK(definition["name"] == "MyGame");
    CHECK(definition["references"] == nlohmann::json::array());
    CHECK(std::ranges::none_of(files, [](const ProjectFile& f) {
        return f.path.extension() == ".csproj"; // editor_projects.cpp makes those
    }));
}

TEST_CASE("projectTemplate: launch.json attaches VS Code's Mono debugger to the debug port") {
    const auto files = projectTemplate("MyGame");
    const auto launch = nlohmann::json::parse(fileAt(files, ".vscode/launch.json").text);
    REQUIRE(launch["configurations"].size() == 1);
    const auto& attach = launch["configurations"][0];
    CHECK(attach["type"] == "mono");
    CHECK(attach["request"] == "attach");
    CHECK(attach["address"] == "127.0.0.1");
    CHECK(attach["port"] == 55555);
}
