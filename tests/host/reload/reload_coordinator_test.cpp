// Hot reload end to end: a host ticking on a temp copy of a scripts folder, real edits,
// the real watcher, the real compiler (warm server, cold mcs), reports awaited with deadlines.
#include "../support/mono_test_support.hpp"
#include "compiler_bridge/compile_failure.hpp"
#include "host/engine/game_loop.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/reload/reload_coordinator.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

std::string counterSource(const std::string& step) {
    return "using UEngine;\npublic class Ticker : UMonoScriptComponent {\n"
           "  [SerializeField] int count;\n  [SerializeField] string note = \"initial\";\n"
           "  [SerializeField] UEntity buddy;\n"
           "  public override void Update(float dt) { count += " +
           step + "; }\n}\n";
}

/// A host whose scripts live in a temp folder, with its reload coordinator.
struct LiveHost {
    TempDir dir{"live"};
    std::unique_ptr<ScriptHost> host;
    std::unique_ptr<ReloadCoordinator> coordinator;
    std::vector<ReloadReport> reports;

    explicit LiveHost(const std::vector<std::pair<std::string, std::string>>& files,
                      bool cold = false) {
        for (const auto& [name, text] : files)
            writeFile(dir / "scripts" / name, text);
        ScriptHostOptions options;
        options.registerInternalCalls = glue::registerEngineInternalCalls;
        options.scriptCore = SCRIPTHOST_SCRIPTCORE_DLL;
        auto created = ScriptHost::create(options);
        REQUIRE(created);
        host = std::move(*created);
        ReloadCoordinatorOptions reload;
        reload.scriptDirs = {dir / "scripts"};
        reload.scriptCore = SCRIPTHOST_SCRIPTCORE_DLL;
        reload.buildDir = dir / "build";
        reload.coldCompiler = cold;
        auto started = ReloadCoordinator::start(*host, reload);
        REQUIRE_MESSAGE(started, (started ? "" : started.error().message));
        coordinator = std::move(*started);
        coordinator->onReport = [this](const ReloadReport& r) { reports.push_back(r); };
        auto built = coordinator->buildNow();
        REQUIRE_MESSAGE(built, (built ? std::string() : compiler::failureText(built.error())));
        std::vector<AssemblyFile> assemblies;
        for (const std::filesystem::path& dll : *built) {
            auto assembly = AssemblyFile::read(dll);
            REQUIRE(assembly);
            assemblies.push_back(std::move(*assembly));
        }
        auto loaded = host->loadScripts(assemblies);
        REQUIRE_MESSAGE(loaded, (loaded ? "" : loaded.error().message));
    }

    void frame() {
        host->tick(0.016);
        coordinator->update();
    }

    /// Runs frames until `count` reports arrived (or the deadline passed).
    bool runUntilReports(std::size_t count,
                         std::chrono::seconds timeout = std::chrono::seconds(30)) {
        return waitUntil(
            [&] {
                frame();
                return reports.size() >= count;
            },
            timeout);
    }
};

} // namespace

TEST_CASE("Live reload: saving a changed script swaps the code and keeps every value") {
    LiveHost live({{"Ticker.cs", counterSource("1")}});
    const ObjectId buddy = live.host->world().createEntity("Buddy");
    const ObjectId t = spawnScript(*live.host, "Ticker", json{{"buddy", {{"id", buddy.packed()}}}});
    for (int i = 0; i < 5; ++i)
        live.frame();
    REQUIRE(live.host->setField(t, "note", std::string("set while running")));
    const std::int64_t before = fieldOf<std::int64_t>(*live.host, t, "count");
    CHECK(before == 5);

    writeFile(live.dir / "scripts" / "Ticker.cs", counterSource("1000"));
    REQUIRE_MESSAGE(live.runUntilReports(1), "no reload report in time");
    const ReloadReport& report = live.reports.back();
    REQUIRE_MESSAGE(report.success, report.describe());
    CHECK(report.toGeneration == 2);
    REQUIRE(report.trigger.size() == 1);
    CHECK(report.trigger[0].find("Ticker.cs") != std::string::npos);
    CHECK(report.buildMs > 0);
    CHECK(fieldOf<std::string>(*live.host, t, "note") == "set while running");
    CHECK(fieldOf<ObjectRef>(*live.host, t, "buddy").id == buddy);
    const std::int64_t at = fieldOf<std::int64_t>(*live.host, t, "count");
    live.frame();
    CHECK(fieldOf<std::int64_t>(*live.host, t, "count") == at + 1000);
}

