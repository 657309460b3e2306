// ProjectStateLocation: where a project's state file lives — beside its scripthost.toml, or
// under $XDG_STATE_HOME by a name its script folders always give and no other project shares.
#include "../../support/test_support.hpp"
#include "project_state_location.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;

TEST_CASE("ProjectStateLocation: a project with a config file keeps its state beside it") {
    const auto at = ProjectStateLocation::of("/home/me/game", {"/home/me/game/scripts"});
    CHECK(at.folder == fs::path("/home/me/game/.scripthost"));
    CHECK(at.stateFile == fs::path("/home/me/game/.scripthost/state.json"));
}

TEST_CASE("ProjectStateLocation: without one, the script folders name a folder of their own "
          "under $XDG_STATE_HOME") {
    TempDir dir("state-location");
    fs::create_directories(dir / "game/scripts");
    fs::create_directories(dir / "other/scripts");
    ScopedEnv xdg("XDG_STATE_HOME", (dir / "state").string());

    const auto at = ProjectStateLocation::of({}, {dir / "game/scripts"});
    CHECK(at.folder.parent_path() == dir / "state" / "scripthost");
    CHECK(at.folder.filename().string().rfind("scripts-", 0) == 0);
    CHECK(at.folder.filename().string().size() == std::string("scripts-").size() + 16);
    CHECK(at.stateFile == at.folder / "state.json");

    // The same folders, spelt another way, find the same place; other folders another one.
    CHECK(ProjectStateLocation::of({}, {dir / "game/scripts/"}).folder == at.folder);
    CHECK(ProjectStateLocation::of({}, {dir / "game/./scripts"}).folder == at.folder);
    CHECK(ProjectStateLocation::of({}, {dir / "other/scripts"}).folder != at.folder);
    CHECK(ProjectStateLocation::of({}, {dir / "game/scripts", dir / "other/scripts"}).folder !=
          at.folder);
}

TEST_CASE("ProjectStateLocation: a relative $XDG_STATE_HOME is ignored, as the XDG spec says") {
    TempDir dir("state-location-home");
    ScopedEnv xdg("XDG_STATE_HOME", "relative/state");
    ScopedEnv home("HOME", (dir / "home").string());
    const auto at = ProjectStateLocation::of({}, {dir / "scripts"});
    CHECK(at.folder.parent_path() == dir / "home" / ".local" / "state" / "scripthost");
}
