// ScriptWatchdog: runaway scripts are stopped, the loop goes on, a reload rolls back.
// Real mcs builds, the real runtime, a short budget. (A script that refuses to stop is
// a daemon test: it ends the process, see app/daemon_cli_test.cpp.)
#include "../../support/cpu_starvation.hpp"
#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/runtime/script_watchdog.hpp"

#include <atomic>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/threads.h>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

constexpr auto kBudget = 200ms;

std::unique_ptr<ScriptHost> makeWatchedHost(const AssemblyFile& scripts) {
    ScriptHostOptions options;
    options.registerInternalCalls = glue::registerEngineInternalCalls;
    options.scriptCore = SCRIPTHOST_SCRIPTCORE_DLL;
    options.watchdogBudget = kBudget;
    options.watchdogGrace = 60s; // never reached here; a failed test must not end the process
    options.onHostage = [](const std::string& phase, std::chrono::milliseconds) {
        FAIL("the watchdog gave up on " << phase);
    };
    auto host = ScriptHost::create(options);
    REQUIRE_MESSAGE(host, (host ? "" : host.error().message));
    auto loaded = (*host)->loadScripts(scripts);
    REQUIRE_MESSAGE(loaded, (loaded ? "" : loaded.error().message));
    return std::move(*host);
}

// Counter counts its Updates; Runaway loops forever in the member named by `where`
// when its `runAway` field is set.
std::string scripts(const std::string& runawayBody, const std::string& extra = "") {
    return "using UEngine;\n"
           "public class Counter : UMonoScriptComponent {\n"
           "  [SerializeField] public int updates;\n"
           "  public override void Update(float dt) { updates++; }\n"
           "}\n"
           "public class Runaway : UMonoScriptComponent {\n"
           "  [SerializeField] public bool runAway;\n"
           "  [SerializeField] public int updates;\n" +
           runawayBody + "\n" + extra + "}\n";
}

const std::string kLoopInUpdate = "  public override void Update(float dt) {\n"
                                  "    updates++;\n"
                                  "    while (runAway) { }\n" // line 11 of Runaway.cs
                                  "  }\n";

// What a watchdog saw of one scope run on a thread of its own (attached to Mono, so the
// test's main thread keeps its priority and CPUs).
struct WatchedScope {
    std::uint64_t aborts = 0;
    bool hostage = false;
    std::chrono::nanoseconds cpu{}; // the thread's CPU time inside the scope
};

WatchedScope watchScope(std::chrono::milliseconds grace, const std::function<void()>& work) {
    startBareRuntime();
    WatchedScope seen;
    std::atomic<bool> hostage{false};
    std::thread watched([&] {
        MonoThread* self = mono_thread_attach(mono_get_root_domain());
        {
            auto watchdog = ScriptWatchdog::start(
                {kBudget, grace, [&](const std::string&, std::chrono::milliseconds) {
                     hostage = true;
                 }});
            REQUIRE_MESSAGE(watchdog, (watchdog ? "" : watchdog.error().message));
            const auto cpuStart = threadCpuTime();
            {
                ScriptWatchdog::Scope scope("a test's scope");
                work();
            }
            seen.cpu = threadCpuTime() - cpuStart;
            seen.aborts = (*watchdog)->aborts();
        }
        mono_thread_detach(self);
    });
    watched.join();
    seen.hostage = hostage.load();
    return seen;
}

void busyFor(std::chrono::milliseconds wall) {
    const auto end = std::chrono::steady_clock::now() + wall;
    while (std::chrono::steady_clock::now() < end) {
    }
}

// Busy until the calling thread has had `cpu` of CPU time, however long other processes keep it
// waiting for one.
void burnCpu(std::chrono::milliseconds cpu) {
    const auto end = threadCpuTime() + cpu;
    while (threadCpuTime() < end) {
    }
}

long long ms(std::chrono::nanoseconds time) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(time).count();
}

} // namespace