TEST_CASE("Live reload: in a paced loop the reload's stages run in the time the loop would "
          "sleep, not one per frame boundary") {
    LiveHost live({{"Ticker.cs", counterSource("1")}});
    const ObjectId t = spawnScript(*live.host, "Ticker");
    bool inIdle = false;
    std::vector<std::pair<ReloadStage, bool>> stages; // each stage run, and whether in idle time
    live.coordinator->beforeStage = [&](ReloadStage stage) { stages.emplace_back(stage, inIdle); };
    std::atomic<bool> stop{false};
    bool saved = false;
    FrameHooks hooks;
    hooks.afterFrame = [&] {
        live.coordinator->update();
        if (!saved && live.host->frame() >= 3) {
            writeFile(live.dir / "scripts" / "Ticker.cs", counterSource("1000"));
            saved = true;
        }
        if (!live.reports.empty())
            stop = true;
    };
    hooks.idle = [&](std::chrono::steady_clock::time_point nextFrame) {
        inIdle = true;
        const bool startNow = live.coordinator->useIdleTime(nextFrame);
        inIdle = false;
        return startNow;
    };
    // 20 frames a second: each frame has ~50 ms to spare, more than any stage here takes.
    GameLoop(GameLoopOptions{20.0, 2000}).run(*live.host, stop, hooks);
    REQUIRE(live.reports.size() == 1);
    REQUIRE_MESSAGE(live.reports[0].success, live.reports[0].describe());
    std::vector<ReloadStage> order;
    std::size_t idleStages = 0;
    for (const auto& [stage, idle] : stages) {
        order.push_back(stage);
        idleStages += idle ? 1 : 0;
    }
    REQUIRE(order.size() >= 4);
    CHECK(order.front() == ReloadStage::Load);
    CHECK(std::ranges::find(order, ReloadStage::Swap) != order.end());
    CHECK_MESSAGE(idleStages > 0, "every stage waited for a frame boundary");
    const std::int64_t at = fieldOf<std::int64_t>(*live.host, t, "count");
    live.frame();
    CHECK(fieldOf<std::int64_t>(*live.host, t, "count") == at + 1000);
}

TEST_CASE("Live reload: a syntax error keeps the old code running, the fix reloads") {
    LiveHost live({{"Ticker.cs", counterSource("1")}}, /*cold*/ true);
    const ObjectId t = spawnScript(*live.host, "Ticker");
    writeFile(live.dir / "scripts" / "Ticker.cs", counterSource("1") + "oops");
    REQUIRE(live.runUntilReports(1));
    const ReloadReport& failed = live.reports.back();
    CHECK_FALSE(failed.success);
    CHECK(failed.failedPhase == "build");
    REQUIRE_FALSE(failed.errors.empty());
    CHECK_MESSAGE(failed.errors[0].find("Ticker.cs(8,0): error CS1525: Unexpected symbol `oops'") !=
                      std::string::npos,
                  failed.errors[0]);
    CHECK(live.host->domain()->generation() == 1);
    const std::int64_t before = fieldOf<std::int64_t>(*live.host, t, "count");
    live.frame();
    CHECK(fieldOf<std::int64_t>(*live.host, t, "count") == before + 1); // old code ticks on

    writeFile(live.dir / "scripts" / "Ticker.cs", counterSource("7"));
    REQUIRE(live.runUntilReports(2));
    REQUIRE_MESSAGE(live.reports.back().success, live.reports.back().describe());
    const std::int64_t at = fieldOf<std::int64_t>(*live.host, t, "count");
    live.frame();
    CHECK(fieldOf<std::int64_t>(*live.host, t, "count") == at + 7);
}

TEST_CASE("Live reload: a burst of saves ends in the newest code, not one reload per save") {
    LiveHost live({{"Ticker.cs", counterSource("1")}});
    const ObjectId t = spawnScript(*live.host, "Ticker");
    for (int i = 2; i <= 30; ++i) {
        writeFile(live.dir / "scripts" / "Ticker.cs", counterSource(std::to_string(i)));
        live.frame();
    }
    // Wait until the newest code runs (every intermediate build may be superseded).
    const bool newest = waitUntil(
        [&] {
            live.frame();
            const std::int64_t a = fieldOf<std::int64_t>(*live.host, t, "count");
            live.frame();
            return fieldOf<std::int64_t>(*live.host, t, "count") - a == 30;
        },
        std::chrono::seconds(30));
    CHECK(newest);
    // The report is published a frame or two after the swap (unload, then the stall figure).
    auto successes = [&] {
        std::size_t n = 0;
        for (const ReloadReport& r : live.reports)
            n += r.success ? 1 : 0;
        return n;
    };
    CHECK(waitUntil([&] {
        live.frame();
        return successes() >= 1 && !live.coordinator->busy();
    }));
    CHECK(successes() < 29); // superseded builds never swap in
    CHECK(live.host->scriptFailureCount() == 0);
}

