// ScriptHost::instantiate: a scene builds every entity, sets the fields before Initialize, and
// a scene with a bad script creates nothing. Real mcs builds, the real runtime.
#include "../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("ScriptHost: a scene with a bad script creates nothing") {
    auto host = makeHost();
    auto scene = Scene::fromJson(json::parse(R"({"entities": [
        {"name": "Good", "scripts": [{"class": "Tests.Counter", "fields": {"step": 2}}]},
        {"name": "Bad", "scripts": [{"class": "Tests.Counter", "fields": {"nope": 1}}]}]})"));
    REQUIRE(scene);
    auto made = host->instantiate(*scene);
    REQUIRE_FALSE(made);
    CHECK(made.error().message.find("entity \"Bad\"") != std::string::npos);
    CHECK(host->world().entityCount() == 0);
}

TEST_CASE("ScriptHost: a scene sets fields before Initialize and builds every entity") {
    auto host = makeHost();
    auto scene = Scene::fromJson(json::parse(R"({"entities": [
        {"name": "A", "components": ["Render"], "scripts": [{"class": "Tests.Counter", "fields": {"step": 4}}]},
        {"name": "B", "transform": {"position": [1, 2, 3]}, "scripts": ["Tests.FieldZoo"]}]})"));
    REQUIRE(scene);
    REQUIRE(host->instantiate(*scene));
    const ObjectId a = host->world().findEntity("A");
    const ObjectId b = host->world().findEntity("B");
    REQUIRE_FALSE(a.isNull());
    CHECK(host->world().entity(b)->transform.position == glm::vec3(1, 2, 3));
    const ObjectId counter = host->world().entity(a)->scripts.at(0);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 4);
}
