#include "../../support/test_support.hpp"
#include "host/model/scene.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using nlohmann::json;

TEST_CASE("Scene: parses entities, transforms, components and scripts") {
    const json j = json::parse(R"({
      "format": "scripthost-scene", "version": 1,
      "entities": [
        { "name": "Camera",
          "transform": { "position": [0, 2, 8], "rotation": [0, 0, 0, 1], "scale": [2, 2, 2] },
          "components": ["Camera"],
          "scripts": [ { "class": "Demo.PlayerInput", "fields": { "speed": 4.5 } }, "Demo.Other" ] },
        { "name": "Empty" } ] })");
    auto scene = Scene::fromJson(j);
    REQUIRE(scene);
    REQUIRE(scene->entities.size() == 2);
    const SceneEntity& cam = scene->entities[0];
    CHECK(cam.name == "Camera");
    CHECK(cam.transform.position == glm::vec3(0, 2, 8));
    CHECK(cam.transform.scale == glm::vec3(2, 2, 2));
    CHECK(cam.components == std::vector<std::string>{"Camera"});
    REQUIRE(cam.scripts.size() == 2);
    CHECK(cam.scripts[0].className == "Demo.PlayerInput");
    CHECK(cam.scripts[0].fields["speed"] == 4.5);
    CHECK(cam.scripts[1].className == "Demo.Other");
    CHECK(scene->entities[1].transform == Transform{});
}

TEST_CASE("Scene: errors name the JSON path") {
    auto bad = Scene::fromJson(
        json::parse(R"({"entities": [{"name": "A"}, {"transform": {"position": [1, 2]}}]})"));
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("entities[1].transform.position") != std::string::npos);
    auto unknown = Scene::fromJson(json::parse(R"({"entities": [{"nmae": "A"}]})"));
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().message.find("entities[0].nmae: unknown key") != std::string::npos);
    CHECK_FALSE(Scene::fromJson(json::parse(R"({"version": 99})")));
    CHECK_FALSE(Scene::fromJson(json::parse(R"({"entities": [{"scripts": [{"fields": {}}]}]})")));
}

TEST_CASE("Scene: toJson round-trips through fromJson") {
    Scene scene;
    SceneEntity e;
    e.name = "Ball";
    e.transform.position = {1, 2, 3};
    e.components = {"Render"};
    e.scripts.push_back({"Demo.BallScript", json{{"speed", 3}}});
    scene.entities.push_back(e);
    auto back = Scene::fromJson(scene.toJson());
    REQUIRE(back);
    CHECK(back->toJson() == scene.toJson());
    CHECK(back->entities[0].transform == e.transform);
}

TEST_CASE("Scene::load: missing file, invalid JSON, comments allowed") {
    testing::TempDir dir("scene");
    CHECK_FALSE(Scene::load(dir / "missing.json"));
    testing::writeFile(dir / "bad.json", "{ not json");
    auto bad = Scene::load(dir / "bad.json");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("not valid JSON") != std::string::npos);
    testing::writeFile(dir / "ok.json", "// a scene\n{\"entities\": [{\"name\": \"A\"}]}");
    auto ok = Scene::load(dir / "ok.json");
    REQUIRE(ok);
    CHECK(ok->entities.at(0).name == "A");
}

// The three cases below were found with fuzz_scene_json: its save-and-load-again invariant
// broke (the saved form did not load back), or a wrong version was read as 1.

TEST_CASE("Scene: a rotation with huge components normalises instead of becoming zero") {
    auto scene = Scene::fromJson(
        json::parse(R"({"entities": [{"transform": {"rotation": [3e38, 3e38, 3e38, 3e38]}}]})"));
    REQUIRE(scene);
    const glm::quat r = scene->entities[0].transform.rotation;
    CHECK(r.x == doctest::Approx(0.5));
    CHECK(r.y == doctest::Approx(0.5));
    CHECK(r.z == doctest::Approx(0.5));
    CHECK(r.w == doctest::Approx(0.5));
    CHECK(Scene::fromJson(scene->toJson()).has_value());
}

TEST_CASE("Scene: an empty script class name is refused in both forms") {
    auto shortForm = Scene::fromJson(json::parse(R"({"entities": [{"scripts": [""]}]})"));
    REQUIRE_FALSE(shortForm);
    CHECK(shortForm.error().message.find("entities[0].scripts[0]") != std::string::npos);
    CHECK_FALSE(Scene::fromJson(json::parse(R"({"entities": [{"scripts": [{"class": ""}]}]})")));
}

TEST_CASE("Scene: a version that only fits 1 after truncation to int is refused") {
    CHECK_FALSE(Scene::fromJson(json::parse(R"({"version": 4294967297})")));
    CHECK_FALSE(Scene::fromJson(json::parse(R"({"version": 18446744073709551615})")));
    CHECK(Scene::fromJson(json::parse(R"({"version": 1})")));
    CHECK(Scene::fromJson(json::parse(R"({"version": 0})")));
}

