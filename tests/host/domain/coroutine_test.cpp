// Coroutines (UMonoScriptComponent.StartCoroutine) on the real runtime: when each yield
// instruction resumes, in frames and game time; nesting; stopping; failures.
#include "../support/mono_test_support.hpp"

#include <string>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

// A script whose coroutine writes "label@frame" entries into its [SerializeField] log.
std::string scriptWith(const std::string& className, const std::string& members) {
    return "using System; using System.Collections; using System.Threading.Tasks; using UEngine;\n"
           "public class " +
           className +
           " : UMonoScriptComponent {\n"
           "  [SerializeField] public string log = \"\";\n"
           "  void Mark(string label) { log += (log.Length == 0 ? \"\" : \" \") + label + \"@\" + "
           "Time.frameCount; }\n" +
           members + "\n}\n";
}

struct CoroutineHost {
    TempDir dir{"coroutines"};
    std::unique_ptr<ScriptHost> host;
    ObjectId script;

    AssemblyFile scripts;

    CoroutineHost(const std::string& className, const std::string& members,
                  int disableAfterFailures = 10)
        : scripts(compileScripts(dir, "Coroutines.dll",
                                 {{className + ".cs", scriptWith(className, members)}})) {
        host = makeHostFrom(scripts, disableAfterFailures);
        script = spawnScript(*host, className);
    }

    std::string log() {
        auto value = host->domain()->getField(script, "log");
        REQUIRE_MESSAGE(value, (value ? "" : value.error().message));
        return std::get<std::string>(*value);
    }
    std::vector<CoroutineInfo> running() {
        auto list = host->domain()->coroutines();
        REQUIRE_MESSAGE(list, (list ? "" : list.error().message));
        return *list;
    }
    void frames(int n, double dt = 0.25) {
        for (int i = 0; i < n; ++i)
            host->tick(dt);
    }
};

} // namespace

TEST_CASE("Coroutines: run to the first yield at once, then yield null resumes once per frame "
          "after Update") {
    CoroutineHost t("NextFrame", R"(
  int updates;
  public override void Initialize() { StartCoroutine(Run()); Mark("started"); }
  public override void Update(float dt) { updates++; }
  IEnumerator Run() {
    Mark("a");
    yield return null;
    Mark("b" + updates);   // Update of the same frame already ran
    yield return null;
    Mark("c" + updates);
  })");
    CHECK(t.log() == "a@0 started@0");
    REQUIRE(t.running().size() == 1);
    CHECK(t.running()[0].method == "Run");
    CHECK(t.running()[0].waitingFor == "next frame");
    CHECK(t.running()[0].script == t.script);
    t.frames(1);
    CHECK(t.log() == "a@0 started@0 b1@1");
    t.frames(1);
    CHECK(t.log() == "a@0 started@0 b1@1 c2@2");
    CHECK(t.running().empty());
    t.frames(2);
    CHECK(t.log() == "a@0 started@0 b1@1 c2@2");
}

TEST_CASE("Coroutines: WaitForSeconds counts game time and waits at least one frame") {
    CoroutineHost t("Timed", R"(
  public override void Initialize() { StartCoroutine(Run()); }
  IEnumerator Run() {
    yield return new WaitForSeconds(1.0f);
    Mark("t" + Time.time);
    yield return new WaitForSeconds(0f);
    Mark("zero");
  })");
    REQUIRE(t.running().size() == 1);
    CHECK(t.running()[0].waitingFor == "WaitForSeconds: 1 s left");
    t.frames(3); // 0.75 s of game time
    CHECK(t.log().empty());
    CHECK(t.running()[0].waitingFor == "WaitForSeconds: 0.25 s left");
    t.frames(1); // 1.0 s
    CHECK(t.log() == "t1@4");
    t.frames(1);
    CHECK(t.log() == "t1@4 zero@5");
}

TEST_CASE("Coroutines: WaitForFixedUpdate resumes right after the next fixed step's FixedUpdate") {
    CoroutineHost t("Fixed", R"(
  int fixedSteps;
  public override void FixedUpdate(float dt) { fixedSteps++; }
  public override void Initialize() { StartCoroutine(Run()); }
  IEnumerator Run() {
    yield return new WaitForFixedUpdate();
    Mark("f" + fixedSteps);
    yield return new WaitForFixedUpdate();
    Mark("g" + fixedSteps);
    yield return null; // from a fixed step: the next frame's step
    Mark("h" + fixedSteps);
  })");
    CHECK(t.running()[0].waitingFor == "WaitForFixedUpdate");
    t.frames(1, 0.01); // 0.01 s: no fixed step yet (the step is 0.02 s)
    CHECK(t.log().empty());
    t.frames(1, 0.01); // the first fixed step runs in frame 2
    CHECK(t.log() == "f1@2");
    t.frames(1, 0.04); // two fixed steps in frame 3; the coroutine resumes after the first
    CHECK(t.log() == "f1@2 g2@3");
    t.frames(1, 0.01); // no fixed step in frame 4; the frame step resumes the yield null
    CHECK(t.log() == "f1@2 g2@3 h3@4");
}

