// Running behaviour across a reload, on the real runtime with the real mcs: coroutines
// resumed where they were when their code is unchanged, restarted with their arguments or
// stopped ([StopOnEdit]) when it was edited; delegates in scripts' fields (event
// subscribers, Action fields, lambdas) rebound to the new instances and the new code.
#include "../../support/mono_test_support.hpp"

#include <algorithm>
#include <string>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const CoroutineOutcome& onlyCoroutine(const ReloadReport& report) {
    REQUIRE_MESSAGE(report.coroutines.size() == 1, report.describe());
    return report.coroutines[0];
}

// A script whose coroutine counts in a loop, one step per WaitForSeconds(0.1).
std::string counter(const std::string& update, const std::string& loopBody,
                    const std::string& attribute = "", int limit = 1000) {
    return "using System.Collections; using UEngine;\n"
           "public class Counter : UMonoScriptComponent {\n"
           "  [SerializeField] public int counted = -1;\n"
           "  [SerializeField] public int updates;\n"
           "  [SerializeField] public int inits;\n"
           "  public override void Initialize() { inits++; StartCoroutine(Count(" +
           std::to_string(limit) +
           ")); }\n"
           "  public override void Update(float dt) { " +
           update +
           " }\n"
           "  " +
           attribute +
           " IEnumerator Count(int limit) {\n"
           "    for (int i = 0; i < limit; i++) {\n"
           "      " +
           loopBody +
           "\n"
           "      yield return new WaitForSeconds(0.1f);\n"
           "    }\n"
           "  }\n"
           "}\n";
}

struct CounterHost {
    TempDir dir{"behaviour-carry"};
    std::unique_ptr<ScriptHost> host;
    ObjectId script;

    explicit CounterHost(const std::string& source) {
        host = makeHostFrom(compileScripts(dir, "Gen1.dll", {{"Counter.cs", source}}));
        script = spawnScript(*host, "Counter");
    }
    int field(const std::string& name) {
        return static_cast<int>(fieldOf<std::int64_t>(*host, script, name));
    }
    std::vector<CoroutineInfo> running() {
        auto list = host->domain()->coroutines();
        REQUIRE_MESSAGE(list, (list ? "" : list.error().message));
        return *list;
    }
    // 0.25 s frames: every frame passes one WaitForSeconds(0.1).
    void frames(int n) {
        for (int i = 0; i < n; ++i)
            host->tick(0.25);
    }
    ReloadReport reload(const std::string& name, const std::string& source) {
        return reloadOk(*host, compileScripts(dir, name, {{"Counter.cs", source}}));
    }
};

} // namespace

TEST_CASE("Coroutine carry: a coroutine whose code is unchanged resumes from its own i after a "
          "reload that edited Update, and Initialize does not run again") {
    CounterHost t(counter("updates++;", "counted = i;"));
    CHECK(t.field("counted") == 0); // the first step ran inside StartCoroutine
    t.frames(5);
    REQUIRE(t.field("counted") == 5);
    REQUIRE(t.field("updates") == 5);

    const ReloadReport report = t.reload("Gen2.dll", counter("updates += 100;", "counted = i;"));
    const CoroutineOutcome& c = onlyCoroutine(report);
    CHECK(c.kind == CoroutineOutcome::Kind::Resumed);
    CHECK(c.method == "Count");
    CHECK(c.className == "Counter");
    CHECK(c.script == t.script);
    CHECK(report.describe().find("coroutine Counter.Count") != std::string::npos);

    // Waiting where it was: still the one coroutine, still in its WaitForSeconds.
    REQUIRE(t.running().size() == 1);
    CHECK(t.running()[0].method == "Count");
    CHECK(t.running()[0].waitingFor.rfind("WaitForSeconds", 0) == 0);
    CHECK(t.field("counted") == 5);

    t.frames(1);
    CHECK(t.field("updates") == 105); // the new Update runs
    CHECK(t.field("counted") == 6);   // and the coroutine goes on from its i, not from 0
    t.frames(2);
    CHECK(t.field("counted") == 8);
    CHECK(t.field("inits") == 1);
    CHECK(t.running().size() == 1);
}

