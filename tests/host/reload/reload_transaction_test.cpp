// ReloadTransaction: the stages of the one reload pipeline, driven as a frame loop drives
// them, with real mcs builds and the real runtime.
#include "../support/mono_test_support.hpp"

#include <algorithm>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

std::string counter(const std::string& updateBody, const std::string& extra = "") {
    return "using UEngine;\n"
           "public class Counter : UMonoScriptComponent {\n"
           "  [SerializeField] int ticks;\n"
           "  public override void Update(float dt) { " +
           updateBody + " }\n" + extra + "}\n";
}

std::vector<std::string> stageNames(const std::vector<ReloadStage>& stages) {
    std::vector<std::string> names;
    for (ReloadStage s : stages)
        names.emplace_back(stageName(s));
    return names;
}

} // namespace

TEST_CASE("ReloadTransaction: one stage per step, frames between them run the old code until the "
          "swap") {
    TempDir dir("transaction-stages");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("ticks += 1;")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Counter.cs", counter("ticks += 100;")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");

    ReloadTransaction reload(*host, v2, {"Counter.cs"});
    std::vector<ReloadStage> before, after;
    reload.beforeStage = [&](ReloadStage s) { before.push_back(s); };
    reload.afterStage = [&](ReloadStage s) {
        after.push_back(s);
        // The swap commits inside its stage: the new generation is current right after it.
        if (s == ReloadStage::Swap)
            CHECK(host->domain()->generation() == 2);
    };
    int frames = 0;
    while (!reload.done()) {
        // Committed exactly from the swap on: only the unload stage runs after it.
        CHECK(reload.committed() == (reload.next() == ReloadStage::Unload));
        const ReloadStage ran = reload.step(std::chrono::microseconds(2000));
        if (ran == ReloadStage::Swap)
            CHECK(reload.committed());
        if (!reload.done()) {
            host->tick(0.016);
            ++frames;
        }
    }
    const ReloadReport report = reload.takeReport();
    REQUIRE_MESSAGE(report.success, report.describe());
    CHECK(before == after);
    // Load, at least one Warm slice, Reserve, Swap, Unload — in that order, each once
    // except Warm.
    const auto names = stageNames(before);
    REQUIRE(names.size() >= 5);
    CHECK(names.front() == "load");
    CHECK(names[1] == "warm");
    CHECK(names[names.size() - 3] == "reserve");
    CHECK(names[names.size() - 2] == "swap");
    CHECK(names.back() == "unload");
    CHECK(reload.step() == ReloadStage::Done); // nothing left
    // Frames after load, each warm slice and reserve ran the old code (+1 each); the frame
    // after the swap ran the new code (+100).
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == (frames - 1) + 100);
    CHECK(report.fromGeneration == 1);
    CHECK(report.toGeneration == 2);
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    CHECK(ScriptDomain::liveDomains() == 1);
}

TEST_CASE("ReloadTransaction: sequence numbers come from the host's one counter") {
    TempDir dir("transaction-sequence");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("ticks += 1;")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Counter.cs", counter("ticks += 2;")}});
    auto host = makeHostFrom(v1);
    (void)spawnScript(*host, "Counter");
    AssemblyFile garbage = v1;
    garbage.image.assign(512, '\x17');
    const ReloadReport first = reloadNow(*host, v2);
    const ReloadReport failed = reloadNow(*host, garbage);
    const std::uint64_t taken = host->takeReloadSequence(); // e.g. a failed build's report
    const ReloadReport third = reloadNow(*host, v1);
    CHECK(first.sequence == 1);
    CHECK(failed.sequence == 2);
    CHECK_FALSE(failed.success);
    CHECK(failed.failedPhase == "load");
    CHECK(taken == 3);
    CHECK(third.sequence == 4);
    CHECK(third.success);
}

