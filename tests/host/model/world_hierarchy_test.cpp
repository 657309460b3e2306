// World's hierarchy: parents and children, sibling order, world transforms, activeInHierarchy,
// destruction of whole subtrees, and walks that never recurse.
#include "host/model/world.hpp"

#include <doctest/doctest.h>
#include <glm/gtc/quaternion.hpp>

using namespace scripthost;

namespace {
bool near(const glm::vec3& a, const glm::vec3& b) {
    return glm::length(a - b) <= 1e-4f;
}
Transform at(glm::vec3 position) {
    Transform t;
    t.position = position;
    return t;
}
} // namespace

TEST_CASE("World hierarchy: a child keeps its world place by default, or its local transform "
          "when asked, and moves with its parent") {
    World world;
    Transform turned = at({10, 0, 0});
    turned.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0));
    const ObjectId parent = world.createEntity("Parent", turned);
    const ObjectId kept = world.createEntity("Kept", at({10, 0, 5}));
    const ObjectId local = world.createEntity("Local", at({0, 0, 1}));

    REQUIRE(world.setParent(kept, parent));
    CHECK(near(world.worldTransform(kept).position, {10, 0, 5}));
    // 5 along the world's +Z is 5 along the parent's -X: its +X is turned to the world's -Z.
    CHECK(near(world.entity(kept)->transform.position, {-5, 0, 0}));
    REQUIRE(world.setParent(local, parent, false));
    CHECK(world.entity(local)->transform.position == glm::vec3(0, 0, 1));
    CHECK(near(world.worldTransform(local).position, {11, 0, 0}));

    world.entity(parent)->transform.position = {0, 3, 0};
    CHECK(near(world.worldTransform(local).position, {1, 3, 0}));
    CHECK(world.entity(parent)->children == std::vector<ObjectId>{kept, local});
    CHECK(world.entity(local)->parent == parent);

    REQUIRE(world.setParent(local, ObjectId{})); // back to a root, where it is
    CHECK(near(world.entity(local)->transform.position, {1, 3, 0}));
    CHECK(world.entity(parent)->children == std::vector<ObjectId>{kept});
}

TEST_CASE("World hierarchy: a parent that is the child or lies below it, or is not a live entity, "
          "is refused and nothing changes") {
    World world;
    const ObjectId a = world.createEntity("A");
    const ObjectId b = world.createEntity("B");
    const ObjectId c = world.createEntity("C");
    REQUIRE(world.setParent(b, a));
    REQUIRE(world.setParent(c, b));
    const ObjectId gone = world.createEntity("Gone");
    world.destroy(gone);
    const ObjectId component = *world.addComponent(b, "Camera");
    const std::uint64_t epoch = world.epoch().value();

    auto self = world.setParent(a, a);
    REQUIRE_FALSE(self);
    CHECK(self.error().message ==
          "cannot make \"A\" a child of \"A\": an entity cannot be its own parent");
    auto cycle = world.setParent(a, c);
    REQUIRE_FALSE(cycle);
    CHECK(cycle.error().message == "cannot make \"A\" a child of \"C\": the parent lies below it");
    CHECK_FALSE(world.setParent(a, gone));
    CHECK_FALSE(world.setParent(a, component));
    CHECK_FALSE(world.setParent(gone, a));

    CHECK(world.entity(a)->parent.isNull());
    CHECK(world.entity(c)->parent == b);
    CHECK(world.epoch().value() == epoch); // nothing moved, no cached transform went stale
    CHECK(world.isWithin(c, a));
    CHECK(world.isWithin(a, a));
    CHECK_FALSE(world.isWithin(a, c));
}

TEST_CASE("World hierarchy: a change of parent changes the epoch, so cached transforms re-learn "
          "whether they are a root's") {
    World world;
    const ObjectId a = world.createEntity("A");
    const ObjectId b = world.createEntity("B");
    const std::uint64_t before = world.epoch().value();
    REQUIRE(world.setParent(b, a));
    CHECK(world.epoch().value() != before);
}