TEST_CASE("Coroutine carry: an edited coroutine restarts from the beginning with the "
          "arguments it was started with, and the report says so") {
    CounterHost t(counter("updates++;", "counted = i;", "", 3));
    t.frames(1);
    REQUIRE(t.field("counted") == 1);

    const ReloadReport report =
        t.reload("Gen2.dll", counter("updates++;", "counted = 100 + i;", "", 3));
    const CoroutineOutcome& c = onlyCoroutine(report);
    CHECK(c.kind == CoroutineOutcome::Kind::Restarted);
    CHECK(c.reason.find("Count was edited") != std::string::npos);
    CHECK(report.describe().find("restarted - Count was edited") != std::string::npos);
    CHECK(t.field("counted") == 1); // nothing ran yet: the restart's first step is the next frame

    t.frames(1);
    CHECK(t.field("counted") == 100); // from the beginning, in the new code
    t.frames(1);
    CHECK(t.field("counted") == 101);
    t.frames(1);
    CHECK(t.field("counted") == 102);
    // It was started with limit 3: it ends after its third step, as it would have.
    t.frames(2);
    CHECK(t.field("counted") == 102);
    CHECK(t.running().empty());
}

TEST_CASE("Coroutine carry: [StopOnEdit] stops an edited coroutine instead of restarting it") {
    CounterHost t(counter("updates++;", "counted = i;", "[StopOnEdit]"));
    t.frames(2);
    REQUIRE(t.field("counted") == 2);

    const ReloadReport report =
        t.reload("Gen2.dll", counter("updates++;", "counted = 100 + i;", "[StopOnEdit]"));
    const CoroutineOutcome& c = onlyCoroutine(report);
    CHECK(c.kind == CoroutineOutcome::Kind::Stopped);
    CHECK(c.reason.find("StopOnEdit") != std::string::npos);
    CHECK(t.running().empty());
    t.frames(3);
    CHECK(t.field("counted") == 2);
    CHECK(t.field("updates") == 5);
}

TEST_CASE("Coroutine carry: nested coroutines, hoisted locals of every carried kind and the "
          "remaining wait come back exactly") {
    const auto source = [](const std::string& update) {
        return "using System.Collections; using UEngine;\n"
               "public class Walker : UMonoScriptComponent {\n"
               "  [SerializeField] public string log = \"\";\n"
               "  [SerializeField] public int updates;\n"
               "  public override void Initialize() { StartCoroutine(Outer(\"walk\")); }\n"
               "  public override void Update(float dt) { " +
               update +
               " }\n"
               "  IEnumerator Outer(string label) {\n"
               "    Vector3 at = new Vector3(1, 2, 3);\n"
               "    double sum = 0.5;\n"
               "    for (int k = 0; k < 100; k++) {\n"
               "      at.x += 1; sum += 0.25;\n"
               "      yield return Inner(label + k, at);\n"
               "      log += \"|\" + label + \" \" + at.x + \" \" + sum;\n"
               "    }\n"
               "  }\n"
               "  IEnumerator Inner(string tag, Vector3 at) {\n"
               "    log += \"<\" + tag;\n"
               "    yield return new WaitForSeconds(1.1f);\n"
               "    log += \">\" + tag;\n"
               "  }\n"
               "}\n";
    };
    TempDir dir("behaviour-carry");
    auto host =
        makeHostFrom(compileScripts(dir, "Gen1.dll", {{"Walker.cs", source("updates++;")}}));
    const ObjectId script = spawnScript(*host, "Walker");
    // t=0: Outer k=0 enters Inner, which waits until t >= 1.1.
    for (int i = 0; i < 2; ++i)
        host->tick(0.5); // t = 1.0: still waiting
    REQUIRE(fieldOf<std::string>(*host, script, "log") == "<walk0");
    auto before = host->domain()->coroutines();
    REQUIRE(before);
    REQUIRE(before->size() == 1);
    CHECK(before->at(0).method == "Outer > Inner");

    const ReloadReport report =
        reloadOk(*host, compileScripts(dir, "Gen2.dll", {{"Walker.cs", source("updates += 2;")}}));
    REQUIRE_MESSAGE(report.coroutines.size() == 1, report.describe());
    CHECK(report.coroutines[0].kind == CoroutineOutcome::Kind::Resumed);
    CHECK(report.coroutines[0].method == "Outer > Inner");
    auto after = host->domain()->coroutines();
    REQUIRE(after);
    REQUIRE(after->size() == 1);
    CHECK(after->at(0).method == "Outer > Inner");
    CHECK(after->at(0).waitingFor == before->at(0).waitingFor); // the same time left

    host->tick(0.5); // t = 1.5: Inner ends, Outer logs its locals and enters Inner again
    CHECK(fieldOf<std::string>(*host, script, "log") == "<walk0>walk0|walk 2 0.75<walk1");
    CHECK(fieldOf<std::int64_t>(*host, script, "updates") == 4);
}

