// ModuleCallIndex: a module build's guarded internal calls found by their thunk while the build's
// registration lives, and the bridge the glue installs before any module may register a call.
// A real ScriptHost and the probe module (tests/host/modules/support/probe_module.cpp).
#include "../support/mono_test_support.hpp"
#include "host/modules/game_module_host.hpp"
#include "host/modules/module_call_index.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

// Stand-ins for two thunks: what matters is that their addresses are distinct.
void firstThunk() {}
void secondThunk() {}

} // namespace

TEST_CASE("ModuleCallIndex: a call is found by its thunk while its build's registration lives") {
    auto host = makeHost();
    auto module = GameModuleHost::load(PROBE_GAME_MODULE, *host);
    REQUIRE_MESSAGE(module, (module ? "" : module.error().message));
    const void* first = reinterpret_cast<const void*>(&firstThunk);
    const void* second = reinterpret_cast<const void*>(&secondThunk);
    {
        ModuleCallIndex::Registration registration(**module);
        registration.add({"Probe.Native::First", first});
        registration.add({"Probe.Native::Second", second});
        // A function registered under a second name keeps its first.
        registration.add({"Probe.Native::FirstAgain", first});
        const ModuleCallIndex::Call* found = ModuleCallIndex::find(first);
        REQUIRE(found != nullptr);
        CHECK(found->name == "Probe.Native::First");
        CHECK(found->module == module->get());
        REQUIRE(ModuleCallIndex::find(second) != nullptr);
        CHECK(ModuleCallIndex::find(second)->name == "Probe.Native::Second");
    }
    // The build's registration is gone: so are its calls.
    CHECK(ModuleCallIndex::find(first) == nullptr);
    CHECK(ModuleCallIndex::find(second) == nullptr);
    CHECK(ModuleCallIndex::find(nullptr) == nullptr);
}

TEST_CASE("ModuleCallIndex: the glue installs the bridge, and without one a module that registers "
          "an internal call is refused") {
    auto host = makeHost(); // registers the engine's internal calls, and with them the bridge
    const game::InternalCallBridge installed = ModuleCallIndex::bridge();
    const bool hasBridge = installed.invoke != nullptr;
    REQUIRE(hasBridge);

    ModuleCallIndex::setBridge({});
    const bool cleared = ModuleCallIndex::bridge().invoke == nullptr;
    CHECK(cleared);
    auto refused = GameModuleHost::load(PROBE_GAME_MODULE, *host);
    ModuleCallIndex::setBridge(installed);
    REQUIRE_FALSE(refused);
    INFO(refused.error().message);
    CHECK(refused.error().message.find("Probe.Native::Add") != std::string::npos);

    auto accepted = GameModuleHost::load(PROBE_GAME_MODULE, *host);
    CHECK_MESSAGE(accepted, (accepted ? "" : accepted.error().message));
}