TEST_CASE(
    "Live reload: deleting a script's file parks it, restoring the file brings its values back") {
    const std::string other = "using UEngine;\npublic class Other : UMonoScriptComponent { }\n";
    LiveHost live({{"Ticker.cs", counterSource("1")}, {"Other.cs", other}});
    const ObjectId t = spawnScript(*live.host, "Ticker");
    REQUIRE(live.host->setField(t, "note", std::string("remember me")));
    std::filesystem::remove(live.dir / "scripts" / "Ticker.cs");
    REQUIRE(live.runUntilReports(1));
    REQUIRE_MESSAGE(live.reports.back().success, live.reports.back().describe());
    CHECK(live.reports.back().parked == 1);
    CHECK(live.host->world().script(t)->parked);
    writeFile(live.dir / "scripts" / "Ticker.cs", counterSource("1"));
    REQUIRE(live.runUntilReports(2));
    REQUIRE_MESSAGE(live.reports.back().success, live.reports.back().describe());
    CHECK(live.reports.back().created == 1);
    CHECK(fieldOf<std::string>(*live.host, t, "note") == "remember me");
}

TEST_CASE("Live reload: assemblies by folder: a leaf's save builds the leaf alone and keeps every "
          "value, a core's save builds the core and what references it, the report names them") {
    LiveHost live({{"Core/Core.asmdef", R"({"name": "Core", "autoReferenced": true})"},
                   {"Core/Health.cs", "namespace Game { public class Health : "
                                      "UEngine.UMonoScriptComponent { public int hp = 10; } }"},
                   {"Leaf/Leaf.asmdef", R"({"name": "Leaf", "references": ["Core"]})"},
                   {"Leaf/Player.cs", "namespace Game { public class Player : "
                                      "UEngine.UMonoScriptComponent { public Health target; public "
                                      "int score; public override void Update(float dt) { score "
                                      "+= 1; } } }"}});
    CHECK(live.host->domain()->findScriptClass("Game.Health")->assembly == "Core.dll");
    const ObjectId health = spawnScript(*live.host, "Game.Health");
    const ObjectId player =
        spawnScript(*live.host, "Game.Player", json{{"target", {{"id", health.packed()}}}});
    REQUIRE(live.host->setField(health, "hp", std::int64_t{42}));
    live.frame();

    writeFile(live.dir / "scripts/Leaf/Player.cs",
              "namespace Game { public class Player : UEngine.UMonoScriptComponent { public Health "
              "target; public int score; public override void Update(float dt) { score += 100; } } "
              "}");
    REQUIRE_MESSAGE(live.runUntilReports(1), "no reload report in time");
    REQUIRE_MESSAGE(live.reports.back().success, live.reports.back().describe());
    CHECK(live.reports.back().assembliesBuilt == std::vector<std::string>{"Leaf"});
    CHECK(fieldOf<std::int64_t>(*live.host, health, "hp") == 42);
    CHECK(fieldOf<ObjectRef>(*live.host, player, "target").id == health);
    const std::int64_t score = fieldOf<std::int64_t>(*live.host, player, "score");
    live.frame();
    CHECK(fieldOf<std::int64_t>(*live.host, player, "score") == score + 100);

    writeFile(live.dir / "scripts/Core/Health.cs",
              "namespace Game { public class Health : UEngine.UMonoScriptComponent { public int hp "
              "= 10; public int armor = 3; } }");
    REQUIRE_MESSAGE(live.runUntilReports(2), "no second reload report in time");
    REQUIRE_MESSAGE(live.reports.back().success, live.reports.back().describe());
    CHECK(live.reports.back().assembliesBuilt == std::vector<std::string>{"Core", "Leaf"});
    CHECK(fieldOf<std::int64_t>(*live.host, health, "hp") == 42);
    CHECK(fieldOf<std::int64_t>(*live.host, health, "armor") == 3);
    CHECK(fieldOf<ObjectRef>(*live.host, player, "target").id == health);

    // A reload of the same code (a new game module with the same native classes): nothing built.
    live.coordinator->requestReload(ReloadCoordinator::Rebuild::Nothing);
    REQUIRE_MESSAGE(live.runUntilReports(3), "no third reload report in time");
    REQUIRE_MESSAGE(live.reports.back().success, live.reports.back().describe());
    CHECK(live.reports.back().assembliesBuilt.empty());
    CHECK(live.reports.back().trigger == std::vector<std::string>{"(requested)"});
    CHECK(fieldOf<std::int64_t>(*live.host, health, "armor") == 3);
}