TEST_CASE("ReloadTransaction: a failed load ends the transaction at once, the old code runs on") {
    TempDir dir("transaction-load");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("ticks += 1;")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    AssemblyFile garbage = v1;
    garbage.image.assign(2048, '\x42');
    ReloadTransaction reload(*host, garbage, {"Counter.cs"});
    CHECK(reload.step() == ReloadStage::Load);
    CHECK(reload.done());
    CHECK_FALSE(reload.committed());
    CHECK_FALSE(reload.report().success);
    CHECK(reload.report().failedPhase == "load");
    CHECK_FALSE(reload.report().errors.empty());
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 1);
    CHECK(host->domain()->generation() == 1);
}

TEST_CASE("ReloadTransaction: dropped before its swap it rolls back, the old generation keeps "
          "everything") {
    TempDir dir("transaction-dropped");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("ticks += 1;")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Counter.cs", counter("ticks += 100;")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    host->tick(0.016);
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    const std::size_t handles = ScriptDomain::liveGcHandles();
    {
        ReloadTransaction reload(*host, v2);
        CHECK(reload.step() == ReloadStage::Load);
        CHECK(reload.step() == ReloadStage::Warm);
        CHECK(ScriptDomain::liveDomains() == 2); // the new generation beside the old one
    } // dropped here: the incoming generation is unloaded
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    CHECK(ScriptDomain::liveDomains() == 1);
    CHECK(ScriptDomain::liveGcHandles() == handles);
    CHECK(host->domain()->generation() == 1);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 2);
}

TEST_CASE("ReloadTransaction: a domain prepared ahead gets the scripts, the old code runs until "
          "the swap and nothing is left behind") {
    TempDir dir("transaction-prepared");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("ticks += 1;")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Counter.cs", counter("ticks += 100;")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    host->tick(0.016);
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    const std::size_t handles = ScriptDomain::liveGcHandles();

    auto prepared =
        ScriptDomain::prepare(host->peekGenerationNumber(), host->scriptCore(), host->world());
    REQUIRE_MESSAGE(prepared, prepared.error().message);
    CHECK_FALSE((*prepared)->scriptsLoaded());
    CHECK(ScriptDomain::liveDomains() == 2);
    // The running generation goes on beside it (the thread is back in its domain).
    for (int i = 0; i < 3; ++i)
        host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 4);

    ReloadTransaction reload(*host, v2, {"Counter.cs"});
    reload.usePreparedDomain(std::move(*prepared));
    const ReloadReport report = reload.runToEnd();
    REQUIRE_MESSAGE(report.success, report.describe());
    CHECK(report.toGeneration == 2); // numbered as a domain made in the load stage would be
    CHECK(report.preparedDomain);
    CHECK(host->domain()->scriptsLoaded());
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 4);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 104);
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    CHECK(ScriptDomain::liveDomains() == 1);
    CHECK(ScriptDomain::liveGcHandles() == handles);
}

TEST_CASE("ReloadTransaction: a failed load into a prepared domain rolls back and unloads it") {
    TempDir dir("transaction-prepared-failed");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("ticks += 1;")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    host->tick(0.016);
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    const std::size_t handles = ScriptDomain::liveGcHandles();
    AssemblyFile garbage = v1;
    garbage.image.assign(2048, '\x42');
    {
        auto prepared =
            ScriptDomain::prepare(host->peekGenerationNumber(), host->scriptCore(), host->world());
        REQUIRE_MESSAGE(prepared, prepared.error().message);
        ReloadTransaction reload(*host, garbage, {"Counter.cs"});
        reload.usePreparedDomain(std::move(*prepared));
        CHECK(reload.step() == ReloadStage::Load);
        CHECK(reload.done());
        CHECK(reload.report().failedPhase == "load");
        CHECK_FALSE(reload.report().errors.empty());
    }
    {
        // One that is never used goes when its transaction does.
        auto prepared =
            ScriptDomain::prepare(host->peekGenerationNumber(), host->scriptCore(), host->world());
        REQUIRE_MESSAGE(prepared, prepared.error().message);
        ReloadTransaction unused(*host, garbage);
        unused.usePreparedDomain(std::move(*prepared));
    }
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    CHECK(ScriptDomain::liveDomains() == 1);
    CHECK(ScriptDomain::liveGcHandles() == handles);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 2);
    CHECK(host->domain()->generation() == 1);
}

