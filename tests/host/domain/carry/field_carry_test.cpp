// Field carry: a value moved to the next generation's field of another declaration — a field
// renamed with [FormerlySerializedAs], a number whose type changed (only when it fits exactly),
// an enum mapped by member name. Real mcs builds, the real runtime.
#include "../../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

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