TEST_CASE("Delegate carry: a subscriber's handler on another script's event reaches the new "
          "code after a reload that edited the subscriber, without Initialize running again") {
    const std::string publisher = R"(using System; using UEngine;
public class Publisher : UMonoScriptComponent {
  public event Action<int> Hit;
  public Action onDone;
  [SerializeField] public int raised;
  public override void Update(float dt) { raised++; if (Hit != null) Hit(1); if (onDone != null) onDone(); }
}
)";
    const auto subscriber = [](const std::string& factor, const std::string& lambda) {
        return "using System; using UEngine;\n"
               "public class Subscriber : UMonoScriptComponent {\n"
               "  [SerializeField] public int received;\n"
               "  [SerializeField] public int inits;\n"
               "  [SerializeField] public int lambdaCalls;\n"
               "  [SerializeField] public int statics;\n"
               "  public static int staticCalls;\n"
               "  public override void Initialize() {\n"
               "    inits++;\n"
               "    var p = UEntity.Find(\"PublisherEntity\").GetComponent<Publisher>();\n"
               "    p.Hit += OnHit;\n"
               "    p.Hit += n => { " +
               lambda +
               " };\n"
               "    p.onDone += Count;\n"
               "  }\n"
               "  void OnHit(int n) { received += " +
               factor +
               " * n; }\n"
               "  static void Count() { staticCalls++; }\n"
               "  public override void Update(float dt) { statics = staticCalls; }\n"
               "}\n";
    };
    TempDir dir("behaviour-carry");
    auto host = makeHostFrom(compileScripts(
        dir, "Gen1.dll",
        {{"Publisher.cs", publisher}, {"Subscriber.cs", subscriber("1", "lambdaCalls++;")}}));
    const ObjectId pub = spawnScript(*host, "Publisher");
    const ObjectId sub = spawnScript(*host, "Subscriber");
    host->tick(0.1);
    host->tick(0.1);
    REQUIRE(fieldOf<std::int64_t>(*host, sub, "received") == 2);
    REQUIRE(fieldOf<std::int64_t>(*host, sub, "lambdaCalls") == 2);

    // The handler's body changes; the lambda's does not.
    const ReloadReport report =
        reloadOk(*host, compileScripts(dir, "Gen2.dll",
                                       {{"Publisher.cs", publisher},
                                        {"Subscriber.cs", subscriber("10", "lambdaCalls++;")}}));
    REQUIRE_MESSAGE(report.delegates.size() == 3, report.describe());
    for (const DelegateOutcome& d : report.delegates) {
        CHECK_MESSAGE(d.kind == DelegateOutcome::Kind::Rebound, (d.target + ": " + d.reason));
        CHECK(d.script == pub);
        CHECK(d.className == "Publisher");
    }
    CHECK(report.delegates[0].field == "Hit");
    CHECK(report.delegates[0].target.find("Subscriber.OnHit on #") != std::string::npos);
    CHECK(report.delegates[2].field == "onDone");
    CHECK(report.delegates[2].target == "static Subscriber.Count");

    host->tick(0.1);
    CHECK(fieldOf<std::int64_t>(*host, sub, "received") == 12); // the new OnHit, once
    CHECK(fieldOf<std::int64_t>(*host, sub, "lambdaCalls") == 3);
    CHECK(fieldOf<std::int64_t>(*host, sub, "inits") == 1);
    CHECK(fieldOf<std::int64_t>(*host, sub, "statics") == 1); // statics start fresh; Count runs

    // Now the lambda's code changes: it cannot be matched to new code, so it is dropped and
    // named; the others still reach the new code.
    const ReloadReport edited =
        reloadOk(*host, compileScripts(dir, "Gen3.dll",
                                       {{"Publisher.cs", publisher},
                                        {"Subscriber.cs", subscriber("10", "lambdaCalls += 5;")}}));
    REQUIRE_MESSAGE(edited.delegates.size() == 3, edited.describe());
    CHECK(edited.delegates[0].kind == DelegateOutcome::Kind::Rebound);
    CHECK(edited.delegates[1].kind == DelegateOutcome::Kind::Dropped);
    CHECK(edited.delegates[1].reason == "the lambda's code changed");
    CHECK(edited.describe().find("dropped - the lambda's code changed") != std::string::npos);
    host->tick(0.1);
    CHECK(fieldOf<std::int64_t>(*host, sub, "received") == 22);
    CHECK(fieldOf<std::int64_t>(*host, sub, "lambdaCalls") == 3);
}

