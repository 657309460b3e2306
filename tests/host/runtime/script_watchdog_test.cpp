// ScriptWatchdog: runaway scripts are stopped, the loop goes on, a reload rolls back.
// Real mcs builds, the real runtime, a short budget. (A script that refuses to stop is
// a daemon test: it ends the process, see app/daemon_cli_test.cpp.)
#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"

#include <atomic>

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

} // namespace

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
