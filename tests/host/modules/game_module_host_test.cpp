// GameModuleHost: a real game module (tests/host/modules/support/probe_module.cpp, a shared
// library built beside the tests) loaded into a real ScriptHost: what it registered, its
// systems' work in the world, a system that throws or crashes, its internal calls run guarded,
// its state handed over, and libraries that are no game module refused with a clear message.
#include "../../support/test_support.hpp"
#include "../support/mono_test_support.hpp"
#include "host/modules/game_module_host.hpp"

#include <cstdlib>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

std::unique_ptr<GameModuleHost> loadProbe(ScriptHost& host) {
    auto module = GameModuleHost::load(PROBE_GAME_MODULE, host);
    REQUIRE_MESSAGE(module, (module ? "" : module.error().message));
    return std::move(*module);
}

// A crash in the test's own code, standing in for a module's internal call body.
__attribute__((noinline)) void probeWriteThroughNull() {
    volatile int* volatile nowhere = nullptr;
    *nowhere = 1;
}

float movedX(ScriptHost& host) {
    const ObjectId moved = host.world().findEntity("Moved");
    REQUIRE_FALSE(moved.isNull());
    return host.world().entity(moved)->transform.position.x;
}

} // namespace

TEST_CASE("GameModuleHost: a loaded module reports its name, version and everything it "
          "registered") {
    auto host = makeHost();
    auto module = loadProbe(*host);
    CHECK(module->name() == "probe module");
    CHECK(module->version() == "2.5");
    CHECK(module->path() == PROBE_GAME_MODULE);
    REQUIRE(module->components().size() == 1);
    CHECK(module->components()[0].kind == "Probe");
    CHECK(module->components()[0].description == "a probed thing");
    REQUIRE(module->keyBindings().size() == 1);
    CHECK(module->keyBindings()[0].key == "p");
    CHECK(module->keyBindings()[0].action == "Poke");
    CHECK(module->keyBindings()[0].value == doctest::Approx(1.0));
    CHECK(module->systemCount() == 3);
    CHECK(module->carriesState());
    CHECK(module->renderer() == nullptr);
    CHECK(module->crashed().empty());
    // Its component kind is the world's now.
    const ObjectId entity = host->world().createEntity("WithProbe");
    CHECK(host->world().addComponent(entity, "Probe").has_value());
}

TEST_CASE("GameModuleHost: a library that is no game module, a missing file and a failing attach "
          "are refused with what went wrong") {
    auto host = makeHost();
    TempDir dir("module-refused");
    auto missing = GameModuleHost::load(dir / "libnothing.so", *host);
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("cannot load game module") != std::string::npos);

    // A real shared library without the entry points: the C math library.
    auto notAModule = GameModuleHost::load("/lib/x86_64-linux-gnu/libm.so.6", *host);
    REQUIRE_FALSE(notAModule);
    CHECK_MESSAGE(notAModule.error().message.find("is not a scripthost game module") !=
                      std::string::npos,
                  notAModule.error().message);

    ScopedEnv failing("SCRIPTHOST_PROBE_ATTACH_FAILS", "no level file found");
    auto refused = GameModuleHost::load(PROBE_GAME_MODULE, *host);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("failed to attach: no level file found") !=
          std::string::npos);
}

TEST_CASE("GameModuleHost: systems of a phase run in order and their work shows in the world") {
    auto host = makeHost();
    auto module = loadProbe(*host);
    host->world().createEntity("Moved", Transform{});
    const game::FrameTime time{};
    for (int frame = 0; frame < 3; ++frame)
        module->runSystems(game::SystemPhase::BeforeScripts, time);
    CHECK(movedX(*host) == doctest::Approx(3.0));
    // The after-scripts systems do not move it.
    module->runSystems(game::SystemPhase::AfterScripts, time);
    CHECK(movedX(*host) == doctest::Approx(3.0));
}

TEST_CASE("GameModuleHost: a system that throws is switched off and the others run on") {
    auto host = makeHost();
    auto module = loadProbe(*host);
    host->world().createEntity("Moved", Transform{});
    const game::FrameTime time{};
    host->input().set("Throw", 1.0F);
    module->runSystems(game::SystemPhase::AfterScripts, time);
    host->input().set("Throw", 0.0F);
    CHECK(module->crashed().empty()); // a C++ exception is no crash: the module stays on
    module->runSystems(game::SystemPhase::BeforeScripts, time);
    module->runSystems(game::SystemPhase::AfterScripts, time);
    CHECK(movedX(*host) == doctest::Approx(1.0));
}

TEST_CASE("GameModuleHost: a system that crashes switches the whole module off and says where") {
    auto host = makeHost();
    auto module = loadProbe(*host);
    host->world().createEntity("Moved", Transform{});
    const game::FrameTime time{};
    module->runSystems(game::SystemPhase::BeforeScripts, time);
    host->input().set("Crash", 1.0F);
    module->runSystems(game::SystemPhase::AfterScripts, time);
    INFO(module->crashed());
    CHECK(module->crashed().find("crasher") != std::string::npos);
    CHECK(module->crashed().find("SIGSEGV") != std::string::npos);
    // None of its systems runs again, and the host goes on.
    module->runSystems(game::SystemPhase::BeforeScripts, time);
    CHECK(movedX(*host) == doctest::Approx(1.0));
    host->tick(0.016);
    CHECK(host->frame() >= 1);
}

TEST_CASE("GameModuleHost: an internal call's body runs guarded: an exception is an error, a "
          "crash switches the module off and no body runs after it") {
    auto host = makeHost();
    auto module = loadProbe(*host);
    int ran = 0;
    auto counted = [](void* frame) { ++*static_cast<int*>(frame); };
    REQUIRE(module->runInternalCall("Probe.Native::Add", counted, &ran));
    CHECK(ran == 1);

    auto throws = [](void*) { throw std::runtime_error("bad argument"); };
    auto thrown = module->runInternalCall("Probe.Native::Add", throws, nullptr);
    REQUIRE_FALSE(thrown);
    CHECK(thrown.error().message.find("threw: bad argument") != std::string::npos);
    CHECK(module->crashed().empty());

    auto crashes = [](void*) { probeWriteThroughNull(); };
    auto crashed = module->runInternalCall("Probe.Native::Add", crashes, nullptr);
    REQUIRE_FALSE(crashed);
    CHECK(crashed.error().message.find("crashed") != std::string::npos);
    CHECK(crashed.error().message.find("switched off") != std::string::npos);
    CHECK_FALSE(module->crashed().empty());

    auto after = module->runInternalCall("Probe.Native::Add", counted, &ran);
    REQUIRE_FALSE(after);
    CHECK(after.error().message.find("is not run") != std::string::npos);
    CHECK(ran == 1);
}

TEST_CASE("GameModuleHost: the module's own state is saved and restored, and a state it refuses "
          "is an error") {
    auto host = makeHost();
    auto module = loadProbe(*host);
    const game::FrameTime time{};
    auto before = module->saveState();
    REQUIRE(before);
    const int start = std::stoi(before->substr(before->find('=') + 1));
    for (int frame = 0; frame < 4; ++frame)
        module->runSystems(game::SystemPhase::BeforeScripts, time);
    auto saved = module->saveState();
    REQUIRE(saved);
    CHECK(*saved == "frames=" + std::to_string(start + 4));

    REQUIRE(module->restoreState("frames=40"));
    CHECK(module->saveState().value_or("") == "frames=40");
    auto refused = module->restoreState("level 3");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("not a probe module state") != std::string::npos);
    CHECK(module->saveState().value_or("") == "frames=40"); // unchanged
}
