// HostGameWorld: the GameWorld a game module sees, over a real ScriptHost's World and input:
// what the module writes is the host's, and what the host holds is what the module reads.
#include "../support/mono_test_support.hpp"
#include "host_game_world.hpp"

#include <algorithm>

using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("HostGameWorld: entities a module creates are the host's, with their transform") {
    auto host = makeHost();
    HostGameWorld world(*host);
    Transform placed;
    placed.position = {1.0F, 2.0F, 3.0F};
    const ObjectId wall = world.createEntity("Wall", placed);
    CHECK(world.isAlive(wall));
    CHECK(host->world().isAlive(wall));
    CHECK(world.name(wall) == "Wall");
    CHECK(world.findEntity("Wall") == wall);
    CHECK(world.findEntity("Nobody").isNull());
    const auto all = world.entities();
    CHECK(std::find(all.begin(), all.end(), wall) != all.end());
    CHECK(all.size() == host->world().entities().size());

    // Its transform is the host's own: a write through it moves the host's entity.
    Transform* transform = world.transform(wall);
    REQUIRE(transform != nullptr);
    CHECK(transform->position.y == doctest::Approx(2.0));
    transform->position.x = 9.0F;
    CHECK(host->world().entity(wall)->transform.position.x == doctest::Approx(9.0));

    // A module's destroy waits for the end of the frame, like a script's Destroy.
    world.destroy(wall);
    CHECK(world.isAlive(wall));
    host->tick(0.016);
    CHECK_FALSE(world.isAlive(wall));
    CHECK(world.transform(wall) == nullptr);
    CHECK(world.name(wall).empty());
}

TEST_CASE("HostGameWorld: components and scripts of an entity, and a component's entity") {
    auto host = makeHost();
    HostGameWorld world(*host);
    const ObjectId script = spawnScript(*host, "Tests.Counter");
    REQUIRE(host->world().script(script) != nullptr);
    const ObjectId owner = host->world().script(script)->entity;
    CHECK_FALSE(world.hasComponent(owner, "Collider"));
    auto component = world.addComponent(owner, "Collider");
    REQUIRE_MESSAGE(component, (component ? "" : component.error().message));
    CHECK(world.hasComponent(owner, "Collider"));
    CHECK(world.entityOf(*component) == owner);
    CHECK(host->world().component(*component) != nullptr);
    auto onNothing = world.addComponent(ObjectId{}, "Collider");
    CHECK_FALSE(onNothing);

    const auto classes = world.scriptClasses(owner);
    REQUIRE(classes.size() == 1);
    CHECK(classes[0] == "Tests.Counter");
    CHECK(world.entityOf(script) == owner);
    CHECK(world.entityOf(owner) == owner);
}

TEST_CASE("HostGameWorld: input set by the module is the host's, and the host's is the module's") {
    auto host = makeHost();
    HostGameWorld world(*host);
    CHECK(world.input("Fire") == doctest::Approx(0.0));
    world.setInput("Fire", 1.0F);
    CHECK(host->input().get("Fire") == doctest::Approx(1.0));
    host->input().set("Jump", 0.5F);
    CHECK(world.input("Jump") == doctest::Approx(0.5));
}

TEST_CASE("HostGameWorld: a module's setParent makes the host's hierarchy, transform() is local "
          "and worldTransform composes, and a cycle is refused") {
    auto host = makeHost();
    HostGameWorld world(*host);
    Transform at;
    at.position = {10.0F, 0.0F, 0.0F};
    const ObjectId base = world.createEntity("Base", at);
    at.position = {12.0F, 1.0F, 0.0F};
    const ObjectId arm = world.createEntity("Arm", at);

    REQUIRE(world.setParent(arm, base, true)); // stays where it is: local (2, 1, 0)
    CHECK(world.parent(arm) == base);
    CHECK(world.children(base) == std::vector<ObjectId>{arm});
    CHECK(host->world().entity(arm)->parent == base);
    CHECK(world.transform(arm)->position == glm::vec3(2.0F, 1.0F, 0.0F));
    world.transform(base)->position.x = 20.0F;
    CHECK(world.worldTransform(arm).position == glm::vec3(22.0F, 1.0F, 0.0F));

    auto cycle = world.setParent(base, arm, true);
    REQUIRE_FALSE(cycle);
    CHECK(cycle.error().message ==
          "cannot make \"Base\" a child of \"Arm\": the parent lies below it");
    REQUIRE(world.setParent(arm, ObjectId{}, false)); // a root that keeps its local transform
    CHECK(world.parent(arm).isNull());
    CHECK(world.worldTransform(arm).position == glm::vec3(2.0F, 1.0F, 0.0F));
    CHECK(world.children(ObjectId{}).empty());
    CHECK(world.worldTransform(ObjectId{}) == Transform{});
}