TEST_CASE("Watchdog: time the main thread waits for a CPU that others hold does not count "
          "against the budget") {
    // Four budgets of wall time, nearly all of it waiting for the CPU two busier threads hold.
    const WatchedScope seen = watchScope(60s, [] {
        CpuStarvation starvation;
        busyFor(4 * kBudget);
    });
    REQUIRE_MESSAGE(seen.cpu < kBudget / 2, "not starved: ran " << ms(seen.cpu) << " ms");
    CHECK(seen.aborts == 0);
    CHECK_FALSE(seen.hostage);
}

TEST_CASE("Watchdog: after its abort, a script starved of CPU is not taken for one that will not "
          "stop") {
    // Busy past the budget (the abort is issued; native code cannot be aborted), then starved
    // for three graces: what it ran after the abort stays well inside the grace.
    static constexpr auto kGrace = 500ms;
    const WatchedScope seen = watchScope(kGrace, [] {
        burnCpu(kBudget + 100ms);
        CpuStarvation starvation;
        busyFor(3 * kGrace);
    });
    CHECK(seen.aborts == 1);
    CHECK_FALSE(seen.hostage);
}

TEST_CASE("Watchdog: a scope that keeps the CPU past its abort and the grace is given up on") {
    static constexpr auto kGrace = 300ms;
    const WatchedScope seen = watchScope(kGrace, [] { burnCpu(kBudget + kGrace + 400ms); });
    CHECK(seen.aborts == 1);
    CHECK(seen.hostage);
}

TEST_CASE("Watchdog: a call that blocks is still stopped at its budget") {
    // Sleeping is the script's doing: only waiting for a CPU is discounted.
    const WatchedScope seen =
        watchScope(60s, [] { std::this_thread::sleep_for(3 * kBudget); });
    CHECK(seen.aborts == 1);
    CHECK_FALSE(seen.hostage);
}

TEST_CASE("Watchdog: an endless loop in Update is stopped, the script disabled and reported "
          "with its stack, and the frame goes on") {
    TempDir dir("watchdog-update");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Runaway.cs", scripts(kLoopInUpdate)}});
    auto host = makeWatchedHost(v1);
    REQUIRE(host->watchdog() != nullptr);
    const ObjectId runaway = spawnScript(*host, "Runaway");
    const ObjectId counter = spawnScript(*host, "Counter"); // runs after Runaway each frame
    host->tick(0.016);
    REQUIRE(fieldOf<std::int64_t>(*host, counter, "updates") == 1);
    CHECK(host->watchdog()->aborts() == 0);

    REQUIRE(host->setField(runaway, "runAway", true));
    const auto start = std::chrono::steady_clock::now();
    host->tick(0.016); // stopped after the budget, then the rest of the frame runs
    const auto took = std::chrono::steady_clock::now() - start;
    CHECK(took >= kBudget);
    CHECK(host->watchdog()->aborts() == 1);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 2);

    REQUIRE_FALSE(host->recentFailures().empty());
    const ScriptFailure& failure = host->recentFailures().back();
    CHECK(failure.stopped);
    CHECK(failure.disabled);
    CHECK(failure.script == runaway);
    CHECK(failure.className == "Runaway");
    CHECK(failure.phase == ScriptPhase::Update);
    CHECK_MESSAGE(failure.text.find("Runaway.Update") != std::string::npos, failure.text);
    CHECK_MESSAGE(failure.text.find("Runaway.cs:") != std::string::npos, failure.text);
    CHECK_FALSE(host->world().script(runaway)->enabled);

    // Disabled: the next frames skip it, and they are quick again.
    for (int i = 0; i < 3; ++i)
        host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, runaway, "updates") == 2);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 5);
    CHECK(host->watchdog()->aborts() == 1);
    CHECK(host->scriptFailureCount() == 1);
}