TEST_CASE(
    "Coroutines: WaitUntil and WaitWhile check their condition once per frame, after Update") {
    CoroutineHost t("Conditions", R"(
  int updates;
  public int checks;
  public override void Update(float dt) { updates++; }
  public override void Initialize() { StartCoroutine(Run()); }
  IEnumerator Run() {
    yield return new WaitUntil(() => { checks++; return updates >= 3; });
    Mark("until" + checks);
    yield return new WaitWhile(() => updates < 5);
    Mark("while");
  })");
    CHECK(t.running()[0].waitingFor.rfind("WaitUntil", 0) == 0);
    t.frames(2);
    CHECK(t.log().empty());
    t.frames(1);
    CHECK(t.log() == "until3@3"); // checked in frames 1, 2 and 3
    t.frames(1);
    CHECK(t.log() == "until3@3");
    t.frames(1);
    CHECK(t.log() == "until3@3 while@5");
}

TEST_CASE("Coroutines: a nested IEnumerator runs inside its parent and a yielded Coroutine "
          "resumes its waiter in the step it ends") {
    CoroutineHost t("Nested", R"(
  public override void Initialize() { StartCoroutine(Outer()); }
  IEnumerator Outer() {
    Mark("o0");
    yield return Inner();
    Mark("o1");
    yield return StartCoroutine(Other());
    Mark("o2");
  }
  IEnumerator Inner() { Mark("i0"); yield return null; Mark("i1"); }
  IEnumerator Other() { Mark("x0"); yield return null; yield return null; Mark("x1"); })");
    CHECK(t.log() == "o0@0 i0@0");
    REQUIRE(t.running().size() == 1);
    CHECK(t.running()[0].method == "Outer > Inner");
    t.frames(1);
    CHECK(t.log() == "o0@0 i0@0 i1@1 o1@1 x0@1");
    REQUIRE(t.running().size() == 2);
    CHECK(t.running()[0].waitingFor == "Coroutine Other");
    t.frames(1);
    CHECK(t.log() == "o0@0 i0@0 i1@1 o1@1 x0@1");
    t.frames(1);
    CHECK(t.log() == "o0@0 i0@0 i1@1 o1@1 x0@1 x1@3 o2@3");
    CHECK(t.running().empty());
}

TEST_CASE("Coroutines: a yielded Task is waited for until it completes") {
    CoroutineHost t("Awaiting", R"(
  TaskCompletionSource<int> source = new TaskCompletionSource<int>();
  int updates;
  public override void Initialize() { StartCoroutine(Run()); }
  public override void Update(float dt) { if (++updates == 3) source.SetResult(7); }
  IEnumerator Run() {
    yield return source.Task;
    Mark("done" + source.Task.Result);
  })");
    CHECK(t.running()[0].waitingFor == "Task (WaitingForActivation)");
    t.frames(2);
    CHECK(t.log().empty());
    t.frames(1);
    CHECK(t.log() == "done7@3");
}

TEST_CASE("Coroutines: StopAllCoroutines from inside a coroutine stops them all and finally "
          "blocks run") {
    CoroutineHost t("Stopper", R"(
  Coroutine a; IEnumerator b;
  int updates;
  public override void Initialize() {
    a = StartCoroutine(Loop("a"));
    b = Loop("b");
    StartCoroutine(b);
    StartCoroutine(Loop("c"));
    StartCoroutine(SelfStop());
  }
  public override void Update(float dt) {
    updates++;
    if (updates == 2) StopCoroutine(a);
    if (updates == 3) StopCoroutine(b);
    if (updates == 4) StopAllCoroutines();
  }
  IEnumerator Loop(string name) {
    try { while (true) yield return null; }
    finally { Mark(name + "-finally"); }
  }
  IEnumerator SelfStop() {
    try { yield return null; StopAllCoroutines(); Mark("after-stop"); yield return null; Mark("never"); }
    finally { Mark("self-finally"); }
  })");
    CHECK(t.running().size() == 4);
    t.frames(1); // SelfStop stops everything in frame 1, its own step goes on to the next yield
    CHECK(t.log() == "a-finally@1 b-finally@1 c-finally@1 after-stop@1 self-finally@1");
    CHECK(t.running().empty());
    t.frames(4);
    CHECK(t.log() == "a-finally@1 b-finally@1 c-finally@1 after-stop@1 self-finally@1");
}