TEST_CASE("Live reload: assemblies by folder: a core's save that keeps its interface builds the "
          "core alone, and the leaf's last build runs against the new core with every value") {
    auto core = [](int damage) {
        return "namespace Game { public class Health : UEngine.UMonoScriptComponent { public int "
               "hp = 10; public int Damage() { return " +
               std::to_string(damage) + "; } } }";
    };
    LiveHost live({{"Core/Core.asmdef", R"({"name": "Core"})"},
                   {"Core/Health.cs", core(1)},
                   {"Leaf/Leaf.asmdef", R"({"name": "Leaf", "references": ["Core"]})"},
                   {"Leaf/Player.cs",
                    "namespace Game { public class Player : UEngine.UMonoScriptComponent { "
                    "public Health target; public int score; public override void Update(float "
                    "dt) { if (target != null) score += target.Damage(); } } }"}});
    const ObjectId health = spawnScript(*live.host, "Game.Health");
    const ObjectId player =
        spawnScript(*live.host, "Game.Player", json{{"target", {{"id", health.packed()}}}});
    REQUIRE(live.host->setField(health, "hp", std::int64_t{42}));
    live.frame();

    writeFile(live.dir / "scripts/Core/Health.cs", core(7)); // a method body
    REQUIRE_MESSAGE(live.runUntilReports(1), "no reload report in time");
    REQUIRE_MESSAGE(live.reports.back().success, live.reports.back().describe());
    CHECK(live.reports.back().assembliesBuilt == std::vector<std::string>{"Core"});
    CHECK(live.reports.back().assembliesKept == std::vector<std::string>{"Leaf"});
    CHECK(live.host->domain()->findScriptClass("Game.Player")->assembly == "Leaf.dll");
    CHECK(fieldOf<std::int64_t>(*live.host, health, "hp") == 42);
    CHECK(fieldOf<ObjectRef>(*live.host, player, "target").id == health);
    const std::int64_t score = fieldOf<std::int64_t>(*live.host, player, "score");
    live.frame(); // the leaf's code, built against the old core, calls the new one
    CHECK(fieldOf<std::int64_t>(*live.host, player, "score") == score + 7);

    // A public member added: what the leaf sees of the core changed, the leaf is built too.
    writeFile(live.dir / "scripts/Core/Health.cs",
              "namespace Game { public class Health : UEngine.UMonoScriptComponent { public int "
              "hp = 10; public int Damage() { return 7; } public int Heal() { return 1; } } }");
    REQUIRE_MESSAGE(live.runUntilReports(2), "no second reload report in time");
    REQUIRE_MESSAGE(live.reports.back().success, live.reports.back().describe());
    CHECK(live.reports.back().assembliesBuilt == std::vector<std::string>{"Core", "Leaf"});
    CHECK(live.reports.back().assembliesKept.empty());
    CHECK(fieldOf<std::int64_t>(*live.host, player, "score") >= score + 7);
}

namespace {

/// A plugin: Tween.dll, built elsewhere with the real mcs, whose Ease.Step runs `body`.
std::string tweenPlugin(const TempDir& dir, const std::string& version, const std::string& body) {
    compileScripts(dir, "tween-" + version + ".dll",
                   {{"Ease.cs", "namespace Tween { public static class Ease { public static int "
                                "Step(int x) { " +
                                    body + " } } }"}});
    return readFile(dir / ("tween-" + version + ".dll"));
}

} // namespace

