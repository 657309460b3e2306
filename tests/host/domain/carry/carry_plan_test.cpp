// Carry plans: a class whose fields line up with its next generation's is carried directly,
// value by value, one whose fields changed is converted, and both kinds in one reload keep the
// references between them. Real mcs builds, the real runtime.
#include "../../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

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

TEST_CASE("Reload: a field reloads cannot carry is named once per class, however many scripts of "
          "it are carried directly") {
    TempDir dir("reload-not-carried-once");
    const auto source = [](const std::string& field) {
        return "using UEngine;\nusing System.Collections.Generic;\n"
               "public class " +
               field + "Holder : UMonoScriptComponent {\n  [SerializeField] int n;\n" +
               "  [SerializeField] Dictionary<int, int> " + field +
               " = new Dictionary<int, int>();\n}\n";
    };
    auto v1 =
        compileScripts(dir, "gen1.dll", {{"A.cs", source("first")}, {"B.cs", source("second")}});
    auto v2 =
        compileScripts(dir, "gen2.dll", {{"A.cs", source("first")}, {"B.cs", source("second")}});
    auto host = makeHostFrom(v1);
    for (int i = 0; i < 3; ++i) { // interleaved, so consecutive slots are of different classes
        (void)spawnScript(*host, "firstHolder", json{{"n", i}});
        (void)spawnScript(*host, "secondHolder", json{{"n", i}});
    }

    const ReloadReport report = reloadOk(*host, v2);
    CHECK(report.restored == 6);
    REQUIRE(report.warnings.size() == 2);
    CHECK(report.warnings[0].find("firstHolder.first") == 0);
    CHECK(report.warnings[1].find("secondHolder.second") == 0);
}
