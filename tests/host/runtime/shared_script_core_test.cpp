// SharedScriptCore: one ScriptCore image for every generation.
#include "../support/mono_test_support.hpp"
#include "runtime/runtime_state.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {
/// The ScriptCore image of the domain ScriptDomain::create just made (it leaves it current).
MonoImage* scriptCoreOfNewest() {
    return mono::runtimeState().domains.scriptCoreImage(mono_domain_get());
}
} // namespace

TEST_CASE("ScriptCore: every generation uses one image, which outlives the generation that "
          "loaded it, and other bytes get an image of their own") {
    const BareRuntime bare = startBareRuntime();
    const AssemblyFile& core = bare.scriptCore;
    const AssemblyFile& scripts = bare.scripts;
    World world;
    ScriptContext context;
    context.world = &world;
    ScriptContextBinding bind(context);
    const ObjectId entity = world.createEntity("E");
    const ObjectId slot = *world.addScript(entity, "Tests.Counter");
    auto runs = [&](ScriptDomain& d, std::int64_t frame) {
        REQUIRE(d.instantiate(slot, entity, "Tests.Counter"));
        REQUIRE(d.attach(slot));
        REQUIRE(d.runUpdate(0.016f, 0.016 * frame, frame));
        CHECK(std::get<std::int64_t>(*d.getField(slot, "updates")) == 1);
    };

    auto first = ScriptDomain::create(1, core, scripts, world);
    REQUIRE(first);
    MonoImage* shared = scriptCoreOfNewest();
    REQUIRE(shared != nullptr);
    runs(**first, 1);
    auto second = ScriptDomain::create(2, core, scripts, world);
    REQUIRE(second);
    CHECK(scriptCoreOfNewest() == shared);

    // The generation that loaded it goes; the image stays, and the next one runs on it.
    REQUIRE((*first)->unload());
    first->reset();
    runs(**second, 2);
    REQUIRE((*second)->unload());
    second->reset();
    auto third = ScriptDomain::create(3, core, scripts, world);
    REQUIRE(third);
    CHECK(scriptCoreOfNewest() == shared);
    runs(**third, 3);
    CHECK(mono::runtimeState().scriptCore.ownCopies() == 0);

    // ScriptCore rebuilt while the host runs: other bytes (here one byte more, which Mono
    // ignores), so a generation of its own, never the shared image by name.
    AssemblyFile rebuilt = core;
    rebuilt.image.push_back('\0');
    auto fourth = ScriptDomain::create(4, rebuilt, scripts, world);
    REQUIRE_MESSAGE(fourth, (fourth ? "" : fourth.error().message));
    MonoImage* own = scriptCoreOfNewest();
    CHECK(own != nullptr);
    CHECK(own != shared);
    CHECK(mono::runtimeState().scriptCore.ownCopies() == 1);
    REQUIRE((*third)->unload());
    runs(**fourth, 4);
    REQUIRE((*fourth)->unload());
}