TEST_CASE("Coroutines: StopCoroutine by Coroutine and by IEnumerator stop only that one") {
    CoroutineHost t("Selective", R"(
  Coroutine a; IEnumerator b;
  int updates;
  public override void Initialize() {
    a = StartCoroutine(Loop("a"));
    b = Loop("b");
    StartCoroutine(b);
    StartCoroutine(Loop("c"));
  }
  public override void Update(float dt) {
    updates++;
    if (updates == 2) StopCoroutine(a);
    if (updates == 3) StopCoroutine(b);
  }
  IEnumerator Loop(string name) {
    try { while (true) yield return null; }
    finally { Mark(name + "-finally"); }
  })");
    t.frames(2);
    CHECK(t.log() == "a-finally@2");
    CHECK(t.running().size() == 2);
    t.frames(1);
    CHECK(t.log() == "a-finally@2 b-finally@3");
    REQUIRE(t.running().size() == 1);
    t.frames(3);
    CHECK(t.running().size() == 1); // c runs on
}

TEST_CASE("Coroutines: they stop when their script is disabled or destroyed") {
    CoroutineHost t("Owned", R"(
  public override void Initialize() { StartCoroutine(Loop()); }
  IEnumerator Loop() {
    try { while (true) { Mark("tick"); yield return null; } }
    finally { Mark("stopped"); }
  })");
    CHECK(t.log() == "tick@0");
    t.frames(1);
    REQUIRE(t.host->domain()->setEnabled(t.script, false));
    CHECK(t.log() == "tick@0 tick@1 stopped@1");
    CHECK(t.running().empty());
    t.frames(2);
    CHECK(t.log() == "tick@0 tick@1 stopped@1");

    // A second script on another entity: destroying it stops its coroutine.
    const ObjectId other = spawnScript(*t.host, "Owned");
    t.frames(1);
    CHECK(t.running().size() == 1);
    REQUIRE(t.host->removeScript(other));
    t.frames(1);
    CHECK(t.running().empty());
}

TEST_CASE("Coroutines: an exception stops that coroutine only and is the script's failure") {
    CoroutineHost t("Faulty", R"(
  public override void Initialize() { StartCoroutine(Breaks()); StartCoroutine(Goes()); }
  IEnumerator Breaks() {
    yield return null;
    throw new InvalidOperationException("coroutine says no");
  }
  IEnumerator Goes() { while (true) { yield return null; Mark("on"); } })");
    const auto before = t.host->scriptFailureCount();
    t.frames(1);
    CHECK(t.host->scriptFailureCount() == before + 1);
    REQUIRE_FALSE(t.host->recentFailures().empty());
    const ScriptFailure& failure = t.host->recentFailures().back();
    CHECK(failure.script == t.script);
    CHECK(failure.phase == ScriptPhase::Coroutine);
    CHECK(failure.className == "Faulty");
    CHECK(failure.message == "coroutine says no");
    CHECK(failure.text.find("Faulty.cs:") != std::string::npos);
    REQUIRE(t.running().size() == 1);
    CHECK(t.running()[0].method == "Goes");
    t.frames(2);
    CHECK(t.log() == "on@1 on@2 on@3");
}

TEST_CASE("Coroutines: a reload of the same code resumes every coroutine, each named in its "
          "report") {
    CoroutineHost t("Reloaded", R"(
  public override void Initialize() { StartCoroutine(Spin()); StartCoroutine(Pause()); }
  IEnumerator Spin() { while (true) yield return null; }
  IEnumerator Pause() { yield return new WaitForSeconds(100f); })");
    t.frames(1);
    const auto before = t.running();
    REQUIRE(before.size() == 2);
    const ReloadReport report = reloadOk(*t.host, t.scripts);
    REQUIRE_MESSAGE(report.coroutines.size() == 2, report.describe());
    CHECK(report.coroutines[0].method == "Spin");
    CHECK(report.coroutines[1].method == "Pause");
    for (const CoroutineOutcome& c : report.coroutines) {
        CHECK(c.kind == CoroutineOutcome::Kind::Resumed);
        CHECK(c.script == t.script);
        CHECK(c.className == "Reloaded");
    }
    const auto after = t.running();
    REQUIRE(after.size() == 2);
    CHECK(after[0].method == "Spin");
    CHECK(after[1].method == "Pause");
    CHECK(after[1].waitingFor == before[1].waitingFor);
}
