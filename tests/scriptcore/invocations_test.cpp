// Invoke, InvokeRepeating, CancelInvoke and IsInvoking (ScriptCore/src/Internal/Invocations.cs,
// UMonoScriptComponent's members): in a real ScriptHost from a real mcs build, frames of a
// quarter second, the frame each call lands in checked against game time worked out by hand.
#include "../host/support/mono_test_support.hpp"

#include <string>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

// A script whose calls write "label@frame" into its log; `members` add to it.
std::string caller(const std::string& members) {
    return "using System; using UEngine;\n"
           "public class Caller : UMonoScriptComponent {\n"
           "  [SerializeField] public string log = \"\";\n"
           "  [SerializeField] public int updates;\n"
           "  void Mark(string label) { log += (log.Length == 0 ? \"\" : \" \") + label + \"@\" + "
           "Time.frameCount; }\n"
           "  public override void Update(float dt) { updates++; }\n" +
           members + "\n}\n";
}

struct InvokeHost {
    TempDir dir{"invocations"};
    std::unique_ptr<ScriptHost> host;
    ObjectId script;

    explicit InvokeHost(const std::string& members) {
        host = makeHostFrom(compileScripts(dir, "Gen1.dll", {{"Caller.cs", caller(members)}}));
        script = spawnScript(*host, "Caller");
    }
    std::string log() { return fieldOf<std::string>(*host, script, "log"); }
    void frames(int n) {
        for (int i = 0; i < n; ++i)
            host->tick(0.25);
    }
    std::vector<CoroutineInfo> pending() {
        auto list = host->domain()->coroutines();
        REQUIRE_MESSAGE(list, (list ? "" : list.error().message));
        return *list;
    }
};

} // namespace

TEST_CASE("Invoke: a call lands in the first frame its game time has come, after that frame's "
          "Update, never inside the Invoke call itself") {
    InvokeHost t(R"(
  public override void Initialize() { Invoke("Now", 0f); Invoke("Later", 0.6f); Mark("init"); }
  void Now() { Mark("now" + updates); }
  void Later() { Mark("later" + updates); }
)");
    CHECK(t.log() == "init@0");
    t.frames(1); // t = 0.25
    CHECK(t.log() == "init@0 now1@1");
    t.frames(1); // t = 0.5
    CHECK(t.log() == "init@0 now1@1");
    t.frames(1); // t = 0.75: past 0.6
    CHECK(t.log() == "init@0 now1@1 later3@3");
    t.frames(4);
    CHECK(t.log() == "init@0 now1@1 later3@3"); // once each
    CHECK(t.pending().empty());
}

TEST_CASE("InvokeRepeating: calls at exact times until CancelInvoke, also from inside the "
          "called method, and IsInvoking says which are pending") {
    InvokeHost t(R"(
  [SerializeField] public bool tickPending;
  [SerializeField] public bool anyPending;
  public override void Initialize() { InvokeRepeating("Tick", 0.5f, 0.5f); Invoke("Once", 5f); }
  void LateUpdate() { tickPending = IsInvoking("Tick"); anyPending = IsInvoking(); }
  int ticks;
  void Tick() { Mark("tick"); if (++ticks == 3) CancelInvoke("Tick"); }
  void Once() { Mark("once"); }
)");
    CHECK(fieldOf<bool>(*t.host, t.script, "tickPending") == false); // no LateUpdate yet
    t.frames(1);
    CHECK(fieldOf<bool>(*t.host, t.script, "tickPending"));
    t.frames(7); // t = 0.5, 1.0, 1.5: three ticks, in frames 2, 4 and 6
    CHECK(t.log() == "tick@2 tick@4 tick@6");
    CHECK_FALSE(fieldOf<bool>(*t.host, t.script, "tickPending"));
    CHECK(fieldOf<bool>(*t.host, t.script, "anyPending")); // Once, at t = 5
    const auto pending = t.pending();
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].method == "Invoke(Once)");
    t.frames(12); // t = 5.0
    CHECK(t.log() == "tick@2 tick@4 tick@6 once@20");
}