TEST_CASE("World hierarchy: sibling order is the order children were added, and SetSiblingIndex "
          "moves one") {
    World world;
    const ObjectId p = world.createEntity("P");
    std::vector<ObjectId> kids;
    for (int i = 0; i < 4; ++i) {
        kids.push_back(world.createEntity("K" + std::to_string(i)));
        REQUIRE(world.setParent(kids.back(), p));
    }
    CHECK(world.siblingIndex(kids[2]) == 2);
    CHECK(world.setSiblingIndex(kids[3], 0));
    CHECK(world.entity(p)->children == std::vector<ObjectId>{kids[3], kids[0], kids[1], kids[2]});
    CHECK(world.setSiblingIndex(kids[3], 99)); // past the end: last
    CHECK(world.entity(p)->children == kids);
    CHECK_FALSE(world.setSiblingIndex(p, 0)); // a root has no siblings to order here
    CHECK(world.subtree(p) == std::vector<ObjectId>{p, kids[0], kids[1], kids[2], kids[3]});
}

TEST_CASE("World hierarchy: activeInHierarchy follows every parent, and SetActive reports exactly "
          "the entities whose activeInHierarchy changed") {
    World world;
    const ObjectId root = world.createEntity("Root");
    const ObjectId mid = world.createEntity("Mid");
    const ObjectId leaf = world.createEntity("Leaf");
    const ObjectId off = world.createEntity("Off");
    const ObjectId underOff = world.createEntity("UnderOff");
    REQUIRE(world.setParent(mid, root));
    REQUIRE(world.setParent(leaf, mid));
    REQUIRE(world.setParent(off, root));
    REQUIRE(world.setParent(underOff, off));
    CHECK(world.setActive(off, false) == std::vector<ObjectId>{off, underOff});
    CHECK_FALSE(world.activeInHierarchy(underOff));
    CHECK(world.entity(underOff)->active); // its own flag is untouched

    CHECK(world.setActive(root, false) == std::vector<ObjectId>{root, mid, leaf}); // not Off's
    CHECK_FALSE(world.activeInHierarchy(leaf));
    CHECK(world.setActive(mid, false).empty()); // already inactive in the hierarchy
    CHECK(world.setActive(root, true) == std::vector<ObjectId>{root});
    CHECK_FALSE(world.activeInHierarchy(leaf));
    CHECK(world.setActive(mid, true) == std::vector<ObjectId>{mid, leaf});

    // A move under an inactive parent, and out again.
    auto under = world.setParent(mid, off);
    REQUIRE(under);
    CHECK(*under == std::vector<ObjectId>{mid, leaf});
    auto out = world.setParent(mid, root);
    REQUIRE(out);
    CHECK(*out == std::vector<ObjectId>{mid, leaf});
    CHECK(world.activeInHierarchy(leaf));
}

TEST_CASE("World hierarchy: destroying an entity destroys everything below it, and a destroyed "
          "child leaves its parent's list") {
    World world;
    const ObjectId root = world.createEntity("Root");
    const ObjectId a = world.createEntity("A");
    const ObjectId b = world.createEntity("B");
    const ObjectId c = world.createEntity("C");
    REQUIRE(world.setParent(a, root));
    REQUIRE(world.setParent(b, a));
    REQUIRE(world.setParent(c, root));
    const ObjectId script = *world.addScript(b, "Demo.Mover");

    CHECK(world.destroy(c));
    CHECK(world.entity(root)->children == std::vector<ObjectId>{a});
    CHECK(world.destroy(a));
    CHECK_FALSE(world.isAlive(b));
    CHECK_FALSE(world.isAlive(script));
    CHECK(world.entity(root)->children.empty());
    CHECK(world.entityCount() == 1);
    CHECK(world.scriptCount() == 0);
}

TEST_CASE("World hierarchy: a chain of 200,000 nested entities is walked, moved and destroyed "
          "without recursion") {
    World world;
    // Built from the leaf up, so each step is constant time (a cycle check walks up from the
    // new parent, a root).
    const ObjectId leaf = world.createEntity("Leaf", at({1, 0, 0}));
    ObjectId top = leaf;
    bool linked = true;
    for (int i = 0; i < 200'000; ++i) {
        const ObjectId next = world.createEntity("N", at({1, 0, 0}));
        linked = linked && world.setParent(top, next, false).has_value();
        top = next;
    }
    REQUIRE(linked);
    CHECK(world.worldTransform(leaf).position.x == doctest::Approx(200'001.0));
    CHECK(world.subtree(top).size() == 200'001);
    CHECK(world.setActive(top, false).size() == 200'001);
    CHECK_FALSE(world.activeInHierarchy(leaf));
    CHECK_FALSE(world.setParent(top, leaf)); // a cycle, found by walking up 200,000 parents
    CHECK(world.destroy(top));
    CHECK(world.entityCount() == 0);
}
