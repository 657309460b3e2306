// The bridge game modules' internal call thunks call (host/glue/src/module_internal_call_glue.cpp),
// reached through the SDK's real thunk (game::detail::InternalCallThunk) registered with Mono and
// called from C# compiled by the test in a real ScriptHost: a call that no loaded module build
// registered, or one made off the game loop's thread, raises an InvalidOperationException in
// the script saying why, and the module's function does not run. (A loaded module's calls,
// crashes included: tests/e2e/cli/native_crash_cli_test.cpp.)
#include "../support/glue_test_support.hpp"
#include "host/modules/module_call_index.hpp"

#include <atomic>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

std::atomic<int> gCalls{0};

std::int32_t add(std::int32_t a, std::int32_t b) {
    ++gCalls;
    return a + b;
}

using AddThunk = game::detail::InternalCallThunk<&add>;

const std::string kCaller = R"(
using System.Runtime.CompilerServices;
using UEngine;

public static class ModuleProbe
{
    [MethodImpl(MethodImplOptions.InternalCall)] public static extern int Add(int a, int b);
}

public class Caller : UMonoScriptComponent
{
    [SerializeField] bool done;
    [SerializeField] string onLoop = "";
    [SerializeField] string offLoop = "";

    public override void Update(float deltaTime)
    {
        if (done) return;
        done = true;
        onLoop = Probe.Outcome(() => ModuleProbe.Add(2, 3));
        offLoop = Probe.OnThread(() => ModuleProbe.Add(4, 5));
    }
}
)";

} // namespace

TEST_CASE("Module internal call glue: a call no loaded module build registered, or one made off "
          "the game loop's thread, raises InvalidOperationException and does not run") {
    GlueHost host("module-internal-call", kCaller);
    // What a module's attach does: its thunks reach the bridge the glue installed.
    REQUIRE(static_cast<bool>(ModuleCallIndex::bridge().invoke));
    game::detail::internalCallBridge = ModuleCallIndex::bridge();
    const game::InternalCallInfo info = AddThunk::info("ModuleProbe::Add");
    REQUIRE(ModuleCallIndex::find(info.thunk) == nullptr); // in no module build's index
    (**MonoRuntime::start()).registerInternalCall(info.managedName, info.thunk);
    const ObjectId s = spawnScript(*host, "Caller");
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);

    const std::string onLoop = host.text(s, "onLoop");
    CHECK_MESSAGE(contains(onLoop, "System.InvalidOperationException"), onLoop);
    CHECK_MESSAGE(contains(onLoop, "belongs to a game module build that is not loaded any more"),
                  onLoop);
    const std::string offLoop = host.text(s, "offLoop");
    CHECK_MESSAGE(contains(offLoop, "System.InvalidOperationException"), offLoop);
    CHECK_MESSAGE(contains(offLoop, "run on the host's main thread, inside its game loop"),
                  offLoop);
    CHECK(gCalls == 0);
}
