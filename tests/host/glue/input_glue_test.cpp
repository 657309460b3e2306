// UEngine.UInputSystem's internal call (host/glue/src/input_glue.cpp), run from C# compiled by
// the test in a real ScriptHost: GetActionState reads the host's input actions as they are in
// each frame (0 for an action never set), and a null action or a call from another thread
// raises a clear managed exception.
#include "../support/glue_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kReader = R"(
using System;
using UEngine;

public class Reader : UMonoScriptComponent
{
    [SerializeField] float jump;
    [SerializeField] float turn;
    [SerializeField] float accented;
    [SerializeField] float unknown;
    [SerializeField] float empty;
    [SerializeField] string managedNull = "";
    [SerializeField] string internalNull = "";
    [SerializeField] string offThread = "";

    public override void Update(float deltaTime)
    {
        jump = UInputSystem.GetActionState("Jump");
        turn = UInputSystem.GetActionState("Turn");
        accented = UInputSystem.GetActionState("Sprüngé ✓");
        unknown = UInputSystem.GetActionState("NeverSet");
        empty = UInputSystem.GetActionState("");
        managedNull = Probe.Outcome(() => UInputSystem.GetActionState(null));
        internalNull = Probe.Outcome(() => Probe.Call(typeof(UInputSystem), "Internal_GetActionState", new object[] { null }));
        offThread = Probe.OnThread(() => UInputSystem.GetActionState("Jump"));
    }
}
)";

} // namespace

TEST_CASE("Input glue: GetActionState reads each frame's input actions, 0 for an action never set, "
          "and refuses null and other threads") {
    GlueHost host("input", kReader);
    const ObjectId s = spawnScript(*host, "Reader");
    host->input().set("Jump", 0.75f);
    host->input().set("Turn", -0.5f);
    host->input().set("Sprüngé ✓", 0.25f);
    host->tick(0.016);
    CHECK(fieldOf<float>(*host, s, "jump") == 0.75f);
    CHECK(fieldOf<float>(*host, s, "turn") == -0.5f);
    CHECK(fieldOf<float>(*host, s, "accented") == 0.25f);
    CHECK(fieldOf<float>(*host, s, "unknown") == 0.0f);
    CHECK(fieldOf<float>(*host, s, "empty") == 0.0f);

    host->input().set("Jump", 0.0f);
    host->input().set("Turn", 1.0f);
    host->input().set("", 0.125f);
    host->tick(0.016);
    CHECK(fieldOf<float>(*host, s, "jump") == 0.0f);
    CHECK(fieldOf<float>(*host, s, "turn") == 1.0f);
    CHECK(fieldOf<float>(*host, s, "empty") == 0.125f);

    CHECK(contains(host.text(s, "managedNull"), "System.ArgumentNullException"));
    const std::string internalNull = host.text(s, "internalNull");
    CHECK_MESSAGE(contains(internalNull, "System.ArgumentNullException"), internalNull);
    CHECK_MESSAGE(contains(internalNull, "action"), internalNull);
    const std::string offThread = host.text(s, "offThread");
    CHECK_MESSAGE(contains(offThread, "System.InvalidOperationException"), offThread);
    CHECK_MESSAGE(contains(offThread, "outside the host's game loop"), offThread);
    CHECK(host->scriptFailureCount() == 0);
}
