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

TEST_CASE("Reload: [FormerlySerializedAs] restores a renamed field") {
    TempDir dir("reload-rename");
    auto v1 = compileScripts(dir, "gen1.dll",
                             {{"A.cs", "using UEngine;\npublic class A : UMonoScriptComponent {\n"
                                       "  [SerializeField] int hp = 10; }\n"}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"A.cs", "using UEngine;\npublic class A : UMonoScriptComponent {\n"
                  "  [SerializeField, FormerlySerializedAs(\"hp\")] int health = 10; }\n"}});
    auto host = makeHostFrom(v1);
    const ObjectId a = spawnScript(*host, "A", json{{"hp", 77}});
    const ReloadReport report = reloadOk(*host, v2);
    CHECK(fieldOf<std::int64_t>(*host, a, "health") == 77);
    const FieldOutcome* renamed = outcomeOf(report, "health");
    REQUIRE(renamed != nullptr);
    CHECK(renamed->kind == FieldOutcome::Kind::Renamed);
    CHECK(renamed->detail == "from hp");
}

TEST_CASE("Reload: int to float and float to int convert only when the value fits exactly") {
    TempDir dir("reload-types");
    auto v1 = compileScripts(dir, "gen1.dll",
                             {{"T.cs", "using UEngine;\npublic class T : UMonoScriptComponent {\n"
                                       "  [SerializeField] int count; [SerializeField] float "
                                       "whole; [SerializeField] float fraction;\n"
                                       "  [SerializeField] long big; }\n"}});
    auto v2 = compileScripts(dir, "gen2.dll",
                             {{"T.cs", "using UEngine;\npublic class T : UMonoScriptComponent {\n"
                                       "  [SerializeField] float count; [SerializeField] int "
                                       "whole; [SerializeField] int fraction = -1;\n"
                                       "  [SerializeField] byte big = 9; }\n"}});
    auto v3 = compileScripts(dir, "gen3.dll",
                             {{"T.cs", "using UEngine;\npublic class T : UMonoScriptComponent {\n"
                                       "  [SerializeField] float count; [SerializeField] int "
                                       "whole; [SerializeField] float fraction;\n"
                                       "  [SerializeField] long big; }\n"}});
    auto host = makeHostFrom(v1);
    const ObjectId t = spawnScript(
        *host, "T", json{{"count", 3}, {"whole", 4.0}, {"fraction", 2.5}, {"big", 300}});
    const ReloadReport report = reloadOk(*host, v2);
    CHECK(fieldOf<float>(*host, t, "count") == 3.0f);
    CHECK(fieldOf<std::int64_t>(*host, t, "whole") == 4);
    CHECK(fieldOf<std::int64_t>(*host, t, "fraction") == -1); // 2.5 does not fit: default kept
    CHECK(fieldOf<std::uint64_t>(*host, t, "big") == 9);      // 300 does not fit a byte
    CHECK(outcomeOf(report, "count")->kind == FieldOutcome::Kind::Converted);
    CHECK(outcomeOf(report, "whole")->kind == FieldOutcome::Kind::Converted);
    CHECK(outcomeOf(report, "fraction")->kind == FieldOutcome::Kind::Kept);
    CHECK(outcomeOf(report, "big")->kind == FieldOutcome::Kind::Kept);
    // The values that did not fit are parked, and come back when the type does.
    REQUIRE(host->parkedFields(t) != nullptr);
    CHECK(host->parkedFields(t)->size() == 2);
    const ReloadReport back = reloadOk(*host, v3);
    CHECK(fieldOf<float>(*host, t, "fraction") == 2.5f);
    CHECK(fieldOf<std::int64_t>(*host, t, "big") == 300);
    CHECK(outcomeOf(back, "fraction")->kind == FieldOutcome::Kind::Unparked);
    CHECK(host->parkedFields(t) == nullptr);
}

TEST_CASE("Reload: enums map by member name, a removed member keeps the default") {
    TempDir dir("reload-enum");
    auto v1 = compileScripts(
        dir, "gen1.dll",
        {{"E.cs", "using UEngine;\npublic enum Mood { Calm, Happy, Sad }\n"
                  "public class E : UMonoScriptComponent { [SerializeField] Mood a; "
                  "[SerializeField] Mood b;\n"
                  "  [SerializeField] Mood c; [SerializeField] string d = \"Sad\"; }\n"}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"E.cs", "using UEngine;\npublic enum Mood { Joyful = 10, Happy = 20, Calm = 30 }\n"
                  "public class E : UMonoScriptComponent { [SerializeField] Mood a; "
                  "[SerializeField] Mood b = Mood.Joyful;\n"
                  "  [SerializeField] string c; [SerializeField] Mood d; }\n"}});
    auto host = makeHostFrom(v1);
    const ObjectId e =
        spawnScript(*host, "E", json{{"a", "Happy"}, {"b", "Sad"}, {"c", "Calm"}, {"d", "Calm"}});
    const ReloadReport report = reloadOk(*host, v2);
    CHECK(fieldOf<std::int64_t>(*host, e, "a") == 20); // Happy by name, new number
    CHECK(fieldOf<std::int64_t>(*host, e, "b") == 10); // Sad is gone: default Joyful
    CHECK(outcomeOf(report, "b")->kind == FieldOutcome::Kind::Kept);
    CHECK(fieldOf<std::string>(*host, e, "c") == "Calm"); // enum -> string: the name
    CHECK(fieldOf<std::int64_t>(*host, e, "d") == 30);    // string -> enum: by name
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