TEST_CASE("InvokeRepeating: a late frame delays one call, not the ones after it") {
    InvokeHost t(R"(
  public override void Initialize() { InvokeRepeating("Tick", 1f, 1f); }
  void Tick() { Mark("tick"); }
)");
    t.host->tick(1.75); // one long frame: t = 1.75, one call (due at 1.0)
    CHECK(t.log() == "tick@1");
    t.frames(1); // t = 2.0: the call due at 2.0, not one due at 2.75
    CHECK(t.log() == "tick@1 tick@2");
}

TEST_CASE("Invoke: StopAllCoroutines leaves pending calls alone, CancelInvoke() ends them all, "
          "and a disabled script's calls still land") {
    InvokeHost t(R"(
  public override void Initialize() {
    Invoke("A", 0.25f); Invoke("B", 0.5f); InvokeRepeating("C", 0.25f, 0.25f);
    StopAllCoroutines();
    enabled = false;
  }
  void A() { Mark("a"); }
  void B() { Mark("b"); CancelInvoke(); }
  void C() { Mark("c"); }
)");
    t.frames(4);
    CHECK(t.log() == "a@1 c@1 b@2");
    CHECK(fieldOf<std::int64_t>(*t.host, t.script, "updates") == 0); // disabled all along
    CHECK(t.pending().empty());
}

TEST_CASE("InvokeRepeating: an exception in the method is the script's failure, phase Invoke, and "
          "the calls go on, and a name with no such method is logged and calls nothing") {
    InvokeHost t(R"(
  public override void Initialize() { InvokeRepeating("Fails", 0.25f, 0.25f); Invoke("Missing", 0f); }
  int calls;
  void Fails() { Mark("f"); if (++calls == 1) throw new InvalidOperationException("first call failed"); }
  void Missing(int needsAnArgument) { }
)");
    CHECK(t.pending().size() == 1); // Missing was refused at once
    t.frames(3);
    CHECK(t.log() == "f@1 f@2 f@3");
    const auto failures = t.host->recentFailures();
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].phase == ScriptPhase::Invoke);
    CHECK(failures[0].message == "first call failed");
    CHECK(phaseName(ScriptPhase::Invoke) == "Invoke");
}

TEST_CASE("InvokeRepeating: a repeat rate of zero or less is refused") {
    InvokeHost t(R"(
  [SerializeField] public string refused = "";
  public override void Initialize() {
    try { InvokeRepeating("Tick", 0f, 0f); } catch (ArgumentOutOfRangeException e) { refused = e.ParamName; }
  }
  void Tick() { Mark("tick"); }
)");
    CHECK(fieldOf<std::string>(*t.host, t.script, "refused") == "repeatRate");
    t.frames(2);
    CHECK(t.log().empty());
}

TEST_CASE("Invoke: pending calls are carried across a reload, land at their time and call the new "
          "code's method") {
    const std::string gen1 = R"(
  public override void Initialize() { Invoke("Once", 1f); InvokeRepeating("Tick", 0.5f, 0.5f); }
  void Once() { Mark("once-v1"); }
  void Tick() { Mark("tick-v1"); }
)";
    InvokeHost t(gen1);
    t.frames(2); // t = 0.5: one tick
    CHECK(t.log() == "tick-v1@2");
    std::string gen2 = gen1;
    gen2.replace(gen2.find("once-v1"), 7, "once-v2");
    gen2.replace(gen2.find("tick-v1"), 7, "tick-v2");
    const ReloadReport report =
        reloadOk(*t.host, compileScripts(t.dir, "Gen2.dll", {{"Caller.cs", caller(gen2)}}));
    CHECK(report.coroutines.size() == 2);
    for (const CoroutineOutcome& c : report.coroutines)
        CHECK_MESSAGE(c.kind == CoroutineOutcome::Kind::Resumed, report.describe());
    t.frames(2); // t = 1.0: the one call and the second tick, new code, no Initialize again
    CHECK(t.log() == "tick-v1@2 once-v2@4 tick-v2@4"); // in the order they were started
    CHECK(t.pending().size() == 1);
}
