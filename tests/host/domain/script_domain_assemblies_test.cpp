// Scripts in several assemblies (assemblies by folder): a generation loads them in dependency
// order, a script of one refers to another's classes, a class moved from one assembly to
// another keeps its values across a reload, and one class name in two assemblies is refused.
// Real mcs builds, the real runtime.
#include "../support/core_and_leaf_scripts.hpp"

using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("ScriptDomain: scripts in two assemblies load in dependency order, call across them, "
          "refer to each other's scripts, and each class names its assembly") {
    TempDir dir("assemblies-load");
    const std::vector<AssemblyFile> scripts = coreAndLeaf(dir, "a");
    auto owned = makeHostFrom(scripts);
    ScriptHost& host = *owned;

    const ObjectId health = spawnScript(host, "Game.Health");
    const ObjectId player = spawnScript(host, "Game.Player");
    REQUIRE(host.setField(player, "target", ObjectRef{health}));
    host.tick(1.0 / 60);
    host.tick(1.0 / 60);
    CHECK(fieldOf<std::int64_t>(host, player, "score") ==
          4); // Rules.Twice, from the other assembly
    CHECK(fieldOf<std::int64_t>(host, health, "hp") ==
          8); // through the reference across assemblies
    CHECK(host.scriptClassOf(health)->assembly == "Core.dll");
    CHECK(host.scriptClassOf(player)->assembly == "Leaf.dll");
    const std::string missing = host.domain()->explainMissingClass("Game.Nobody");
    CHECK(missing.find("Core.dll, Leaf.dll") != std::string::npos);
}

TEST_CASE("ScriptDomain: a class moved from one assembly to another keeps its values and the "
          "references to it across a reload") {
    TempDir dir("assemblies-move");
    auto host = makeHostFrom(coreAndLeaf(dir, "before"));
    const ObjectId health = spawnScript(*host, "Game.Health");
    const ObjectId player = spawnScript(*host, "Game.Player");
    REQUIRE(host->setField(health, "hp", std::int64_t{42}));
    REQUIRE(host->setField(player, "target", ObjectRef{health}));

    // Health and Rules move into Leaf, beside Player; Core keeps a class of its own.
    std::filesystem::create_directories(dir / "after");
    AssemblyFile core =
        compileScripts(dir, "after/Core.dll",
                       {{"Other.cs", "public class Other : UEngine.UMonoScriptComponent {}"}});
    AssemblyFile leaf =
        compileScripts(dir, "after/Leaf.dll",
                       {{"Player.cs", kLeafPlayer}, {"Health.cs", kCoreHealth}}, {core.path});
    std::vector<AssemblyFile> moved;
    moved.push_back(std::move(core));
    moved.push_back(std::move(leaf));
    ReloadTransaction reload(*host, std::move(moved), {"test"});
    while (!reload.done())
        reload.step(std::chrono::microseconds(2000));
    const ReloadReport report = reload.takeReport();
    REQUIRE_MESSAGE(report.success, report.describe());
    CHECK(fieldOf<std::int64_t>(*host, health, "hp") == 42);
    CHECK(host->scriptClassOf(health)->assembly == "Leaf.dll");
    auto target = host->getField(player, "target");
    REQUIRE(target);
    CHECK(std::get<ObjectRef>(*target).id == health);
    host->tick(1.0 / 60);
    CHECK(fieldOf<std::int64_t>(*host, health, "hp") == 41);
}

TEST_CASE("ScriptDomain: one script class name in two assemblies is refused, naming both") {
    TempDir dir("assemblies-clash");
    AssemblyFile core = compileScripts(dir, "Core.dll", {{"Health.cs", kCoreHealth}});
    AssemblyFile copy = compileScripts(dir, "Copy.dll", {{"Health.cs", kCoreHealth}});
    const std::vector<AssemblyFile> scripts{core, copy};
    auto created = makeEmptyHost();
    auto loaded = created->loadScripts(scripts);
    REQUIRE_FALSE(loaded);
    const std::string& message = loaded.error().message;
    const bool namesBoth =
        message.find("Game.Health is in both Copy.dll and Core.dll") != std::string::npos ||
        message.find("Game.Health is in both Core.dll and Copy.dll") != std::string::npos;
    CHECK_MESSAGE(namesBoth, message);
    CHECK_FALSE(created->domain()); // nothing loaded: the host can load again
}

TEST_CASE("ScriptDomain: a class is found by its full name, or by a short name only one class "
          "of all the assemblies has") {
    TempDir dir("assemblies-names");
    AssemblyFile core = compileScripts(dir, "Core.dll", {{"Health.cs", kCoreHealth}});
    AssemblyFile other = compileScripts(
        dir, "Other.dll",
        {{"Other.cs", "namespace Other { public class Health : UEngine.UMonoScriptComponent {} "
                      "public class Solo : UEngine.UMonoScriptComponent { public class Inner : "
                      "UEngine.UMonoScriptComponent {} } }"}});
    const std::vector<AssemblyFile> scripts{core, other};
    auto created = makeHostFrom(scripts);
    const ScriptDomain& domain = *created->domain();
    REQUIRE(domain.findScriptClass("Game.Health") != nullptr);
    CHECK(domain.findScriptClass("Game.Health")->assembly == "Core.dll");
    CHECK(domain.findScriptClass("Other.Health")->assembly == "Other.dll");
    CHECK(domain.findScriptClass("Health") == nullptr); // two classes have it
    REQUIRE(domain.findScriptClass("Solo") != nullptr);
    CHECK(domain.findScriptClass("Solo")->name == "Other.Solo");
    REQUIRE(domain.findScriptClass("Inner") != nullptr); // a nested class's short name
    CHECK(domain.findScriptClass("Inner")->name == "Other.Solo+Inner");
    CHECK(domain.findScriptClass("Nobody") == nullptr);
}
