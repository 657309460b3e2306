// StateSaver: the state file written off the main thread — the newest snapshot wins, the code
// that made it goes beside it, a save that cannot be written is counted and loses the last
// good file to nothing.
#include "../../support/test_support.hpp"
#include "saved_scripts.hpp"
#include "state_saver.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;

namespace {

Scene sceneNamed(const std::string& name, int entities = 1) {
    Scene scene;
    for (int i = 0; i < entities; ++i)
        scene.entities.push_back(SceneEntity{.name = name + std::to_string(i)});
    return scene;
}

std::vector<std::string> entityNames(const fs::path& stateFile) {
    auto loaded = StateFile(stateFile).load();
    REQUIRE(loaded);
    REQUIRE(loaded->scene.has_value());
    std::vector<std::string> names;
    for (const SceneEntity& e : loaded->scene->entities)
        names.push_back(e.name);
    return names;
}

AssemblyFile assembly(std::string image, std::string symbols) {
    AssemblyFile file;
    file.name = "Scripts.dll";
    file.image.assign(image.begin(), image.end());
    file.symbols.assign(symbols.begin(), symbols.end());
    return file;
}

} // namespace

TEST_CASE("StateSaver: flush waits for the save, and the file then holds the newest scene") {
    TempDir dir("state-saver");
    StateSaver saver(StateFile(dir / "state.json"));
    // Many saves in a row: those not yet written are replaced; the last one always lands.
    for (int i = 0; i < 50; ++i)
        saver.save(sceneNamed("gen" + std::to_string(i) + "-", 3), "autosave");
    saver.flush();
    CHECK(entityNames(dir / "state.json") ==
          std::vector<std::string>{"gen49-0", "gen49-1", "gen49-2"});
    CHECK(saver.failures() == 0);
}

TEST_CASE("StateSaver: the running code goes beside the state, written before it") {
    TempDir dir("state-saver-scripts");
    const fs::path state = dir / "saves/world.json";
    fs::create_directories(state.parent_path());
    {
        StateSaver saver{StateFile(state)};
        saver.save(sceneNamed("a"), "after reload 1",
                   std::vector<AssemblyFile>{assembly("MZ-image-1", "mdb-1")});
        saver.save(sceneNamed("b"), "autosave"); // no new code: the saved code stays
    }                                            // the destructor writes what is pending
    CHECK(entityNames(state) == std::vector<std::string>{"b0"});
    auto files = savedScriptsFiles(state);
    REQUIRE(files);
    REQUIRE(files->size() == 1);
    CHECK(files->front().parent_path().parent_path() == dir / "saves/world.scripts");
    const auto scripts = AssemblyFile::read(files->front());
    REQUIRE(scripts);
    CHECK(std::string(scripts->image.begin(), scripts->image.end()) == "MZ-image-1");
    CHECK(std::string(scripts->symbols.begin(), scripts->symbols.end()) == "mdb-1");
}

TEST_CASE("StateSaver: a save that cannot be written is counted, and the last good file stays") {
    TempDir dir("state-saver-fail");
    const fs::path state = dir / "state.json";
    StateSaver saver{StateFile(state)};
    saver.save(sceneNamed("good"), "first");
    saver.flush();
    REQUIRE(entityNames(state) == std::vector<std::string>{"good0"});

    // The code's folder cannot be made (a file is in its place): that save fails as a whole.
    writeFile(dir / "state.scripts", "a file, not a folder");
    saver.save(sceneNamed("lost"), "after reload 2", std::vector<AssemblyFile>{assembly("MZ", "")});
    saver.flush();
    CHECK(saver.failures() == 1);
    CHECK(entityNames(state) == std::vector<std::string>{"good0"});

    fs::remove(dir / "state.scripts");
    saver.save(sceneNamed("later"), "autosave", std::vector<AssemblyFile>{assembly("MZ", "")});
    saver.flush();
    CHECK(saver.failures() == 1);
    CHECK(entityNames(state) == std::vector<std::string>{"later0"});
}
