#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/runtime/mono_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("ScriptDomain: finds exactly the concrete script classes, and what they override") {
    auto host = makeHost();
    std::vector<std::string> names;
    for (const auto& c : host->domain()->scriptClasses())
        names.push_back(c.name);
    CHECK(names == std::vector<std::string>{"Tests.BadArguments",
                                            "Tests.CameraDriver",
                                            "Tests.Counter",
                                            "Tests.Factory",
                                            "Tests.FieldZoo",
                                            "Tests.FixedOnly",
                                            "Tests.Idle",
                                            "Tests.MarshalConstants",
                                            "Tests.MarshalEcho",
                                            "Tests.MathProbe",
                                            "Tests.NeedsArgument",
                                            "Tests.ProxyHolder",
                                            "Tests.Spawner",
                                            "Tests.StaleTransform",
                                            "Tests.StaleUser",
                                            "Tests.Thrower",
                                            "Tests.ThrowsInConstructor",
                                            "Tests.ThrowsInInitialize",
                                            "Tests.TransformMirror",
                                            "Tests.TransformOnDestroyed",
                                            "Tests.ZooBase"});
    const ScriptClassInfo* counter = host->domain()->findScriptClass("Counter"); // short name
    REQUIRE(counter != nullptr);
    CHECK(counter->overridesUpdate);
    CHECK(counter->overridesFixedUpdate);
    const ScriptClassInfo* fixedOnly = host->domain()->findScriptClass("Tests.FixedOnly");
    CHECK_FALSE(fixedOnly->overridesUpdate);
    CHECK(fixedOnly->overridesFixedUpdate);
    CHECK(host->domain()->findScriptClass("Tests.NotAScript") == nullptr);
}

TEST_CASE("ScriptDomain: the [SerializeField] schema is exact") {
    auto host = makeHost();
    const ScriptClassInfo* zoo = host->domain()->findScriptClass("Tests.FieldZoo");
    REQUIRE(zoo != nullptr);
    std::vector<std::string> names;
    for (const FieldInfo& f : zoo->fields)
        names.push_back(f.name);
    // Base class first; public-without-attribute, [NonSerialized], static and plain
    // private fields are all excluded.
    CHECK(names == std::vector<std::string>{"baseValue", "basePrivate", "flag", "i8", "u8", "i16",
                                            "u16", "i32", "u32", "i64", "u64", "f32", "f64", "text",
                                            "mood", "tiny", "position", "renamed"});
    const FieldInfo& renamed = zoo->fields.back();
    CHECK(renamed.displayName == "Pretty Name");
    std::vector<std::string> former = renamed.formerNames;
    std::sort(former.begin(), former.end());
    CHECK(former == std::vector<std::string>{"oldName", "olderName"});
    CHECK(zoo->fields[0].declaringClass == "Tests.ZooBase");
    CHECK(zoo->fields[2].declaringClass == "Tests.FieldZoo");
    const FieldInfo& mood = zoo->fields[14];
    CHECK(mood.type.kind == ValueKind::Enum);
    CHECK(mood.type.enumMembers == std::vector<std::pair<std::string, std::int64_t>>{
                                       {"Calm", 0}, {"Happy", 5}, {"Angry", -3}});
    CHECK(zoo->fields[15].type.enumMembers.back() ==
          std::pair<std::string, std::int64_t>{"Max", 255});
    CHECK(zoo->fields[16].type.kind == ValueKind::Vector3);
    CHECK(zoo->fields[11].type.kind == ValueKind::Float);
}