TEST_CASE("Reload: static fields reset unless [PreserveStatic]") {
    TempDir dir("reload-static");
    const std::string src =
        "using UEngine;\npublic class S : UMonoScriptComponent {\n"
        "  public static int plain = 1; [PreserveStatic] public static int kept = 1;\n"
        "  [PreserveStatic] static string name = \"start\";\n"
        "  [SerializeField] int seenPlain; [SerializeField] int seenKept; [SerializeField] string "
        "seenName;\n"
        "  public override void Update(float dt) { plain++; kept++; name += \"+\"; seenPlain = "
        "plain; seenKept = kept; seenName = name; } }\n";
    auto v1 = compileScripts(dir, "gen1.dll", {{"S.cs", src}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"S.cs", src + "// v2\n"}});
    auto host = makeHostFrom(v1);
    const ObjectId s = spawnScript(*host, "S");
    for (int i = 0; i < 3; ++i)
        host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, s, "seenKept") == 4);
    reloadOk(*host, v2);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, s, "seenPlain") == 2); // reset to 1, then ++
    CHECK(fieldOf<std::int64_t>(*host, s, "seenKept") == 5);  // carried
    CHECK(fieldOf<std::string>(*host, s, "seenName") == "start++++");
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

namespace {

// A class whose fields stay the same across the reload (so it is carried directly from
// its old instance into its new one), plus `extra` in the second generation.
std::string carried(const std::string& updateBody, bool withExtra) {
    return std::string("using UEngine;\nusing System.Collections.Generic;\n"
                       "public enum Mood : byte { Calm, Angry }\n"
                       "[System.Serializable] public struct Pt { public int x; public float y; }\n"
                       "public class Carried : UMonoScriptComponent {\n"
                       "  [SerializeField] float f;\n"
                       "  [SerializeField] long big;\n"
                       "  [SerializeField] string text;\n"
                       "  [SerializeField] UEntity target;\n"
                       "  [SerializeField] UEntity gone;\n"
                       "  [SerializeField] UMonoScriptComponent other;\n"
                       "  [SerializeField] int[] nums;\n"
                       "  [SerializeField] List<string> names;\n"
                       "  [SerializeField] Mood mood;\n"
                       "  [SerializeField] Vector3 v;\n"
                       "  [SerializeField] Pt pt;\n"
                       "  [SerializeField] Dictionary<int, int> notCarried = new Dictionary<int, "
                       "int>();\n") +
           (withExtra ? "  [SerializeField] int extra = 5;\n" : "") +
           "  public override void Update(float dt) { " + updateBody +
           " }\n"
           "}\n"
           "public class Other : UMonoScriptComponent { [SerializeField] public int n; }\n";
}

} // namespace

