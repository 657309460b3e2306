#include "host/model/world.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

TEST_CASE("World: entities, components and scripts get distinct live ids") {
    World world;
    const ObjectId e = world.createEntity("Camera");
    auto cam = world.addComponent(e, "Camera");
    auto script = world.addScript(e, "Demo.PlayerInput");
    REQUIRE(cam);
    REQUIRE(script);
    CHECK(world.kindOf(e) == ObjectKind::Entity);
    CHECK(world.kindOf(*cam) == ObjectKind::Component);
    CHECK(world.kindOf(*script) == ObjectKind::Script);
    CHECK(world.entity(e)->components == std::vector<ObjectId>{*cam});
    CHECK(world.entity(e)->scripts == std::vector<ObjectId>{*script});
    CHECK(world.component(*cam)->kind == "Camera");
    CHECK(world.script(*script)->className == "Demo.PlayerInput");
    CHECK(world.entity(*cam) == nullptr); // right id, wrong kind
    CHECK(world.entityCount() == 1);
    CHECK(world.scriptCount() == 1);
}

TEST_CASE("World: a destroyed id is stale forever, even when its slot is reused") {
    World world;
    const ObjectId first = world.createEntity("A");
    REQUIRE(world.destroy(first));
    CHECK_FALSE(world.isAlive(first));
    CHECK_FALSE(world.destroy(first));
    const ObjectId second = world.createEntity("B");
    CHECK(second.index == first.index);           // slot reused…
    CHECK(second.generation != first.generation); // …under a new generation
    CHECK(world.entity(first) == nullptr);
    REQUIRE(world.entity(second) != nullptr);
    CHECK(world.entity(second)->name == "B");
}

TEST_CASE("World: destroying an entity destroys its components and scripts") {
    World world;
    const ObjectId e = world.createEntity("Ball");
    const ObjectId other = world.createEntity("Wall");
    auto render = world.addComponent(e, "Render");
    auto script = world.addScript(e, "BallScript");
    REQUIRE(world.destroy(e));
    CHECK_FALSE(world.isAlive(*render));
    CHECK_FALSE(world.isAlive(*script));
    CHECK(world.isAlive(other));
    CHECK(world.entityCount() == 1);
    CHECK(world.scriptCount() == 0);
    CHECK_FALSE(world.addScript(e, "X")); // error value, not a crash
    CHECK_FALSE(world.addComponent(ObjectId{}, "Camera"));
}

TEST_CASE("World: destroying a script removes it from its entity") {
    World world;
    const ObjectId e = world.createEntity("E");
    auto a = world.addScript(e, "A");
    auto b = world.addScript(e, "B");
    REQUIRE(world.destroy(*a));
    CHECK(world.entity(e)->scripts == std::vector<ObjectId>{*b});
}

TEST_CASE("World: entities() lists live entities in creation order, findEntity by name") {
    World world;
    const ObjectId a = world.createEntity("A");
    const ObjectId b = world.createEntity("B");
    const ObjectId c = world.createEntity("C");
    world.destroy(b);
    const ObjectId d = world.createEntity("D"); // reuses b's slot but comes last
    CHECK(world.entities() == std::vector<ObjectId>{a, c, d});
    CHECK(world.findEntity("C") == c);
    CHECK(world.findEntity("B").isNull());
}

TEST_CASE(
    "World: entityOf names the entity of an entity, a component or a script, null once gone") {
    World world;
    const ObjectId e = world.createEntity("Tank");
    const ObjectId other = world.createEntity("Other");
    auto turret = world.addComponent(e, "Render");
    auto mover = world.addScript(e, "TankMovement");
    REQUIRE(turret);
    REQUIRE(mover);
    CHECK(world.entityOf(e) == e);
    CHECK(world.entityOf(*turret) == e);
    CHECK(world.entityOf(*mover) == e);
    CHECK(world.entityOf(other) == other);
    REQUIRE(world.destroy(*mover));
    CHECK(world.entityOf(*mover).isNull());
    REQUIRE(world.destroy(e));
    CHECK(world.entityOf(*turret).isNull());
    CHECK(world.entityOf(e).isNull());
    CHECK(world.entityOf(ObjectId{}).isNull());
}

TEST_CASE("World: a new entity is active and untagged, entitiesWithTag finds tagged ones in "
          "creation order") {
    World world;
    const ObjectId a = world.createEntity("A");
    const ObjectId b = world.createEntity("B");
    const ObjectId c = world.createEntity("C");
    CHECK(world.entity(a)->active);
    CHECK(world.entity(a)->tag.empty());
    world.entity(c)->tag = "Enemy";
    world.entity(a)->tag = "Enemy";
    CHECK(world.entitiesWithTag("Enemy") == std::vector<ObjectId>{a, c});
    CHECK(world.entitiesWithTag("Untagged") == std::vector<ObjectId>{b});
    CHECK(world.entitiesWithTag("").size() == 1);
    CHECK(world.entitiesWithTag("Player").empty());
    REQUIRE(world.destroy(a));
    CHECK(world.entitiesWithTag("Enemy") == std::vector<ObjectId>{c});
}

TEST_CASE("ObjectId packs and unpacks losslessly") {
    const ObjectId id{0xfffffffeu, 0x80000001u};
    CHECK(ObjectId::unpack(id.packed()) == id);
    CHECK(id.packed() == 0x80000001fffffffeull);
    CHECK(ObjectId{}.isNull());
    CHECK(ObjectId{}.packed() == 0);
}