TEST_CASE("Scene::fromText: nesting past the limit is refused before it is built") {
    const auto nested = [](int levels) { // levels of arrays inside a field of a script
        return R"({"entities": [{"scripts": [{"class": "C", "fields": {"a": )" +
               std::string(levels, '[') + std::string(levels, ']') + "}}]}]}";
    };
    CHECK(Scene::fromText(nested(Scene::kMaxDepth - 6)));
    auto deep = Scene::fromText(nested(Scene::kMaxDepth - 5));
    REQUIRE_FALSE(deep);
    CHECK(deep.error().message.find("nested") != std::string::npos);
    // 300,000 levels overflowed the stack while the fields were copied.
    CHECK_FALSE(Scene::fromText(nested(300'000)));
}

TEST_CASE("Scene: a script that set enabled = false is saved as \"enabled\": false and read back") {
    Scene scene;
    SceneEntity e;
    e.name = "Door";
    SceneScript off{"Demo.Door", json::object()};
    off.enabled = false;
    e.scripts.push_back(off);
    e.scripts.push_back({"Demo.Lamp", json::object()});
    scene.entities.push_back(e);
    const json saved = scene.toJson();
    CHECK(saved["entities"][0]["scripts"][0]["enabled"] == false);
    CHECK_FALSE(saved["entities"][0]["scripts"][1].contains("enabled")); // the default is left out
    auto back = Scene::fromJson(saved);
    REQUIRE(back);
    CHECK_FALSE(back->entities[0].scripts[0].enabled);
    CHECK(back->entities[0].scripts[1].enabled);
    auto bad = Scene::fromJson(json::parse(
        R"({"entities": [{"name": "A", "scripts": [{"class": "X", "enabled": "no"}]}]})"));
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("entities[0].scripts[0].enabled: expected true or false") !=
          std::string::npos);
}

TEST_CASE("Scene: an inactive entity and a tag are saved as \"active\": false and \"tag\" and read "
          "back") {
    const json j = json::parse(R"({"entities": [
        {"name": "Pool", "active": false, "tag": "Enemy"},
        {"name": "Plain", "tag": "Untagged"},
        {"name": "Default"} ]})");
    auto scene = Scene::fromJson(j);
    REQUIRE(scene);
    CHECK_FALSE(scene->entities[0].active);
    CHECK(scene->entities[0].tag == "Enemy");
    CHECK(scene->entities[1].active);
    CHECK(scene->entities[1].tag.empty()); // "Untagged" is the default, kept as none
    const json saved = scene->toJson();
    CHECK(saved["entities"][0]["active"] == false);
    CHECK(saved["entities"][0]["tag"] == "Enemy");
    CHECK_FALSE(saved["entities"][1].contains("tag"));
    CHECK_FALSE(saved["entities"][2].contains("active")); // the defaults are left out
    auto back = Scene::fromJson(saved);
    REQUIRE(back);
    CHECK(back->toJson() == saved);
    auto badActive = Scene::fromJson(json::parse(R"({"entities": [{"active": 0}]})"));
    REQUIRE_FALSE(badActive);
    CHECK(badActive.error().message.find("entities[0].active: expected true or false") !=
          std::string::npos);
    auto badTag = Scene::fromJson(json::parse(R"({"entities": [{"tag": ["Enemy"]}]})"));
    REQUIRE_FALSE(badTag);
    CHECK(badTag.error().message.find("entities[0].tag: expected a string") != std::string::npos);
}

TEST_CASE("Scene: \"parent\" names another entity or is a reference, is saved back, and anything "
          "else is refused with its path") {
    const json j = json::parse(R"({"entities": [
        {"name": "Arm", "parent": "Body"},
        {"name": "Hand", "parent": {"id": 7}},
        {"name": "Body"} ]})");
    auto scene = Scene::fromJson(j);
    REQUIRE(scene);
    CHECK(scene->entities[0].parent == json{{"entity", "Body"}});
    CHECK(scene->entities[1].parent == json{{"id", 7}});
    CHECK(scene->entities[2].parent.is_null());
    const json saved = scene->toJson();
    CHECK(saved["entities"][0]["parent"] == json{{"entity", "Body"}});
    CHECK_FALSE(saved["entities"][2].contains("parent"));
    auto back = Scene::fromJson(saved);
    REQUIRE(back);
    CHECK(back->toJson() == saved);
    auto bad = Scene::fromJson(json::parse(R"({"entities": [{"name": "A"}, {"parent": 3}]})"));
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("entities[1].parent: expected the parent's name") !=
          std::string::npos);
}

TEST_CASE("Scene: \"destroyAfter\" keeps pending delayed destroys by saved id, round-trips, and "
          "a negative, infinite or missing time is refused") {
    auto scene = Scene::fromJson(json::parse(
        R"({"entities": [], "destroyAfter": [{"id": 12, "seconds": 0.5}, {"id": 4294967297, "seconds": 0}]})"));
    REQUIRE(scene);
    CHECK(scene->delayedDestroys ==
          std::vector<SceneDelayedDestroy>{{12, 0.5}, {4294967297ULL, 0.0}});
    auto back = Scene::fromJson(scene->toJson());
    REQUIRE(back);
    CHECK(back->delayedDestroys == scene->delayedDestroys);
    CHECK_FALSE(Scene::fromJson(json{{"entities", json::array()}})
                    .value()
                    .toJson()
                    .contains("destroyAfter"));
    for (const char* bad :
         {R"({"destroyAfter": [{"id": 1, "seconds": -1}]})", R"({"destroyAfter": [{"id": 1}]})",
          R"({"destroyAfter": {"id": 1}})", R"({"destroyAfter": [{"id": -3, "seconds": 1}]})"}) {
        auto refused = Scene::fromJson(json::parse(bad));
        REQUIRE_FALSE(refused);
        CHECK_MESSAGE(refused.error().message.starts_with("destroyAfter"), bad);
    }
}