TEST_CASE("Delegate carry: a handler whose method is gone and a lambda that captured locals are "
          "dropped and named, the rest are kept in order") {
    // Initialize does not run again at a reload: the second generation's only has to compile.
    const auto source = [](const std::string& subscribe, const std::string& handlers) {
        return "using System; using UEngine;\n"
               "public class Solo : UMonoScriptComponent {\n"
               "  public event Action Tick;\n"
               "  [SerializeField] public string log = \"\";\n"
               "  public override void Initialize() {\n"
               "    int local = 7;\n    " +
               subscribe +
               "\n  }\n"
               "  public override void Update(float dt) { if (Tick != null) Tick(); }\n" +
               handlers + "}\n";
    };
    TempDir dir("behaviour-carry");
    auto host = makeHostFrom(compileScripts(
        dir, "Gen1.dll",
        {{"Solo.cs", source("Tick += A; Tick += () => log += local; Tick += B;",
                            "  void A() { log += \"a\"; }\n  void B() { log += \"b\"; }\n")}}));
    const ObjectId solo = spawnScript(*host, "Solo");
    host->tick(0.1);
    REQUIRE(fieldOf<std::string>(*host, solo, "log") == "a7b");

    const ReloadReport report =
        reloadOk(*host, compileScripts(dir, "Gen2.dll",
                                       {{"Solo.cs", source("Tick += B; Tick += () => log += local;",
                                                           "  void B() { log += \"B\"; }\n"
                                                           "  void A(int unused) { }\n")}}));
    REQUIRE_MESSAGE(report.delegates.size() == 3, report.describe());
    CHECK(report.delegates[0].kind == DelegateOutcome::Kind::Dropped);
    CHECK(report.delegates[0].reason.find("A():System.Void no longer exists") != std::string::npos);
    CHECK(report.delegates[1].kind == DelegateOutcome::Kind::Dropped);
    CHECK(report.delegates[1].reason.find("captured local variables") != std::string::npos);
    CHECK(report.delegates[2].kind == DelegateOutcome::Kind::Rebound);
    host->tick(0.1);
    CHECK(fieldOf<std::string>(*host, solo, "log") == "a7bB");
}

TEST_CASE("Await carry: an async void method suspended at an await is named as cancelled in the "
          "report, and its continuation never runs, in the old code or the new") {
    // Load goes round once a frame: each `await Task.Yield()` queues its continuation on the
    // game loop for the next frame, so at the reload one is queued and one method in flight.
    const auto source = [](const std::string& mark) {
        return "using System.Threading.Tasks; using UEngine;\n"
               "public class Waiter : UMonoScriptComponent {\n"
               "  [SerializeField] public string log = \"\";\n"
               "  public override void Initialize() { Load(); }\n"
               "  async void Load() { while (true) { log += \"" +
               mark +
               "\"; await Task.Yield(); } }\n"
               "}\n";
    };
    TempDir dir("behaviour-carry");
    auto host = makeHostFrom(compileScripts(dir, "Gen1.dll", {{"Waiter.cs", source("o")}}));
    const ObjectId script = spawnScript(*host, "Waiter");
    host->tick(0.1);
    host->tick(0.1);
    REQUIRE(fieldOf<std::string>(*host, script, "log") == "ooo");

    const ReloadReport report =
        reloadOk(*host, compileScripts(dir, "Gen2.dll", {{"Waiter.cs", source("n")}}));
    REQUIRE_MESSAGE(report.cancelledAwaits.size() == 2, report.describe());
    CHECK(report.cancelledAwaits[0] == "Waiter.Load (async void, suspended at an await) x 1");
    CHECK(report.cancelledAwaits[1] == "1 continuation(s) queued on the game loop");
    CHECK(report.describe().find("await cancelled: Waiter.Load") != std::string::npos);

    // Neither the old code nor the new runs the queued continuation.
    for (int i = 0; i < 5; ++i)
        host->tick(0.1);
    CHECK(fieldOf<std::string>(*host, script, "log") == "ooo");
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("Await carry: an async void method that finished is not named at the next reload") {
    const std::string source = "using System.Threading.Tasks; using UEngine;\n"
                               "public class Quick : UMonoScriptComponent {\n"
                               "  [SerializeField] public int done;\n"
                               "  public override void Initialize() { Go(); }\n"
                               "  async void Go() { await Task.Yield(); done++; }\n"
                               "}\n";
    TempDir dir("behaviour-carry");
    const AssemblyFile scripts = compileScripts(dir, "Gen1.dll", {{"Quick.cs", source}});
    auto host = makeHostFrom(scripts);
    const ObjectId script = spawnScript(*host, "Quick");
    host->tick(0.1);
    host->tick(0.1);
    REQUIRE(fieldOf<std::int64_t>(*host, script, "done") == 1);
    const ReloadReport report = reloadOk(*host, scripts);
    CHECK_MESSAGE(report.cancelledAwaits.empty(), report.describe());
}
