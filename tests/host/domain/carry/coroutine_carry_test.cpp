// Coroutine carry, on the real runtime with the real mcs: coroutines resumed where they were
// when their code is unchanged, restarted with their arguments or stopped ([StopOnEdit]) when it
// was edited, nested ones and hoisted locals of every kind carried exactly.
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
