// Running behaviour across a reload, on the real runtime with the real mcs: delegates in
// scripts' fields (event subscribers, Action fields, lambdas) rebound to the new instances and
// the new code, and async methods suspended at an await named as cancelled. (Coroutines:
// coroutine_carry_test.cpp.)
#include "../../support/mono_test_support.hpp"

#include <algorithm>
#include <string>

using namespace scripthost;
using namespace scripthost::testing;

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