TEST_CASE("ScriptDomain: every field kind reads its initial value and round-trips edge values") {
    auto host = makeHost();
    const ObjectId zoo = spawnScript(*host, "Tests.FieldZoo");
    CHECK(fieldOf<std::int64_t>(*host, zoo, "baseValue") == 11);
    CHECK(fieldOf<std::string>(*host, zoo, "basePrivate") == "base");
    CHECK(fieldOf<bool>(*host, zoo, "flag") == true);
    CHECK(fieldOf<std::int64_t>(*host, zoo, "i8") == -8);
    CHECK(fieldOf<std::uint64_t>(*host, zoo, "u64") == 64);
    CHECK(fieldOf<double>(*host, zoo, "f64") == 2.25);
    CHECK(fieldOf<std::string>(*host, zoo, "text") == "héllo");
    CHECK(fieldOf<std::int64_t>(*host, zoo, "mood") == 5);
    CHECK(fieldOf<glm::vec3>(*host, zoo, "position") == glm::vec3(1, 2, 3));

    const std::vector<std::pair<std::string, Value>> edges = {
        {"flag", false},
        {"i8", std::int64_t{INT8_MIN}},
        {"u8", std::uint64_t{UINT8_MAX}},
        {"i16", std::int64_t{INT16_MIN}},
        {"u16", std::uint64_t{UINT16_MAX}},
        {"i32", std::int64_t{INT32_MIN}},
        {"u32", std::uint64_t{UINT32_MAX}},
        {"i64", std::int64_t{INT64_MIN}},
        {"u64", std::uint64_t{UINT64_MAX}},
        {"f32", -INFINITY},
        {"f64", 1e308},
        {"text", std::string("日本語 ✓ and \"quotes\"")},
        {"mood", std::int64_t{-3}},
        {"tiny", std::int64_t{255}},
        {"position", glm::vec3(-0.0f, 1e-38f, 3.5f)},
    };
    for (const auto& [name, value] : edges) {
        auto written = host->setField(zoo, name, value);
        REQUIRE_MESSAGE(written, (name + ": " + (written ? "" : written.error().message)));
        auto read = host->getField(zoo, name);
        REQUIRE(read);
        CHECK_MESSAGE(*read == value, (name + " read back " + describe(*read)));
    }
    CHECK(fieldOf<std::string>(*host, zoo, "text") == "日本語 ✓ and \"quotes\"");
    host->setField(zoo, "f32", std::numeric_limits<float>::quiet_NaN()).value();
    CHECK(std::isnan(fieldOf<float>(*host, zoo, "f32")));
    CHECK(host->setField(zoo, "text", std::string()).has_value());
    CHECK(fieldOf<std::string>(*host, zoo, "text").empty());
}

TEST_CASE("ScriptDomain: bad field writes are errors and change nothing") {
    auto host = makeHost();
    const ObjectId zoo = spawnScript(*host, "Tests.FieldZoo");
    CHECK_FALSE(host->setField(zoo, "u8", std::int64_t{256}));
    CHECK_FALSE(host->setField(zoo, "u8", std::int64_t{-1}));
    CHECK(fieldOf<std::uint64_t>(*host, zoo, "u8") == 8);
    CHECK_FALSE(host->setField(zoo, "i32", std::string("3")));
    CHECK_FALSE(host->setField(zoo, "text", std::string("bad \xff utf-8")));
    CHECK(fieldOf<std::string>(*host, zoo, "text") == "héllo");
    auto missing = host->setField(zoo, "nonSerialized", std::int64_t{1});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("no [SerializeField] field named nonSerialized") !=
          std::string::npos);
    CHECK_FALSE(host->getField(ObjectId{999, 1}, "i8"));
}

TEST_CASE("ScriptHost: Update changes a field that C++ reads back, only overriders are scheduled") {
    auto host = makeHost();
    const ObjectId counter = spawnScript(*host, "Tests.Counter", json{{"step", 3}});
    spawnScript(*host, "Tests.Idle");
    const ObjectId fixedOnly = spawnScript(*host, "Tests.FixedOnly");
    CHECK(fieldOf<bool>(*host, counter, "initialized"));
    CHECK(host->domain()->scheduledCount(ScriptPhase::Update) == 1);
    CHECK(host->domain()->scheduledCount(ScriptPhase::FixedUpdate) == 2);

    for (int i = 0; i < 10; ++i)
        host->tick(0.01); // 0.1 s → 5 fixed steps of 0.02
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 30);
    CHECK(fieldOf<float>(*host, counter, "elapsed") == doctest::Approx(0.1));
    CHECK(fieldOf<double>(*host, counter, "lastTime") == doctest::Approx(0.1).epsilon(1e-5));
    CHECK(fieldOf<std::int64_t>(*host, counter, "fixedUpdates") == 5);
    CHECK(fieldOf<std::int64_t>(*host, fixedOnly, "ticks") == 5);
    CHECK(host->stats().summary().frames == 10);
}

TEST_CASE("ScriptHost: removing a script runs Destroy and unschedules it") {
    auto host = makeHost();
    const ObjectId counter = spawnScript(*host, "Tests.Counter");
    host->tick(0.016);
    REQUIRE(host->removeScript(counter));
    CHECK(host->domain()->scheduledCount(ScriptPhase::Update) == 0);
    CHECK(host->domain()->instanceCount() == 0);
    CHECK_FALSE(host->world().isAlive(counter));
    host->tick(0.016); // nothing left to run, nothing breaks
    CHECK_FALSE(host->getField(counter, "updates"));
}

