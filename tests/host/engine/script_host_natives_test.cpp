// ScriptHost's native scripts (script_host_natives.cpp): a native class found by its full or an
// unambiguous short name, a native script made with its scene fields, and a module reload
// (replaceNativeClasses) carrying fields into the new build's objects, parking a script whose
// class is gone with its values and reviving it when its class comes back.
#include "../support/mono_test_support.hpp"
#include "host_game_world.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

int initializations = 0;
int afterReloads = 0;

struct Walker : game::NativeScript {
    std::int32_t steps = 0;
    float speed = 1;
    ObjectId target;
    void initialize() override { ++initializations; }
    void afterReload() override { ++afterReloads; }
    void update(float) override { ++steps; }
};

// Another build of the module: the same class, `speed` now a double.
struct WalkerV2 : game::NativeScript {
    std::int32_t steps = 0;
    double speed = 1;
    ObjectId target;
    void initialize() override { ++initializations; }
    void afterReload() override { ++afterReloads; }
};

struct Looker : game::NativeScript {};

// One build's Demo.Walker (class T: Walker, or WalkerV2 in the next build).
template <class T> game::NativeScriptClassInfo walkerClass() {
    game::NativeScriptClass<T> c("Demo.Walker");
    c.field("steps", &T::steps).field("speed", &T::speed).field("target", &T::target);
    return std::move(c).build();
}

std::vector<game::NativeScriptClassInfo> build(bool withWalker, bool v2 = false) {
    std::vector<game::NativeScriptClassInfo> classes;
    if (withWalker)
        classes.push_back(v2 ? walkerClass<WalkerV2>() : walkerClass<Walker>());
    classes.push_back(game::NativeScriptClass<Looker>("Demo.Looker").build());
    classes.push_back(game::NativeScriptClass<Looker>("Other.Looker").build());
    return classes;
}

void noCrash(const std::string&, const NativeFault&) {}

} // namespace

TEST_CASE("ScriptHost natives: a class is found by its full name or an unambiguous short one") {
    auto host = makeHost();
    CHECK(host->nativeClassName("Walker").empty()); // no module classes yet
    HostGameWorld world(*host);
    const NativeScriptCarry first = host->replaceNativeClasses(build(true), world, noCrash);
    CHECK(first.carried == 0); // the first call only sets the classes
    CHECK(host->nativeClassName("Demo.Walker") == "Demo.Walker");
    CHECK(host->nativeClassName("Walker") == "Demo.Walker");
    CHECK(host->nativeClassName("Other.Looker") == "Other.Looker");
    CHECK(host->nativeClassName("Looker").empty()); // Demo.Looker or Other.Looker
    CHECK(host->nativeClassName("alker").empty());  // a name, not a suffix of one
    CHECK(host->nativeClassName("").empty());
}

TEST_CASE("ScriptHost natives: a native script is made with its scene fields and initialized, "
          "and a bad field leaves no slot behind") {
    auto host = makeHost();
    HostGameWorld world(*host);
    (void)host->replaceNativeClasses(build(true), world, noCrash);
    initializations = 0;
    const ObjectId other = host->world().createEntity("Other");
    const ObjectId walker = spawnScript(*host, "Walker", {{"steps", 4}, {"speed", 2.5}});
    CHECK(host->world().script(walker)->native);
    CHECK(host->world().script(walker)->className == "Demo.Walker");
    CHECK(initializations == 1);
    CHECK(fieldOf<std::int64_t>(*host, walker, "steps") == 4);
    CHECK(fieldOf<float>(*host, walker, "speed") == doctest::Approx(2.5));
    const ScriptClassInfo* shape = host->scriptClassOf(walker);
    REQUIRE(shape != nullptr);
    CHECK(shape->name == "Demo.Walker");

    CHECK_FALSE(host->referencedByNativeScript(other));
    REQUIRE(host->setField(walker, "target", ObjectRef{other}));
    CHECK(host->referencedByNativeScript(other));

    const ObjectId entity = host->world().createEntity("Bad");
    auto bad = host->addScript(entity, SceneScript{"Walker", {{"steps", "many"}}});
    CHECK_FALSE(bad);
    CHECK(host->world().entity(entity)->scripts.empty());
    CHECK(initializations == 1);
}

TEST_CASE("ScriptHost natives: a module reload carries fields by the migration rules, parks a "
          "script whose class is gone and revives it when the class is back") {
    auto host = makeHost();
    HostGameWorld world(*host);
    (void)host->replaceNativeClasses(build(true), world, noCrash);
    const ObjectId walker = spawnScript(*host, "Walker", {{"steps", 3}, {"speed", 1.5}});
    host->tick(0.016);
    REQUIRE(fieldOf<std::int64_t>(*host, walker, "steps") == 4);
    initializations = 0;
    afterReloads = 0;

    // A new build: the same class, speed widened to a double.
    const NativeScriptCarry carried = host->replaceNativeClasses(build(true, true), world, noCrash);
    CHECK(carried.carried == 1);
    CHECK(carried.parked == 0);
    CHECK(carried.problems.empty());
    CHECK(afterReloads == 1);
    CHECK(initializations == 0);
    CHECK(fieldOf<std::int64_t>(*host, walker, "steps") == 4);
    CHECK(fieldOf<double>(*host, walker, "speed") == doctest::Approx(1.5)); // widened
    CHECK(carried.describe().rfind("1 native script(s) carried", 0) == 0);

    // A build without the class: parked, values kept.
    const NativeScriptCarry gone = host->replaceNativeClasses(build(false), world, noCrash);
    CHECK(gone.parked == 1);
    CHECK(gone.carried == 0);
    CHECK(host->world().script(walker)->parked);
    CHECK_FALSE(host->world().script(walker)->native);
    CHECK(host->scriptClassOf(walker) == nullptr);
    CHECK(gone.describe().find("1 parked (their class is gone)") != std::string::npos);

    // The class is back: revived with what it had, and initialized.
    const NativeScriptCarry back = host->replaceNativeClasses(build(true), world, noCrash);
    CHECK(back.revived == 1);
    CHECK(initializations == 1);
    CHECK_FALSE(host->world().script(walker)->parked);
    CHECK(host->world().script(walker)->native);
    CHECK(fieldOf<std::int64_t>(*host, walker, "steps") == 4);
    CHECK(fieldOf<float>(*host, walker, "speed") == doctest::Approx(1.5)); // a float again
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, walker, "steps") == 5);
}
