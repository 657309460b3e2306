// StateFile: atomic saves, a missing file, and a corrupt file moved aside (never overwritten).

#include "../support/test_support.hpp"
#include "host/state_file.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

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