TEST_CASE("Watchdog: an endless loop in FixedUpdate and in Initialize is stopped too") {
    TempDir dir("watchdog-fixed");
    auto v1 = compileScripts(
        dir, "gen1.dll",
        {{"Runaway.cs",
          scripts("  public override void FixedUpdate(float dt) { while (runAway) { } }\n",
                  "public class SlowStart : UMonoScriptComponent {\n"
                  "  public override void Initialize() { while (true) { } }\n"
                  "}\n")}});
    auto host = makeWatchedHost(v1);
    const ObjectId runaway = spawnScript(*host, "Runaway", json{{"runAway", true}});
    host->tick(0.05); // at least one fixed step
    CHECK(host->watchdog()->aborts() == 1);
    CHECK_FALSE(host->world().script(runaway)->enabled);
    REQUIRE_FALSE(host->recentFailures().empty());
    CHECK(host->recentFailures().back().phase == ScriptPhase::FixedUpdate);

    const ObjectId slow = spawnScript(*host, "SlowStart"); // Initialize is stopped
    CHECK(host->watchdog()->aborts() == 2);
    CHECK(host->recentFailures().back().script == slow);
    CHECK(host->recentFailures().back().phase == ScriptPhase::Initialize);
    CHECK(host->recentFailures().back().stopped);
    const ObjectId counter = spawnScript(*host, "Counter");
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 1);
}

TEST_CASE("Watchdog: a constructor that never returns during a reload rolls the reload back, "
          "and the old generation keeps ticking") {
    TempDir dir("watchdog-ctor");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Runaway.cs", scripts(kLoopInUpdate)}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Runaway.cs", scripts(kLoopInUpdate, "  public Runaway() { while (true) { } }\n")}});
    auto host = makeWatchedHost(v1);
    const ObjectId counter = spawnScript(*host, "Counter");
    (void)spawnScript(*host, "Runaway");
    host->tick(0.016);

    const ReloadReport report = reloadNow(*host, v2, {"Runaway.cs"});
    CHECK_FALSE(report.success);
    REQUIRE_FALSE(report.errors.empty());
    CHECK_MESSAGE(report.errors[0].find("watchdog") != std::string::npos, report.describe());
    CHECK_MESSAGE(report.errors[0].find("Runaway") != std::string::npos, report.describe());
    CHECK(host->domain()->generation() == 1);
    CHECK(host->watchdog()->aborts() == 1);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 2);
}

TEST_CASE("Watchdog: OnAfterReload that never returns rolls the reload back") {
    TempDir dir("watchdog-after-reload");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Runaway.cs", scripts(kLoopInUpdate)}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Runaway.cs", scripts(kLoopInUpdate,
                                "  public override void OnAfterReload() { while (true) { } }\n")}});
    auto host = makeWatchedHost(v1);
    const ObjectId counter = spawnScript(*host, "Counter");
    (void)spawnScript(*host, "Runaway");
    REQUIRE(host->setField(counter, "updates", std::int64_t{40}));

    const ReloadReport report = reloadNow(*host, v2, {"Runaway.cs"});
    CHECK_FALSE(report.success);
    CHECK(report.failedPhase == "hooks");
    REQUIRE_FALSE(report.errors.empty());
    CHECK_MESSAGE(report.errors[0].find("watchdog") != std::string::npos, report.describe());
    CHECK(host->domain()->generation() == 1);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 41);

    // The next good build goes in.
    auto v3 = compileScripts(dir, "gen3.dll", {{"Runaway.cs", scripts(kLoopInUpdate)}});
    const ReloadReport fixed = reloadOk(*host, v3);
    CHECK(fixed.toGeneration == host->domain()->generation());
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 41);
}

