// UTransform's direct access: scripts read and write the native Transform through a cached
// pointer while the bound world's epoch is unchanged, and take the checked internal call
// otherwise. What a script sees must be what the internal call alone would give.
#include "../support/mono_test_support.hpp"

#include <optional>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {
/// Creates entities until the world's record array reallocates, moving every entity.
void growUntilEntitiesMove(World& world) {
    const std::uint64_t before = world.epoch().value();
    for (int i = 0; i < 1'000'000 && world.epoch().value() == before; ++i) {
        world.createEntity("filler");
    }
    REQUIRE(world.epoch().value() != before);
}

const std::string kOutsideLoop =
    "InvalidOperationException: the engine API was used outside the host's game loop";
} // namespace

TEST_CASE("A transform read directly sees every native change, also after the world's entities "
          "move") {
    auto host = makeHost();
    const ObjectId s = spawnScript(*host, "Tests.TransformMirror");
    const ObjectId entity = host->world().script(s)->entity;
    auto place = [&](glm::vec3 position, glm::quat rotation) {
        Entity* e = host->world().entity(entity);
        REQUIRE(e != nullptr);
        e->transform.position = position;
        e->transform.rotation = rotation;
    };

    place({1, 2, 3}, glm::angleAxis(0.5f, glm::vec3(0, 1, 0)));
    host->tick(0.016);
    place({1.5f, 2.5f, 3.5f}, glm::angleAxis(0.75f, glm::vec3(1, 0, 0)));
    host->tick(0.016); // the second read of the same UTransform: the cache is warm
    CHECK(fieldOf<std::string>(*host, s, "error") == "");
    CHECK(fieldOf<glm::vec3>(*host, s, "seen") == glm::vec3(1.5f, 2.5f, 3.5f));
    CHECK(fieldOf<glm::quat>(*host, s, "seenRotation") ==
          glm::angleAxis(0.75f, glm::vec3(1, 0, 0)));
    CHECK(host->world().entity(entity)->transform.scale == glm::vec3(1.5f, 2.5f, 3.5f));

    // Every entity moves to a new array. A read through the old address would find the
    // old values in freed memory; the script must see the new ones, and write into the live
    // array.
    growUntilEntitiesMove(host->world());
    place({7, 8, 9}, glm::angleAxis(1.0f, glm::vec3(0, 0, 1)));
    REQUIRE(host->setField(s, "moveBy", glm::vec3(1, 0, -0.5f)));
    REQUIRE(host->setField(s, "scaleBy", glm::vec3(2, 0.5f, 1)));
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, s, "error") == "");
    CHECK(fieldOf<glm::vec3>(*host, s, "seen") == glm::vec3(7, 8, 9));
    CHECK(fieldOf<glm::quat>(*host, s, "seenRotation") == glm::angleAxis(1.0f, glm::vec3(0, 0, 1)));
    CHECK(host->world().entity(entity)->transform.scale == glm::vec3(14, 4, 9));
    CHECK(host->world().entity(entity)->transform.position == glm::vec3(8, 8, 8.5f));
    CHECK(fieldOf<std::int64_t>(*host, s, "reads") == 3);
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("A transform warm on the loop's thread is refused on another thread") {
    auto host = makeHost();
    const ObjectId s = spawnScript(*host, "Tests.TransformMirror");
    const ObjectId entity = host->world().script(s)->entity;
    host->world().entity(entity)->transform.position = {3, 3, 3};
    host->tick(0.016);
    host->tick(0.016);
    REQUIRE(host->setField(s, "probeThread", true));
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, s, "error") == "");
    CHECK(fieldOf<std::string>(*host, s, "threadRead") == kOutsideLoop);
    CHECK(fieldOf<std::string>(*host, s, "threadWrite") == kOutsideLoop);
    CHECK(host->world().entity(entity)->transform.position == glm::vec3(3, 3, 3));
}

TEST_CASE("A warm transform is refused with no world bound, and follows the world that is "
          "bound") {
    const BareRuntime bare = startBareRuntime();

    World world;
    ScriptContext context;
    context.world = &world;
    // A second world whose first entity has the same id as the first world's.
    World other;
    ScriptContext otherContext;
    otherContext.world = &other;
    Transform otherPlace;
    otherPlace.position = {-5, -6, -7};
    const ObjectId otherEntity = other.createEntity("Twin", otherPlace);

    std::optional<ScriptContextBinding> bound(std::in_place, context);
    Transform place;
    place.position = {1, 2, 3};
    const ObjectId entity = world.createEntity("E", place);
    REQUIRE(entity == otherEntity);
    const ObjectId slot = *world.addScript(entity, "Tests.TransformMirror");
    auto domain = ScriptDomain::create(1, bare.scriptCore, bare.scripts, world);
    REQUIRE(domain);
    ScriptDomain& d = **domain;
    REQUIRE(d.instantiate(slot, entity, "Tests.TransformMirror"));
    REQUIRE(d.attach(slot));
    auto field = [&](const char* name) {
        auto value = d.getField(slot, name);
        REQUIRE(value);
        return *value;
    };

    REQUIRE(d.runUpdate(0.016f, 0.016, 1));
    REQUIRE(d.runUpdate(0.016f, 0.032, 2));
    CHECK(std::get<glm::vec3>(field("seen")) == glm::vec3(1, 2, 3));

    bound.reset(); // the loop's thread, nothing bound
    REQUIRE(d.runUpdate(0.016f, 0.048, 3));
    CHECK(std::get<std::string>(field("error")) == kOutsideLoop);

    {
        ScriptContextBinding bindOther(otherContext);
        REQUIRE(d.runUpdate(0.016f, 0.064, 4));
    }
    CHECK(std::get<std::string>(field("error")) == "");
    CHECK(std::get<glm::vec3>(field("seen")) == glm::vec3(-5, -6, -7));
    CHECK(other.entity(otherEntity)->transform.scale == glm::vec3(-5, -6, -7));
    CHECK(world.entity(entity)->transform.scale == glm::vec3(1, 2, 3)); // from frame 2 only

    bound.emplace(context);
    REQUIRE(d.runUpdate(0.016f, 0.080, 5));
    CHECK(std::get<glm::vec3>(field("seen")) == glm::vec3(1, 2, 3));
    CHECK(std::get<std::string>(field("error")) == "");
    REQUIRE(d.unload());
}