TEST_CASE("Live reload: a plugin .dll in the scripts folder is built against and loaded, a new "
          "one reloads with every value, one that calls what scripts may not is refused") {
    TempDir plugins("live-plugin-builds");
    const std::string mover =
        "public class Mover : UEngine.UMonoScriptComponent { public int pos; public override "
        "void Update(float dt) { pos = Tween.Ease.Step(pos); } }";
    LiveHost live(
        {{"Plugins/Tween.dll", tweenPlugin(plugins, "v1", "return x + 1;")}, {"Mover.cs", mover}});
    REQUIRE(live.host->domain()->findScriptClass("Mover") != nullptr);
    const ObjectId script = spawnScript(*live.host, "Mover");
    REQUIRE(live.host->setField(script, "pos", std::int64_t{41}));
    live.frame();
    CHECK(fieldOf<std::int64_t>(*live.host, script, "pos") == 42);

    // A new build of the plugin copied over it: the scripts are rebuilt against it and reloaded.
    writeFile(live.dir / "scripts/Plugins/Tween.dll",
              tweenPlugin(plugins, "v2", "return x + 100;"));
    REQUIRE_MESSAGE(live.runUntilReports(1), "no reload report in time");
    REQUIRE_MESSAGE(live.reports.back().success, live.reports.back().describe());
    CHECK(live.reports.back().assembliesBuilt == std::vector<std::string>{"Scripts"});
    const std::int64_t pos = fieldOf<std::int64_t>(*live.host, script, "pos");
    CHECK(pos >= 42);
    live.frame();
    CHECK(fieldOf<std::int64_t>(*live.host, script, "pos") == pos + 100);

    // A plugin is checked as a script is: this one would end the host.
    writeFile(live.dir / "scripts/Plugins/Tween.dll",
              tweenPlugin(plugins, "v3", "System.Environment.Exit(3); return x;"));
    REQUIRE_MESSAGE(live.runUntilReports(2), "no second reload report in time");
    const ReloadReport& refused = live.reports.back();
    CHECK_FALSE(refused.success);
    CHECK_MESSAGE(refused.describe().find("Tween.dll was not loaded") != std::string::npos,
                  refused.describe());
    CHECK_MESSAGE(refused.describe().find("System.Environment.Exit") != std::string::npos,
                  refused.describe());
    const std::int64_t kept = fieldOf<std::int64_t>(*live.host, script, "pos");
    live.frame(); // the last good code still runs
    CHECK(fieldOf<std::int64_t>(*live.host, script, "pos") == kept + 100);
}

TEST_CASE("Live reload: a plugin whose .meta is for the Editor only is not loaded, and a .meta "
          "that enables it for every platform is a reload that loads it") {
    TempDir plugins("live-plugin-editor-only");
    // An editor tool: it would end the host, so the check refuses it whenever it is loaded.
    compileScripts(plugins, "tools.dll",
                   {{"Menu.cs", "namespace Tools { public static class Menu { public static void "
                                "Quit() { System.Environment.Exit(3); } } }"}});
    auto platformData = [](const std::string& first) {
        return "fileFormatVersion: 2\nPluginImporter:\n  platformData:\n  - first:\n      " +
               first + "\n    second:\n      enabled: 1\n      settings: {}\n";
    };
    const std::string mover =
        "public class Mover : UEngine.UMonoScriptComponent { public int pos; public override "
        "void Update(float dt) { pos += 1; } }";
    LiveHost live({{"Plugins/Tools.dll", readFile(plugins / "tools.dll")},
                   {"Plugins/Tools.dll.meta", platformData("Editor: Editor")},
                   {"Mover.cs", mover}});
    const ObjectId script = spawnScript(*live.host, "Mover");
    live.frame();
    CHECK(fieldOf<std::int64_t>(*live.host, script, "pos") == 1);

    writeFile(live.dir / "scripts/Plugins/Tools.dll.meta", platformData(": Any"));
    REQUIRE_MESSAGE(live.runUntilReports(1), "no reload report in time");
    const ReloadReport& loaded = live.reports.back();
    CHECK_FALSE(loaded.success);
    CHECK_MESSAGE(loaded.describe().find("Tools.dll was not loaded") != std::string::npos,
                  loaded.describe());

    // For the Editor only again: the same scripts reload without it, their values kept.
    writeFile(live.dir / "scripts/Plugins/Tools.dll.meta", platformData("Editor: Editor"));
    REQUIRE_MESSAGE(live.runUntilReports(2), "no second reload report in time");
    REQUIRE_MESSAGE(live.reports.back().success, live.reports.back().describe());
    const std::int64_t pos = fieldOf<std::int64_t>(*live.host, script, "pos");
    CHECK(pos >= 1);
    live.frame();
    CHECK(fieldOf<std::int64_t>(*live.host, script, "pos") == pos + 1);
}