TEST_CASE("Watchdog: scripts that call Thread.ResetAbort are refused when they load") {
    TempDir dir("watchdog-reset-abort");
    const std::string swallow = "  public override void Update(float dt) {\n"
                                "    while (true) {\n"
                                "      try { while (runAway) { } return; }\n"
                                "      catch (System.Threading.ThreadAbortException) {\n"
                                "        System.Threading.Thread.ResetAbort();\n"
                                "      }\n"
                                "    }\n"
                                "  }\n";
    auto v1 = compileScripts(dir, "gen1.dll", {{"Runaway.cs", scripts(kLoopInUpdate)}});
    auto bad = compileScripts(dir, "bad.dll", {{"Runaway.cs", scripts(swallow)}});
    auto host = makeWatchedHost(v1);
    const ObjectId counter = spawnScript(*host, "Counter");

    const ReloadReport report = reloadNow(*host, bad, {"Runaway.cs"});
    CHECK_FALSE(report.success);
    CHECK(report.failedPhase == "load");
    REQUIRE_FALSE(report.errors.empty());
    CHECK_MESSAGE(report.errors[0].find("System.Threading.Thread.ResetAbort") != std::string::npos,
                  report.describe());
    CHECK(host->domain()->generation() == 1);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 1);

    // A first generation that calls it does not load either.
    ScriptHostOptions options;
    options.registerInternalCalls = glue::registerEngineInternalCalls;
    options.scriptCore = SCRIPTHOST_SCRIPTCORE_DLL;
    auto other = ScriptHost::create(options);
    REQUIRE(other);
    auto loaded = (*other)->loadScripts(bad);
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().message.find("ResetAbort") != std::string::npos);
}

TEST_CASE("Watchdog: a script that returns just as the budget runs out does not leave an abort "
          "behind for the next call") {
    TempDir dir("watchdog-race");
    // Busy for about the budget, then returns: some runs are aborted, some are not; no
    // abort may land in a later, innocent call.
    auto v1 = compileScripts(
        dir, "gen1.dll",
        {{"Runaway.cs", scripts("  public override void Update(float dt) {\n"
                                "    updates++;\n"
                                "    if (!runAway) return;\n"
                                "    var end = System.DateTime.UtcNow.AddMilliseconds(200);\n"
                                "    while (System.DateTime.UtcNow < end) { }\n"
                                "  }\n")}});
    auto host = makeWatchedHost(v1);
    const ObjectId counter = spawnScript(*host, "Counter");
    std::vector<ObjectId> racers;
    for (int i = 0; i < 4; ++i)
        racers.push_back(spawnScript(*host, "Runaway", json{{"runAway", true}}));
    for (int frame = 1; frame <= 4; ++frame) {
        host->tick(0.016);
        CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == frame);
        // Reading fields and setting one are managed calls too: none may see an abort.
        for (ObjectId r : racers)
            CHECK(host->getField(r, "updates").has_value());
    }
    // Every stopped script was reported as stopped; nothing else failed.
    std::size_t stopped = 0;
    for (const ScriptFailure& f : host->recentFailures()) {
        CHECK_MESSAGE(f.stopped, f.text);
        stopped += f.stopped ? 1 : 0;
    }
    CHECK(stopped == host->scriptFailureCount());
    CHECK(stopped <= host->watchdog()->aborts());
}

TEST_CASE("Watchdog: a reload stopped in a constructor leaves no abort behind: the next runaway, "
          "in OnAfterReload, is stopped too") {
    // An abort that ends a call made through mono_runtime_invoke is caught by the invoke, not
    // reset by managed code; Mono ignores every later abort of a thread still marked "abort
    // requested", so the second runaway held the main thread until the grace ran out.
    TempDir dir("watchdog-twice");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Runaway.cs", scripts(kLoopInUpdate)}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Runaway.cs", scripts(kLoopInUpdate, "  public Runaway() { while (true) { } }\n")}});
    auto v3 = compileScripts(
        dir, "gen3.dll",
        {{"Runaway.cs", scripts(kLoopInUpdate,
                                "  public override void OnAfterReload() { while (true) { } }\n")}});
    auto host = makeWatchedHost(v1);
    const ObjectId counter = spawnScript(*host, "Counter");
    (void)spawnScript(*host, "Runaway");
    host->tick(0.016);

    const ReloadReport inConstructor = reloadNow(*host, v2, {"Runaway.cs"});
    CHECK_FALSE(inConstructor.success);
    CHECK(host->watchdog()->aborts() == 1);
    host->tick(0.016);
    const ReloadReport inHook = reloadNow(*host, v3, {"Runaway.cs"});
    CHECK_FALSE(inHook.success);
    CHECK(inHook.failedPhase == "hooks");
    CHECK(host->watchdog()->aborts() == 2);
    CHECK(host->domain()->generation() == 1);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 3);
}
