// ScriptHost::reload: the transactional swap and schema evolution, with real mcs builds.
#include "../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

std::string mover(const std::string& updateBody, const std::string& extra = "") {
    return "using UEngine;\nusing System.Collections.Generic;\n"
           "public class Mover : UMonoScriptComponent {\n"
           "  [SerializeField] public float speed = 1f;\n"
           "  [SerializeField] int ticks;\n"
           "  [SerializeField] string label = \"mover\";\n"
           "  [SerializeField] UEntity target;\n"
           "  [SerializeField] Helper helper;\n"
           "  [SerializeField] List<int> history = new List<int>();\n"
           "  [SerializeField] bool initialized;\n"
           "  public override void Initialize() { initialized = true; }\n"
           "  public override void Update(float dt) { " +
           updateBody + " }\n" + extra +
           "}\n"
           "public class Helper : UMonoScriptComponent { [SerializeField] public int value = 7; "
           "}\n";
}

} // namespace

TEST_CASE("Reload: a changed method body runs, fields and references keep their values") {
    TempDir dir("reload-body");
    auto v1 =
        compileScripts(dir, "gen1.dll", {{"Mover.cs", mover("ticks += 1; history.Add(ticks);")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Mover.cs", mover("ticks += 100;")}});
    auto host = makeHostFrom(v1);
    const ObjectId target = host->world().createEntity("Target");
    const ObjectId m =
        spawnScript(*host, "Mover", json{{"speed", 2.5}, {"target", {{"id", target.packed()}}}});
    const ObjectId helper = spawnScript(*host, "Helper");
    REQUIRE(host->setField(m, "helper", ObjectRef{helper}));
    REQUIRE(host->setField(helper, "value", std::int64_t{42}));
    for (int i = 0; i < 3; ++i)
        host->tick(0.016);
    REQUIRE(host->setField(m, "label", std::string("changed at run time")));
    const std::size_t handles = ScriptDomain::liveGcHandles();

    const ReloadReport report = reloadOk(*host, v2);
    CHECK(report.fromGeneration == 1);
    CHECK(report.toGeneration == 2);
    CHECK(report.restored == 2);
    CHECK(report.fields.empty()); // nothing but plain restores
    CHECK(host->domain()->generation() == 2);
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    CHECK(ScriptDomain::takeUnloadFailures().empty());
    CHECK(ScriptDomain::liveDomains() == 1);
    CHECK(ScriptDomain::liveGcHandles() == handles);

    CHECK(fieldOf<float>(*host, m, "speed") == 2.5f);
    CHECK(fieldOf<std::int64_t>(*host, m, "ticks") == 3);
    CHECK(fieldOf<std::string>(*host, m, "label") == "changed at run time");
    CHECK(fieldOf<ObjectRef>(*host, m, "target").id == target);
    CHECK(fieldOf<ObjectRef>(*host, m, "helper").id == helper);
    CHECK(fieldOf<std::int64_t>(*host, helper, "value") == 42);
    CHECK(fieldOf<ValueList>(*host, m, "history").size() == 3);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, m, "ticks") == 103); // the new code
    CHECK(host->scriptFailureCount() == 0);
}

TEST_CASE("Reload: Initialize does not run again for restored instances") {
    TempDir dir("reload-init");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Mover.cs", mover("")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Mover.cs", mover("ticks++;")}});
    auto host = makeHostFrom(v1);
    const ObjectId m = spawnScript(*host, "Mover");
    REQUIRE(host->setField(m, "initialized", false)); // would turn true if Initialize re-ran
    reloadOk(*host, v2);
    CHECK(fieldOf<bool>(*host, m, "initialized") == false);
}