namespace {

// A counter whose constructor makes an entity named `marker` (kept by a plain field).
std::string constructing(const std::string& updateBody, const std::string& marker) {
    return "using UEngine;\n"
           "public class Counter : UMonoScriptComponent {\n"
           "  [SerializeField] int ticks;\n"
           "  UEntity made;\n"
           "  public Counter() { made = new UEntity(\"" +
           marker +
           "\"); }\n"
           "  public override void Update(float dt) { " +
           updateBody + " }\n}\n";
}

std::size_t entitiesNamed(ScriptHost& host, const std::string& name) {
    std::size_t n = 0;
    for (ObjectId e : host.world().entities())
        n += host.world().entity(e)->name == name ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("ReloadTransaction: the reserve stage makes today's instances, the swap keeps them, "
          "makes one for a slot added since and frees the one of a slot gone since") {
    TempDir dir("transaction-ahead");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", constructing("ticks += 1;", "v1")}});
    auto v2 =
        compileScripts(dir, "gen2.dll", {{"Counter.cs", constructing("ticks += 100;", "v2")}});
    auto host = makeHostFrom(v1);
    const ObjectId a = spawnScript(*host, "Counter");
    const ObjectId b = spawnScript(*host, "Counter");
    const ObjectId bEntity = host->world().script(b)->entity;
    host->tick(0.016);

    ReloadTransaction reload(*host, v2, {"Counter.cs"});
    while (reload.next() != ReloadStage::Swap) {
        const bool constructorsRan = entitiesNamed(*host, "v2") > 0;
        CHECK_MESSAGE(!constructorsRan, "constructed before the reserve stage");
        reload.step();
        REQUIRE_FALSE(reload.done());
    }
    // The new code's constructors ran in the reserve stage, one per slot; the old code runs on.
    CHECK(entitiesNamed(*host, "v2") == 2);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, a, "ticks") == 2);

    // Between that stage and the swap a slot goes and one comes.
    REQUIRE(host->destroyEntity(bEntity));
    const ObjectId c = spawnScript(*host, "Counter");
    REQUIRE(reload.step() == ReloadStage::Swap);
    REQUIRE_MESSAGE(reload.report().success, reload.report().describe());
    CHECK(reload.report().restored == 2); // a and c
    // c's instance was made in the swap (a third v2 constructor); b's was freed.
    CHECK(entitiesNamed(*host, "v2") == 3);
    CHECK(host->domain()->instanceCount() == 2);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, a, "ticks") == 102);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 100);
    (void)reload.runToEnd();
}

TEST_CASE("ReloadTransaction: a constructor that throws in the reserve stage rolls back") {
    TempDir dir("transaction-ahead-throws");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("ticks += 1;")}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Counter.cs", counter("ticks += 100;",
                                "  public Counter() { throw new System.Exception(\"no\"); }\n")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    ReloadTransaction reload(*host, v2, {"Counter.cs"});
    std::vector<ReloadStage> stages;
    reload.beforeStage = [&](ReloadStage s) { stages.push_back(s); };
    const ReloadReport report = reload.runToEnd();
    CHECK_FALSE(report.success);
    CHECK(report.failedPhase == "instantiate");
    CHECK(stages.back() == ReloadStage::Reserve);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 1);
    CHECK(host->domain()->generation() == 1);
}

TEST_CASE("ReloadTransaction: runToEnd is the same stages back to back") {
    TempDir dir("transaction-run-to-end");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", counter("ticks += 1;")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Counter.cs", counter("ticks += 100;")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    REQUIRE(host->setField(c, "ticks", std::int64_t{41}));
    ReloadTransaction reload(*host, v2, {"forced"});
    std::vector<ReloadStage> stages;
    reload.beforeStage = [&](ReloadStage s) { stages.push_back(s); };
    const ReloadReport report = reload.runToEnd();
    REQUIRE_MESSAGE(report.success, report.describe());
    CHECK(stageNames(stages).front() == "load");
    CHECK(stageNames(stages).back() == "unload");
    CHECK(report.trigger == std::vector<std::string>{"forced"});
    CHECK_FALSE(report.preparedDomain);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 41);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 141);
}