TEST_CASE("ScriptHost: an exception's text carries the managed stack with File.cs:LINE") {
    auto host = makeHost();
    const ObjectId thrower = spawnScript(*host, "Tests.Thrower");
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 1);
    const ScriptFailure& failure = host->recentFailures().back();
    CHECK(failure.script == thrower);
    CHECK(failure.className == "Tests.Thrower");
    CHECK(failure.phase == ScriptPhase::Update);
    CHECK(failure.exceptionType == "System.InvalidOperationException");
    CHECK(failure.message == "thrower failed on purpose");
    const std::string source = std::string(SCRIPTHOST_TEST_SCRIPTS_SOURCE_DIR) + "/Thrower.cs";
    const int line = lineOf(source, "THROW-LINE");
    REQUIRE(line > 0);
    CHECK_MESSAGE(failure.text.find("Thrower.cs:" + std::to_string(line)) != std::string::npos,
                  failure.text);
    CHECK(failure.text.find("Tests.Thrower.Update") != std::string::npos);
}

TEST_CASE(
    "ScriptHost: a script that throws every frame is disabled after N while the others run on") {
    auto host = makeHost(/*disableAfterFailures*/ 5);
    const ObjectId thrower = spawnScript(*host, "Tests.Thrower");
    const ObjectId counter = spawnScript(*host, "Tests.Counter");
    for (int i = 0; i < 20; ++i)
        host->tick(0.016);
    CHECK(host->scriptFailureCount() == 5);
    CHECK(fieldOf<std::int64_t>(*host, thrower, "calls") == 5); // not called once disabled
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 20);
    CHECK_FALSE(host->world().script(thrower)->enabled);
    CHECK(host->recentFailures().back().disabled);
    CHECK(host->recentFailures().back().consecutive == 5);
    CHECK(host->domain()->scheduledCount(ScriptPhase::Update) == 1);
}

TEST_CASE("ScriptHost: a success ends a failure streak") {
    auto host = makeHost(/*disableAfterFailures*/ 3);
    const ObjectId thrower = spawnScript(*host, "Tests.Thrower");
    for (int round = 0; round < 4; ++round) {
        REQUIRE(host->setField(thrower, "failing", true));
        host->tick(0.016);
        host->tick(0.016); // two failures: below the limit of three
        REQUIRE(host->setField(thrower, "failing", false));
        host->tick(0.016); // success resets the streak
    }
    CHECK(host->scriptFailureCount() == 8);
    CHECK(host->world().script(thrower)->enabled);
    CHECK(fieldOf<std::int64_t>(*host, thrower, "calls") == 12);
}

TEST_CASE("ScriptHost: construction failures are clear errors and leave the world unchanged") {
    auto host = makeHost();
    const ObjectId entity = host->world().createEntity("E");
    auto ctor = host->addScript(entity, SceneScript{"Tests.ThrowsInConstructor", json::object()});
    REQUIRE_FALSE(ctor);
    CHECK(ctor.error().message.find("constructor refuses") != std::string::npos);
    auto noDefault = host->addScript(entity, SceneScript{"Tests.NeedsArgument", json::object()});
    REQUIRE_FALSE(noDefault);
    CHECK(noDefault.error().message.find("parameterless constructor") != std::string::npos);
    auto notScript = host->addScript(entity, SceneScript{"Tests.NotAScript", json::object()});
    REQUIRE_FALSE(notScript);
    CHECK(notScript.error().message ==
          "class Tests.NotAScript does not derive from UEngine.UMonoScriptComponent");
    auto missing = host->addScript(entity, SceneScript{"Tests.Nope", json::object()});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("no script class named Tests.Nope") != std::string::npos);
    auto badField = host->addScript(entity, SceneScript{"Tests.Counter", json{{"step", "three"}}});
    REQUIRE_FALSE(badField);
    CHECK(badField.error().message.find("Tests.Counter.step") != std::string::npos);
    CHECK(host->world().entity(entity)->scripts.empty());
    CHECK(host->world().scriptCount() == 0);
    CHECK(host->domain()->instanceCount() == 0);
}

TEST_CASE("ScriptHost: an exception in Initialize is reported and the script still updates") {
    auto host = makeHost();
    const ObjectId s = spawnScript(*host, "Tests.ThrowsInInitialize");
    REQUIRE(host->scriptFailureCount() == 1);
    CHECK(host->recentFailures().back().phase == ScriptPhase::Initialize);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, s, "updates") == 1);
}