TEST_CASE("Reload: a removed class parks its slot, and its values return with the class") {
    TempDir dir("reload-park");
    const std::string keeper = "using UEngine;\npublic class Keeper : UMonoScriptComponent { "
                               "[SerializeField] public UEntity friend; }\n";
    const std::string gone =
        "using UEngine;\npublic class Gone : UMonoScriptComponent { [SerializeField] int secret;\n"
        "  [SerializeField] bool initialized; public override void Initialize() { initialized = "
        "true; } }\n";
    auto v1 = compileScripts(dir, "gen1.dll", {{"Keeper.cs", keeper}, {"Gone.cs", gone}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Keeper.cs", keeper}});
    auto v3 = compileScripts(dir, "gen3.dll", {{"Keeper.cs", keeper}, {"Gone.cs", gone}});
    auto host = makeHostFrom(v1);
    const ObjectId g = spawnScript(*host, "Gone", json{{"secret", 1234}});
    REQUIRE(host->setField(g, "initialized", false));
    const ObjectId entity = host->world().script(g)->entity;

    const ReloadReport parked = reloadOk(*host, v2);
    CHECK(parked.parked == 1);
    REQUIRE(parked.missingClasses.size() == 1);
    CHECK(parked.missingClasses[0].find("no script class named Gone") != std::string::npos);
    REQUIRE(host->world().script(g) != nullptr); // the slot stays on its entity
    CHECK(host->world().script(g)->parked);
    CHECK(host->world().entity(entity)->scripts == std::vector<ObjectId>{g});
    CHECK(host->parkedScript(g) != nullptr);
    CHECK_FALSE(host->getField(g, "secret")); // no instance while parked
    host->tick(0.016);                        // ticks on regardless

    const ReloadReport back = reloadOk(*host, v3);
    CHECK(back.created == 1);
    CHECK(back.parked == 0);
    CHECK_FALSE(host->world().script(g)->parked);
    CHECK(fieldOf<std::int64_t>(*host, g, "secret") == 1234);
    CHECK(fieldOf<bool>(*host, g, "initialized")); // a revived instance is initialised
    CHECK(host->parkedScript(g) == nullptr);
}

TEST_CASE("Reload: a class that no longer derives from the script base is parked and reported") {
    TempDir dir("reload-base");
    auto v1 = compileScripts(
        dir, "gen1.dll",
        {{"P.cs",
          "using UEngine;\npublic class P : UMonoScriptComponent { [SerializeField] int x; }\n"}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"P.cs", "public class P { int x; }\n"}});
    auto host = makeHostFrom(v1);
    const ObjectId p = spawnScript(*host, "P", json{{"x", 5}});
    const ReloadReport report = reloadOk(*host, v2);
    CHECK(report.parked == 1);
    CHECK(report.missingClasses.at(0).find("does not derive from UEngine.UMonoScriptComponent") !=
          std::string::npos);
    CHECK(host->world().script(p)->parked);
}

TEST_CASE("Reload: a constructor that throws rolls back and the old generation keeps ticking") {
    TempDir dir("reload-ctor");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Mover.cs", mover("ticks++;")}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Mover.cs", mover("ticks += 1000;",
                            "  public Mover() { throw new System.Exception(\"bad ctor\"); }\n")}});
    auto host = makeHostFrom(v1);
    const ObjectId m = spawnScript(*host, "Mover");
    host->tick(0.016);
    const std::size_t handles = ScriptDomain::liveGcHandles();
    const ReloadReport report = reloadNow(*host, v2, {"Mover.cs"});
    CHECK_FALSE(report.success);
    CHECK(report.failedPhase == "instantiate");
    REQUIRE_FALSE(report.errors.empty());
    CHECK(report.errors[0].find("bad ctor") != std::string::npos);
    CHECK(host->domain()->generation() == 1);
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    CHECK(ScriptDomain::takeUnloadFailures().empty());
    CHECK(ScriptDomain::liveDomains() == 1);
    CHECK(ScriptDomain::liveGcHandles() == handles);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, m, "ticks") == 2); // old code, still ticking
}

