// ScriptHost's scene loads (ScriptEngine::requestSceneLoad, keepOnSceneLoad): where a name is
// looked for, what is refused before anything changes, and what the end of the frame does.
#include "../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("ScriptHost scene load: a name is NAME.scene.json or NAME.json beside the active scene, "
          "or a path to a .json file, and nothing happens before the frame ends") {
    TempDir dir("scene-names");
    writeFile(dir / "levels" / "two.json", R"({"entities": [{"name": "Two"}]})");
    writeFile(dir / "three.scene.json", R"({"entities": [{"name": "Three"}]})");
    auto host = makeHost();
    host->world().createEntity("Old");
    host->setActiveScenePath(dir / "main.scene.json");

    auto missing = host->requestSceneLoad("two");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message == "no scene \"two\" (looked for " +
                                         (dir / "two.scene.json").string() + ", " +
                                         (dir / "two.json").string() + ")");
    REQUIRE(host->requestSceneLoad("levels/two.json"));
    CHECK_FALSE(host->world().findEntity("Old").isNull()); // not before the frame's end
    host->tick(0.016);
    CHECK(host->world().findEntity("Old").isNull());
    CHECK_FALSE(host->world().findEntity("Two").isNull());
    CHECK(host->activeScenePath() == dir / "levels" / "two.json");

    // Now beside levels/two.json: three.scene.json is one folder up, so a path it takes.
    CHECK_FALSE(host->requestSceneLoad("three"));
    REQUIRE(host->requestSceneLoad((dir / "three.scene.json").string()));
    host->tick(0.016);
    CHECK_FALSE(host->world().findEntity("Three").isNull());
    CHECK(host->world().entityCount() == 1);
}

TEST_CASE("ScriptHost scene load: a file that is not a scene, an unknown component kind and an "
          "empty name are refused with what is wrong, and the world stays") {
    TempDir dir("scene-refused");
    writeFile(dir / "broken.json", "{ not json");
    writeFile(dir / "odd.json", R"({"entities": [{"name": "O", "components": ["Laser"]}]})");
    auto host = makeHost();
    host->setActiveScenePath(dir / "main.json");
    const ObjectId stays = host->world().createEntity("Stays");
    auto broken = host->requestSceneLoad("broken");
    REQUIRE_FALSE(broken);
    CHECK(broken.error().message.starts_with("scene " + (dir / "broken.json").string() + ": "));
    auto odd = host->requestSceneLoad("odd");
    REQUIRE_FALSE(odd);
    CHECK(odd.error().message == "scene " + (dir / "odd.json").string() +
                                     ": entity \"O\": unknown component kind \"Laser\"");
    CHECK_FALSE(host->requestSceneLoad(""));
    host->tick(0.016);
    CHECK(host->world().isAlive(stays));
}
