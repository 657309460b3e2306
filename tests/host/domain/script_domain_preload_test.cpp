// ScriptDomain::preload: assemblies a reload will reuse, loaded and JIT-compiled ahead into the
// domain made for it. The reload loads only the others into it; a domain holding an assembly the
// build replaced does not fit, and the reload makes a fresh one. Real mcs builds, the real
// runtime.
#include "../support/core_and_leaf_scripts.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

/// A domain made ahead for `host`'s next reload with `ahead` loaded into it (every step run).
std::unique_ptr<ScriptDomain> preparedWith(ScriptHost& host, std::vector<AssemblyFile> ahead) {
    auto prepared =
        ScriptDomain::prepare(host.peekGenerationNumber(), host.scriptCore(), host.world());
    REQUIRE_MESSAGE(prepared, (prepared ? "" : prepared.error().message));
    (*prepared)->preload(std::move(ahead));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
        auto done = (*prepared)->preloadStep(std::chrono::microseconds(500));
        REQUIRE_MESSAGE(done, (done ? "" : done.error().message));
        if (*done)
            break;
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        (void)(*prepared)->waitForBackgroundWarm(std::chrono::steady_clock::now() +
                                                 std::chrono::milliseconds(5));
    }
    return std::move(*prepared);
}

ReloadReport reloadWith(ScriptHost& host, std::vector<AssemblyFile> scripts,
                        std::unique_ptr<ScriptDomain> prepared) {
    ReloadTransaction reload(host, std::move(scripts), {"test"});
    reload.usePreparedDomain(std::move(prepared));
    return reload.runToEnd();
}

} // namespace

TEST_CASE(
    "ScriptDomain::preload: a reused assembly loaded ahead is not loaded again, and the reload "
    "loads the rebuilt one beside it and carries values and references across both") {
    TempDir dir("preload-fits");
    const std::vector<AssemblyFile> before = coreAndLeaf(dir, "a");
    auto host = makeHostFrom(before);
    const ObjectId health = spawnScript(*host, "Game.Health");
    const ObjectId player = spawnScript(*host, "Game.Player");
    REQUIRE(host->setField(health, "hp", std::int64_t{42}));
    REQUIRE(host->setField(player, "target", ObjectRef{health}));

    std::unique_ptr<ScriptDomain> prepared = preparedWith(*host, {before[0]});
    CHECK(prepared->preloadedAssemblies() == std::vector<std::string>{"Core.dll"});
    CHECK_FALSE(prepared->scriptsLoaded());
    std::vector<AssemblyFile> after = coreAndLeaf(dir, "b", &before[0]); // Leaf rebuilt only
    CHECK(prepared->fits(after));

    const ReloadReport report = reloadWith(*host, std::move(after), std::move(prepared));
    REQUIRE_MESSAGE(report.success, report.describe());
    CHECK(report.preparedDomain);
    CHECK(report.assembliesLoadedAhead == std::vector<std::string>{"Core.dll"});
    CHECK(host->scriptClassOf(health)->assembly == "Core.dll");
    CHECK(host->scriptClassOf(player)->assembly == "Leaf.dll");
    CHECK(fieldOf<std::int64_t>(*host, health, "hp") == 42);
    host->tick(1.0 / 60);
    CHECK(fieldOf<std::int64_t>(*host, health, "hp") ==
          41); // through the reference, across assemblies
    CHECK(fieldOf<std::int64_t>(*host, player, "score") == 2);
}

TEST_CASE("ScriptDomain::preload: a domain holding an assembly the build replaced does not fit, so "
          "the reload makes a fresh domain and succeeds") {
    TempDir dir("preload-stale");
    const std::vector<AssemblyFile> before = coreAndLeaf(dir, "a");
    auto host = makeHostFrom(before);
    const ObjectId health = spawnScript(*host, "Game.Health");
    REQUIRE(host->setField(health, "hp", std::int64_t{7}));

    std::unique_ptr<ScriptDomain> prepared = preparedWith(*host, {before[0], before[1]});
    // Core rebuilt with a change: other bytes. (mcs writes the same bytes for the same
    // sources: a rebuild without a change would fit.)
    std::filesystem::create_directories(dir / "b");
    std::string changed = kCoreHealth;
    changed.replace(changed.find("hp = 10"), 7, "hp = 11");
    AssemblyFile core = compileScripts(dir, "b/Core.dll", {{"Health.cs", changed}});
    std::vector<AssemblyFile> after = coreAndLeaf(dir, "b", &core);
    CHECK_FALSE(prepared->fits(after));

    const ReloadReport report = reloadWith(*host, std::move(after), std::move(prepared));
    REQUIRE_MESSAGE(report.success, report.describe());
    CHECK_FALSE(report.preparedDomain);
    CHECK(report.assembliesLoadedAhead.empty());
    CHECK(fieldOf<std::int64_t>(*host, health, "hp") == 7);
}

TEST_CASE("ScriptDomain::preload: an assembly that calls what scripts may not is refused ahead, "
          "naming the call") {
    TempDir dir("preload-forbidden");
    const std::vector<AssemblyFile> before = coreAndLeaf(dir, "a");
    auto host = makeHostFrom(before);
    AssemblyFile quitter = compileScripts(
        dir, "Quit.dll",
        {{"Quit.cs", "public class Quit : UEngine.UMonoScriptComponent { public override void "
                     "Update(float dt) { System.Environment.Exit(3); } }"}});
    auto prepared =
        ScriptDomain::prepare(host->peekGenerationNumber(), host->scriptCore(), host->world());
    REQUIRE(prepared);
    (*prepared)->preload({quitter});
    auto step = (*prepared)->preloadStep(std::chrono::seconds(10));
    REQUIRE_FALSE(step);
    CHECK(step.error().message.find("Quit.dll was not loaded") != std::string::npos);
    CHECK(step.error().message.find("Environment.Exit") != std::string::npos);
    CHECK((*prepared)->preloadedAssemblies().empty());
}
