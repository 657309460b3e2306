// StateFile: atomic saves, a missing file, and a corrupt file moved aside (never overwritten).

#include "../../support/test_support.hpp"
#include "host/model/state_file.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("state file: save is atomic and loads back, a missing file is empty, a corrupt one is "
          "moved aside") {
    TempDir dir("state-file");
    const StateFile state(dir.path() / "sub" / "world.json");
    auto missing = state.load();
    REQUIRE(missing.has_value());
    CHECK_FALSE(missing->scene.has_value());
    CHECK(missing->movedAsideTo.empty());

    auto scene = Scene::fromJson(nlohmann::json::parse(R"({
        "format": "scripthost-scene", "version": 1,
        "entities": [{"name": "Ball", "transform": {"position": [1, 2, 3]}}]})"));
    REQUIRE(scene.has_value());
    REQUIRE(state.save(*scene).has_value());
    for (const auto& entry : fs::directory_iterator(dir.path() / "sub"))
        CHECK(entry.path().filename() == "world.json"); // no temp file left behind
    auto loaded = state.load();
    REQUIRE(loaded.has_value());
    REQUIRE(loaded->scene.has_value());
    REQUIRE(loaded->scene->entities.size() == 1);
    CHECK(loaded->scene->entities[0].name == "Ball");
    CHECK(loaded->scene->entities[0].transform.position.z == 3.0f);

    writeFile(state.path(), "{ not json");
    auto corrupt = state.load();
    REQUIRE(corrupt.has_value());
    CHECK_FALSE(corrupt->scene.has_value());
    CHECK_FALSE(corrupt->problem.empty());
    CHECK_FALSE(fs::exists(state.path()));
    REQUIRE(fs::exists(corrupt->movedAsideTo));
    CHECK(readFile(corrupt->movedAsideTo) == "{ not json");
}

TEST_CASE("state file: a save a dead host left half-done is removed at start, a live one's kept") {
    TempDir dir("state-file");
    const StateFile state(dir.path() / "world.json");
    // A process that has exited: its pid is free (reaped), so nobody can be saving under it.
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0)
        ::_exit(0);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    const fs::path dead = dir.path() / fmt::format("world.json.tmp-{}", child);
    const fs::path live = dir.path() / fmt::format("world.json.tmp-{}", ::getppid());
    const fs::path other = dir.path() / "world.json.tmp-notapid";
    for (const fs::path& p : {dead, live, other})
        writeFile(p, "{ half a save");
    auto loaded = state.load();
    REQUIRE(loaded.has_value());
    CHECK(loaded->staleRemoved == std::vector<fs::path>{dead});
    CHECK_FALSE(fs::exists(dead));
    CHECK(fs::exists(live));  // the test runner's parent is alive: it could be saving
    CHECK(fs::exists(other)); // not a name a save uses
    CHECK_FALSE(loaded->scene.has_value());
}