namespace {

// A counter with a coroutine (one step a frame) and an OnAfterReload that counts its runs in
// a [PreserveStatic] static; `hook` is more of the hook's body.
std::string stepper(const std::string& updateBody, const std::string& hook = "") {
    return "using System.Collections; using UEngine;\n"
           "public class Counter : UMonoScriptComponent {\n"
           "  [SerializeField] int ticks;\n"
           "  [SerializeField] int counted = -1;\n"
           "  [SerializeField] int hooked;\n"
           "  [PreserveStatic] static int hooks;\n"
           "  public override void Initialize() { StartCoroutine(Count()); }\n"
           "  public override void Update(float dt) { " +
           updateBody +
           " }\n"
           "  public override void OnAfterReload() { hooks++; hooked = hooks; " +
           hook +
           " }\n"
           "  IEnumerator Count() { for (int i = 0; ; i++) { counted = i; yield return null; } }\n"
           "}\n";
}

} // namespace

TEST_CASE("ReloadTransaction: the debugger rebind loads the same code again once the old "
          "generation is unloaded and carries values and coroutines through both passes") {
    TempDir dir("transaction-rebind");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", stepper("ticks += 1;")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Counter.cs", stepper("ticks += 100;")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    for (int i = 0; i < 3; ++i)
        host->tick(0.016);
    REQUIRE(fieldOf<std::int64_t>(*host, c, "ticks") == 3);
    REQUIRE(fieldOf<std::int64_t>(*host, c, "counted") == 3);

    ReloadTransaction reload(*host, v2, {"Counter.cs"});
    CHECK_FALSE(reload.debuggerRebind()); // no debugger attached: the plain pipeline
    reload.setDebuggerRebind(true);
    REQUIRE(reload.debuggerRebind());
    std::vector<ReloadStage> stages;
    std::size_t domainsAtSecondLoad = 0;
    std::uint32_t runningAtSecondLoad = 0;
    std::vector<std::size_t> domainsAfterUnload; // right after each pass's unload stage
    reload.afterStage = [&](ReloadStage s) {
        if (s == ReloadStage::Unload)
            domainsAfterUnload.push_back(ScriptDomain::liveDomains());
    };
    reload.beforeStage = [&](ReloadStage s) {
        if (s == ReloadStage::Load && !stages.empty()) {
            domainsAtSecondLoad = ScriptDomain::liveDomains();
            runningAtSecondLoad = host->domain()->generation();
        }
        stages.push_back(s);
    };
    int frames = 0;
    while (!reload.done()) {
        reload.step(std::chrono::microseconds(2000));
        if (!reload.done()) {
            host->tick(0.016);
            ++frames;
        }
    }
    const ReloadReport report = reload.takeReport();
    REQUIRE_MESSAGE(report.success, report.describe());

    // Load … Unload, then Rebind (once or more: it waits for the unload), then Load … Unload
    // again; the second load only once generation 1 is gone, with generation 2 running.
    const auto names = stageNames(stages);
    const auto rebind = std::find(names.begin(), names.end(), "rebind");
    REQUIRE_MESSAGE(rebind != names.end(), report.describe());
    CHECK(*(rebind - 1) == "unload");
    CHECK(*(rebind - 2) == "swap");
    const auto secondLoad = std::find(rebind, names.end(), "load");
    REQUIRE(secondLoad != names.end());
    CHECK(std::all_of(rebind, secondLoad, [](const std::string& n) { return n == "rebind"; }));
    CHECK(std::count(names.begin(), names.end(), "swap") == 2);
    CHECK(names.back() == "unload");
    CHECK(domainsAtSecondLoad == 1);
    CHECK(runningAtSecondLoad == 2);
    // With a debugger, each pass's unload is over before the stage returns, so before any
    // script runs again: a thread stopped at a breakpoint gets no unload events, which would
    // make its frames invalid in the client (docs/MONO.md §11). One rebind step is enough.
    CHECK(domainsAfterUnload == std::vector<std::size_t>{1, 1});
    CHECK(std::count(names.begin(), names.end(), "rebind") == 1);

    CHECK(report.fromGeneration == 1);
    CHECK(report.debuggerRebindFrom == 2);
    CHECK(report.toGeneration == 3);
    CHECK(host->domain()->generation() == 3);
    CHECK(report.describe().find("debugger rebind: generation 2 loaded again as 3") !=
          std::string::npos);
    CHECK(report.warnings.empty());
    // The first pass's outcome: the coroutine's code is unchanged, so it resumed (and the
    // second pass resumed it again: no warning).
    REQUIRE(report.coroutines.size() == 1);
    CHECK(report.coroutines[0].kind == CoroutineOutcome::Kind::Resumed);

    // Values carried through both passes; the new code runs; the coroutine goes on from its
    // own i (one step a frame since the reload began: never restarted from 0).
    const std::int64_t ticks = fieldOf<std::int64_t>(*host, c, "ticks");
    const std::int64_t counted = fieldOf<std::int64_t>(*host, c, "counted");
    CHECK(counted == 3 + frames);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == ticks + 100);
    CHECK(fieldOf<std::int64_t>(*host, c, "counted") == counted + 1);
    // OnAfterReload ran once per pass: a script sees two reloads.
    CHECK(fieldOf<std::int64_t>(*host, c, "hooked") == 2);
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    CHECK(ScriptDomain::liveDomains() == 1);
}