TEST_CASE("Reload: a class whose fields line up carries every value, reports added fields and "
          "cleared references") {
    TempDir dir("reload-direct");
    auto v1 = compileScripts(dir, "gen1.dll", {{"C.cs", carried("f += 1;", false)}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"C.cs", carried("f += 2;", true)}});
    auto host = makeHostFrom(v1);
    const ObjectId target = host->world().createEntity("Target");
    const ObjectId doomed = host->world().createEntity("Doomed");
    const ObjectId other = spawnScript(*host, "Other", json{{"n", 9}});
    const std::string text = "h\xC3\xA9llo \xF0\x9F\x8E\xAE"; // é and a non-BMP character
    const ObjectId c = spawnScript(*host, "Carried",
                                   json{{"f", 1.5},
                                        {"big", -1234567890123LL},
                                        {"text", text},
                                        {"target", {{"id", target.packed()}}},
                                        {"gone", {{"id", doomed.packed()}}},
                                        {"other", {{"id", other.packed()}}},
                                        {"nums", {1, 2, 3}},
                                        {"names", {"a", "b"}},
                                        {"mood", "Angry"},
                                        {"v", {1, 2, 3}},
                                        {"pt", {{"x", 4}, {"y", 0.5}}}});
    REQUIRE(host->destroyEntity(doomed));

    const ReloadReport report = reloadOk(*host, v2);
    CHECK(report.restored == 2);
    CHECK(fieldOf<float>(*host, c, "f") == 1.5f);
    CHECK(fieldOf<std::int64_t>(*host, c, "big") == -1234567890123LL);
    CHECK(fieldOf<std::string>(*host, c, "text") == text);
    CHECK(fieldOf<ObjectRef>(*host, c, "target").id == target);
    CHECK(fieldOf<ObjectRef>(*host, c, "gone").id.isNull());
    CHECK(fieldOf<ObjectRef>(*host, c, "other").id == other);
    CHECK(fieldOf<ValueList>(*host, c, "nums") ==
          ValueList{std::int64_t{1}, std::int64_t{2}, std::int64_t{3}});
    CHECK(fieldOf<ValueList>(*host, c, "names") == ValueList{std::string("a"), std::string("b")});
    CHECK(fieldOf<std::int64_t>(*host, c, "mood") == 1);
    CHECK(fieldOf<glm::vec3>(*host, c, "v") == glm::vec3(1, 2, 3));
    CHECK(fieldOf<ValueList>(*host, c, "pt") == ValueList{std::int64_t{4}, 0.5f});
    CHECK(fieldOf<std::int64_t>(*host, c, "extra") == 5);
    CHECK(fieldOf<std::int64_t>(*host, other, "n") == 9);

    // The same outcomes the snapshot path reports, and nothing else (it reports a field
    // it cannot carry as added, with its constructor default, too).
    REQUIRE(report.fields.size() == 3);
    const FieldOutcome* skipped = outcomeOf(report, "notCarried");
    REQUIRE(skipped != nullptr);
    CHECK(skipped->kind == FieldOutcome::Kind::Added);
    const FieldOutcome* gone = outcomeOf(report, "gone");
    REQUIRE(gone != nullptr);
    CHECK(gone->kind == FieldOutcome::Kind::Cleared);
    CHECK(gone->script == c);
    const FieldOutcome* extra = outcomeOf(report, "extra");
    REQUIRE(extra != nullptr);
    CHECK(extra->kind == FieldOutcome::Kind::Added);
    CHECK(report.fields[0].field == "gone"); // field order
    REQUIRE(report.warnings.size() == 1);
    CHECK(report.warnings[0].find("Carried.notCarried") == 0);

    host->tick(0.016);
    CHECK(fieldOf<float>(*host, c, "f") == 3.5f); // the new code runs on the carried value
}

TEST_CASE("Reload: directly carried and converted classes in one reload keep their references") {
    TempDir dir("reload-mixed");
    const std::string same = "using UEngine;\npublic class Same : UMonoScriptComponent {\n"
                             "  [SerializeField] public UMonoScriptComponent peer;\n"
                             "  [SerializeField] public UMonoScriptComponent lost; }\n";
    const std::string gone = "using UEngine;\npublic class Gone : UMonoScriptComponent {}\n";
    auto v1 = compileScripts(
        dir, "gen1.dll",
        {{"Same.cs", same},
         {"Gone.cs", gone},
         {"Changed.cs", "using UEngine;\npublic class Changed : UMonoScriptComponent {\n"
                        "  [SerializeField] public int hp = 3;\n"
                        "  [SerializeField] public UMonoScriptComponent peer; }\n"}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Same.cs", same},
         {"Changed.cs", "using UEngine;\npublic class Changed : UMonoScriptComponent {\n"
                        "  [SerializeField] public float hp = 3;\n"
                        "  [SerializeField] public UMonoScriptComponent peer; }\n"}});
    auto host = makeHostFrom(v1);
    const ObjectId s = spawnScript(*host, "Same");
    const ObjectId ch = spawnScript(*host, "Changed", json{{"hp", 8}});
    const ObjectId g = spawnScript(*host, "Gone");
    REQUIRE(host->setField(s, "peer", ObjectRef{ch}));
    REQUIRE(host->setField(s, "lost", ObjectRef{g}));
    REQUIRE(host->setField(ch, "peer", ObjectRef{s}));

    const ReloadReport report = reloadOk(*host, v2);
    CHECK(report.restored == 2);
    CHECK(report.parked == 1);
    CHECK(fieldOf<ObjectRef>(*host, s, "peer").id == ch);
    CHECK(fieldOf<ObjectRef>(*host, s, "lost").id.isNull()); // a parked script is no target
    CHECK(fieldOf<ObjectRef>(*host, ch, "peer").id == s);
    CHECK(fieldOf<float>(*host, ch, "hp") == 8.0f);
    const FieldOutcome* lost = outcomeOf(report, "lost");
    REQUIRE(lost != nullptr);
    CHECK(lost->kind == FieldOutcome::Kind::Cleared);
    const FieldOutcome* hp = outcomeOf(report, "hp");
    REQUIRE(hp != nullptr);
    CHECK(hp->kind == FieldOutcome::Kind::Converted);
}
