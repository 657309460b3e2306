// ScriptDomain: generations side by side in one runtime, and many created and unloaded with
// handles back to their baseline.
#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/runtime/mono_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

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