TEST_CASE("ReloadTransaction: with the debugger rebind a failing reload rolls back as ever and "
          "a failing second pass leaves the first new generation running") {
    TempDir dir("transaction-rebind-failing");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Counter.cs", stepper("ticks += 1;")}});
    auto bad = compileScripts(
        dir, "bad.dll",
        {{"Counter.cs", stepper("ticks += 50;",
                                "throw new System.InvalidOperationException(\"hook says no\");")}});
    auto secondFails = compileScripts(
        dir, "second.dll",
        {{"Counter.cs",
          stepper("ticks += 100;", "if (hooks == 2) throw new "
                                   "System.InvalidOperationException(\"not twice\");")}});
    auto host = makeHostFrom(v1);
    const ObjectId c = spawnScript(*host, "Counter");
    host->tick(0.016);

    // The first pass fails: an ordinary rollback, no rebind; generation 1 runs on.
    {
        ReloadTransaction reload(*host, bad, {"Counter.cs"});
        reload.setDebuggerRebind(true);
        std::vector<ReloadStage> stages;
        reload.beforeStage = [&](ReloadStage s) { stages.push_back(s); };
        const ReloadReport report = reload.runToEnd();
        CHECK_FALSE(report.success);
        CHECK(report.failedPhase == "hooks");
        CHECK(report.debuggerRebindFrom == 0);
        const auto names = stageNames(stages);
        CHECK(std::find(names.begin(), names.end(), "rebind") == names.end());
        CHECK(host->domain()->generation() == 1);
        CHECK(ScriptDomain::liveDomains() == 1); // the rolled-back one unloaded before return
        host->tick(0.016);
        CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 2); // the old code
        CHECK(fieldOf<std::int64_t>(*host, c, "counted") == 2);
    }

    // The first pass commits (its hook runs once), the second pass's hook throws: that
    // generation is unloaded, the first new one runs on, and the report says why.
    ReloadTransaction reload(*host, secondFails, {"Counter.cs"});
    reload.setDebuggerRebind(true);
    const ReloadReport report = reload.runToEnd();
    REQUIRE_MESSAGE(report.success, report.describe());
    CHECK(report.debuggerRebindFrom == 0);
    CHECK(report.toGeneration == host->domain()->generation());
    REQUIRE(report.warnings.size() == 1);
    CHECK(report.warnings[0].find("debugger rebind") != std::string::npos);
    CHECK(report.warnings[0].find("not twice") != std::string::npos);
    CHECK(ScriptDomain::liveDomains() == 1); // both passes' unloads were waited for
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 2);
    CHECK(fieldOf<std::int64_t>(*host, c, "hooked") == 1);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, c, "ticks") == 102); // the new code
    CHECK(fieldOf<std::int64_t>(*host, c, "counted") == 3); // carried, not restarted
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    CHECK(ScriptDomain::liveDomains() == 1);
}