TEST_CASE("ScriptDomain: two generations coexist, and the old one unloads cleanly") {
    auto runtime = MonoRuntime::start();
    REQUIRE(runtime);
    glue::registerEngineInternalCalls(**runtime); // what the host's composition root does
    TempDir dir("generations");
    const auto source = [](int version) {
        return "using UEngine;\npublic class Gen : UMonoScriptComponent {\n"
               "  [SerializeField] int version = " +
               std::to_string(version) +
               ";\n"
               "  [SerializeField] int updates;\n"
               "  public override void Update(float dt) { updates += version; }\n}\n";
    };
    const AssemblyFile v1 = compileScripts(dir, "Gen1.dll", {{"Gen.cs", source(1)}});
    const AssemblyFile v2 = compileScripts(dir, "Gen2.dll", {{"Gen.cs", source(2)}});
    auto core = AssemblyFile::read(SCRIPTHOST_SCRIPTCORE_DLL);
    REQUIRE(core);

    World world;
    ScriptContext context;
    context.world = &world;
    ScriptContextBinding bind(context);
    const ObjectId entity = world.createEntity("E");
    const ObjectId slot = *world.addScript(entity, "Gen");

    auto first = ScriptDomain::create(1, *core, v1, world);
    REQUIRE(first);
    auto second = ScriptDomain::create(2, *core, v2, world);
    REQUIRE(second);
    ScriptDomain& g1 = **first;
    ScriptDomain& g2 = **second;
    REQUIRE(g1.instantiate(slot, entity, "Gen"));
    REQUIRE(g1.attach(slot));
    REQUIRE(g2.instantiate(slot, entity, "Gen"));
    REQUIRE(g2.attach(slot));
    // Each generation runs its own code on its own instance.
    REQUIRE(g1.runUpdate(0.016f, 0.016, 1));
    REQUIRE(g2.runUpdate(0.016f, 0.016, 1));
    REQUIRE(g2.runUpdate(0.016f, 0.032, 2));
    CHECK(std::get<std::int64_t>(*g1.getField(slot, "version")) == 1);
    CHECK(std::get<std::int64_t>(*g2.getField(slot, "version")) == 2);
    CHECK(std::get<std::int64_t>(*g1.getField(slot, "updates")) == 1);
    CHECK(std::get<std::int64_t>(*g2.getField(slot, "updates")) == 4);

    const std::size_t handlesBefore = ScriptDomain::liveGcHandles();
    auto unloaded = g1.unload();
    REQUIRE_MESSAGE(unloaded, (unloaded ? "" : unloaded.error().message));
    CHECK(ScriptDomain::liveGcHandles() == handlesBefore - 1);
    CHECK(g1.instanceCount() == 0);
    CHECK_FALSE(g1.runUpdate(0.016f, 0.048, 3)); // an error value, not a crash
    CHECK_FALSE(g1.getField(slot, "version"));
    // The survivor keeps working after its sibling's unload.
    REQUIRE(g2.runUpdate(0.016f, 0.048, 3));
    CHECK(std::get<std::int64_t>(*g2.getField(slot, "updates")) == 6);
    REQUIRE(g2.unload());
    CHECK(g2.unload()); // idempotent
}

TEST_CASE(
    "ScriptDomain: 200 create/unload cycles return handles to baseline and print RSS growth") {
    auto host = makeHost(); // starts the runtime and gives a world for the scripts
    auto core = AssemblyFile::read(SCRIPTHOST_SCRIPTCORE_DLL);
    auto scripts = AssemblyFile::read(SCRIPTHOST_TEST_SCRIPTS_DLL);
    REQUIRE(core);
    REQUIRE(scripts);
    World world;
    ScriptContext context;
    context.world = &world;
    ScriptContextBinding bind(context);
    const ObjectId entity = world.createEntity("E");
    const ObjectId slot = *world.addScript(entity, "Tests.Counter");
    const std::size_t handles = ScriptDomain::liveGcHandles();

    auto cycle = [&](std::uint32_t generation) {
        auto domain = ScriptDomain::create(100 + generation, *core, *scripts, world);
        REQUIRE(domain);
        REQUIRE((*domain)->instantiate(slot, entity, "Tests.Counter"));
        REQUIRE((*domain)->attach(slot));
        REQUIRE((*domain)->runUpdate(0.016f, 0.016, 1));
        CHECK(std::get<std::int64_t>(*(*domain)->getField(slot, "updates")) == 1);
        auto unloaded = (*domain)->unload();
        REQUIRE_MESSAGE(unloaded, (unloaded ? "" : unloaded.error().message));
    };
    for (std::uint32_t g = 0; g < 20; ++g)
        cycle(g); // warm-up: JIT, caches
    ScriptDomain::collectGarbage();
    const long rssBefore = residentKiB();
    for (std::uint32_t g = 20; g < 220; ++g)
        cycle(g);
    ScriptDomain::collectGarbage();
    const long rssAfter = residentKiB();
    CHECK(ScriptDomain::liveGcHandles() == handles);
    MESSAGE("RSS over 200 generations: " << rssBefore << " KiB -> " << rssAfter << " KiB ("
                                         << (rssAfter - rssBefore) / 200.0
                                         << " KiB per generation)");
    std::printf("RSS growth over 200 create/unload cycles: %ld KiB (%.1f KiB per generation)\n",
                rssAfter - rssBefore, (rssAfter - rssBefore) / 200.0);
    // A leak of a whole domain per cycle (images, JIT code) would be megabytes; bound it.
    CHECK(rssAfter - rssBefore < 200 * 256);
}
