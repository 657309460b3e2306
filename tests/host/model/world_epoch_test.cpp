// WorldEpoch: when pointers into a world's entities go stale, and the thread's bound cell.
#include "host/model/world.hpp"
#include "host/model/world_epoch.hpp"

#include <doctest/doctest.h>
#include <thread>
#include <utility>

using namespace scripthost;

namespace {
/// Creates entities until the record array reallocates (the epoch changes); returns how many.
int growUntilEpochChanges(World& world) {
    const std::uint64_t before = world.epoch().value();
    int made = 0;
    while (world.epoch().value() == before && made < 1'000'000) {
        world.createEntity("filler");
        ++made;
    }
    return made;
}
} // namespace

TEST_CASE("WorldEpoch: destroying an entity or growing the records changes it") {
    World world;
    const ObjectId first = world.createEntity("First");
    growUntilEpochChanges(world);
    const ObjectId kept = world.createEntity("Kept");

    const std::uint64_t beforeDestroy = world.epoch().value();
    REQUIRE(world.destroy(first));
    CHECK(world.epoch().value() != beforeDestroy);

    // The freed slot is reused: no record moves, so pointers to the others stay good.
    const std::uint64_t beforeReuse = world.epoch().value();
    const ObjectId reused = world.createEntity("Reused");
    CHECK(reused.index == first.index);
    CHECK(world.epoch().value() == beforeReuse);

    // Components and scripts come and go without moving an entity.
    auto component = world.addComponent(kept, "Camera");
    auto script = world.addScript(kept, "Demo.Spin");
    REQUIRE(component);
    REQUIRE(script);
    const std::uint64_t beforeChildren = world.epoch().value();
    REQUIRE(world.destroy(*component));
    REQUIRE(world.destroy(*script));
    CHECK(world.epoch().value() == beforeChildren);

    // Growing again moves every entity.
    const Entity* keptBefore = world.entity(kept);
    CHECK(growUntilEpochChanges(world) > 0);
    CHECK(world.entity(kept) != keptBefore);
}

TEST_CASE("WorldEpoch: no two worlds share a number, not a copy and not a moved-to world") {
    World a;
    a.createEntity("E");
    World b;
    CHECK(a.epoch().value() != 0);
    CHECK(a.epoch().value() != b.epoch().value());

    const std::uint64_t aBefore = a.epoch().value();
    World copy = a;
    CHECK(copy.epoch().value() != aBefore);
    CHECK(a.epoch().value() == aBefore); // copying does not move a's entities

    World moved = std::move(a);
    CHECK(moved.epoch().value() != aBefore);
    CHECK(a.epoch().value() != aBefore); // a's entities moved away

    const std::uint64_t bBefore = b.epoch().value();
    b = copy;
    CHECK(b.epoch().value() != bBefore);
    CHECK(b.epoch().value() != copy.epoch().value());
}

TEST_CASE("WorldEpoch: the bound cell follows its world's changes, and only its world's") {
    World bound;
    World other;
    const ObjectId e = bound.createEntity("E");
    detail::tBoundWorldEpoch = bound.epoch().value(); // what ScriptContextBinding does

    REQUIRE(bound.destroy(e));
    CHECK(detail::tBoundWorldEpoch == bound.epoch().value());
    growUntilEpochChanges(bound);
    CHECK(detail::tBoundWorldEpoch == bound.epoch().value());

    const std::uint64_t cell = detail::tBoundWorldEpoch;
    growUntilEpochChanges(other);
    CHECK(detail::tBoundWorldEpoch == cell);

    // Another thread has a cell of its own, empty, whatever this one holds.
    std::uint64_t seenThere = 1;
    std::thread([&] { seenThere = detail::tBoundWorldEpoch; }).join();
    CHECK(seenThere == 0);

    {
        World doomed;
        detail::tBoundWorldEpoch = doomed.epoch().value();
    }
    CHECK(detail::tBoundWorldEpoch == 0); // a destroyed world leaves no number behind
}