TEST_CASE("Reload: OnAfterReload runs, and when it throws the reload rolls back") {
    TempDir dir("reload-hook");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Mover.cs", mover("ticks++;")}});
    auto ok = compileScripts(
        dir, "gen2.dll",
        {{"Mover.cs",
          mover("ticks++;",
                "  public override void OnAfterReload() { label = \"reloaded \" + ticks; }\n")}});
    auto bad = compileScripts(
        dir, "gen3.dll",
        {{"Mover.cs",
          mover("ticks += 50;", "  public override void OnAfterReload() { throw new "
                                "System.InvalidOperationException(\"hook says no\"); }\n")}});
    auto host = makeHostFrom(v1);
    const ObjectId m = spawnScript(*host, "Mover");
    host->tick(0.016);
    reloadOk(*host, ok);
    CHECK(fieldOf<std::string>(*host, m, "label") == "reloaded 1");
    const ReloadReport report = reloadNow(*host, bad, {});
    CHECK_FALSE(report.success);
    CHECK(report.failedPhase == "hooks");
    CHECK(report.errors.at(0).find("hook says no") != std::string::npos);
    CHECK(host->domain()->generation() == 2);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, m, "ticks") == 2); // generation 2's code
}

TEST_CASE("Reload: a scripts assembly that is not valid is a failed load, nothing changes") {
    TempDir dir("reload-garbage");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Mover.cs", mover("ticks++;")}});
    auto host = makeHostFrom(v1);
    const ObjectId m = spawnScript(*host, "Mover");
    AssemblyFile garbage = v1;
    garbage.image.assign(4096, '\x42');
    const ReloadReport report = reloadNow(*host, garbage, {});
    CHECK_FALSE(report.success);
    CHECK(report.failedPhase == "load");
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, m, "ticks") == 1);
}

TEST_CASE("Reload: a disabled script gets a fresh chance with new code") {
    TempDir dir("reload-reenable");
    auto v1 = compileScripts(dir, "gen1.dll",
                             {{"Mover.cs", mover("throw new System.Exception(\"broken\");")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Mover.cs", mover("ticks++;")}});
    auto host = makeHostFrom(v1, /*disableAfterFailures*/ 2);
    const ObjectId m = spawnScript(*host, "Mover");
    for (int i = 0; i < 5; ++i)
        host->tick(0.016);
    REQUIRE_FALSE(host->world().script(m)->enabled);
    const ReloadReport report = reloadOk(*host, v2);
    CHECK(report.reenabled == 1);
    host->tick(0.016);
    CHECK(host->world().script(m)->enabled);
    CHECK(fieldOf<std::int64_t>(*host, m, "ticks") == 1);
}

TEST_CASE("Reload: 200 reloads in a row leave no handles or domains behind, RSS growth printed") {
    TempDir dir("reload-200");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Mover.cs", mover("ticks++;")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Mover.cs", mover("ticks += 2;")}});
    auto host = makeHostFrom(v1);
    const ObjectId target = host->world().createEntity("Target");
    std::vector<ObjectId> movers;
    for (int i = 0; i < 20; ++i) {
        movers.push_back(spawnScript(*host, "Mover", json{{"target", {{"id", target.packed()}}}}));
    }
    for (int i = 0; i < 10; ++i)
        reloadOk(*host, i % 2 ? v1 : v2); // warm-up
    ScriptDomain::collectGarbage();
    const std::size_t handles = ScriptDomain::liveGcHandles();
    const long rssBefore = residentKiB();
    for (int i = 0; i < 200; ++i) {
        reloadOk(*host, i % 2 ? v1 : v2);
        host->tick(0.016);
    }
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    CHECK(ScriptDomain::takeUnloadFailures().empty());
    ScriptDomain::collectGarbage();
    const long rssAfter = residentKiB();
    CHECK(ScriptDomain::liveDomains() == 1);
    CHECK(ScriptDomain::liveGcHandles() <= handles + 2); // a proxy or two may be alive mid-frame
    CHECK(fieldOf<ObjectRef>(*host, movers.back(), "target").id == target);
    std::printf("RSS growth over 200 reloads (20 scripts): %ld KiB (%.1f KiB per reload)\n",
                rssAfter - rssBefore, (rssAfter - rssBefore) / 200.0);
    CHECK(rssAfter - rssBefore < 200 * 512);
}
