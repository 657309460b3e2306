// [Serializable] structs and classes as field values: marshaling and reloads.
#include "../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

const std::string kTypes = R"(using System; using System.Collections.Generic; using UEngine;
[Serializable] public struct Stats { public int hp; public float speed; public string title; public UEntity target;
  [SerializeField] private int secret; [NonSerialized] public int ignored; public int Secret { get { return secret; } } }
[Serializable] public class Loadout { public List<int> ids = new List<int>(); public Stats inner; public Vector3 offset; }
)";

std::string holder(const std::string& update) {
    return "using System.Collections.Generic; using UEngine;\npublic class Holder : "
           "UMonoScriptComponent {\n"
           "  [SerializeField] Stats stats; [SerializeField] Loadout loadout; [SerializeField] "
           "Stats[] many;\n"
           "  [SerializeField] Loadout nothing; [SerializeField] string seen = \"\";\n"
           "  [SerializeField] Dictionary<string, int> table = new Dictionary<string, int>();\n"
           "  public override void Update(float dt) { " +
           update + " } }\n";
}

const std::string kSummary =
    "seen = stats.hp + \"/\" + stats.speed + \"/\" + stats.title + \"/\" + (stats.target == null ? "
    "\"-\" : stats.target.name)"
    " + \"/\" + stats.Secret + \"|\" + (loadout == null ? \"null\" : loadout.ids.Count + \":\" + "
    "loadout.inner.hp + \":\" + loadout.offset.z)"
    " + \"|\" + (many == null ? -1 : many.Length) + \"|\" + (nothing == null ? \"null\" : "
    "\"set\");";

} // namespace

TEST_CASE(
    "Records: [Serializable] structs and classes round-trip both ways, nested and in arrays") {
    TempDir dir("records");
    auto v1 =
        compileScripts(dir, "gen1.dll", {{"Types.cs", kTypes}, {"Holder.cs", holder(kSummary)}});
    auto host = makeHostFrom(v1);
    const ObjectId target = host->world().createEntity("Target");
    const ObjectId h = spawnScript(
        *host, "Holder",
        json{{"stats",
              {{"hp", 7},
               {"speed", 1.5},
               {"title", "knight"},
               {"target", {{"entity", "Target"}}},
               {"secret", 42}}},
             {"loadout",
              {{"ids", {1, 2, 3}},
               {"inner",
                {{"hp", 9}, {"speed", 0}, {"title", "inner"}, {"target", nullptr}, {"secret", 0}}},
               {"offset", {0, 0, -4}}}},
             {"nothing", nullptr}});
    const ScriptClassInfo* info = host->domain()->findScriptClass("Holder");
    REQUIRE(info != nullptr);
    const FieldType& stats = info->fields.at(0).type;
    REQUIRE(stats.kind == ValueKind::Record);
    CHECK_FALSE(stats.recordIsClass);
    std::vector<std::string> members;
    for (const MemberType& m : stats.members)
        members.push_back(m.name);
    CHECK(members ==
          std::vector<std::string>{"hp", "speed", "title", "target", "secret"}); // no "ignored"
    CHECK(info->fields.at(1).type.recordIsClass);
    CHECK(info->fields.at(2).type.kind == ValueKind::Array);
    CHECK(info->fields.at(5).type.kind ==
          ValueKind::Unsupported); // Dictionary: not carried, said so

    // C++ → C#: managed code sees what the host wrote.
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, h, "seen") == "7/1.5/knight/Target/42|3:9:-4|-1|null");
    // C# → C++ and back: the host reads records as member lists.
    const ValueList read = fieldOf<ValueList>(*host, h, "stats");
    REQUIRE(read.size() == 5);
    CHECK(read[0] == Value{std::int64_t{7}});
    CHECK(read[2] == Value{std::string("knight")});
    CHECK(read[3] == Value{ObjectRef{target}});
    CHECK(fieldOf<ValueList>(*host, h, "nothing").empty()); // null class instance
    ValueList many{read, read};
    std::get<ValueList>(many[1])[0] = std::int64_t{8};
    REQUIRE(host->setField(h, "many", many));
    host->tick(0.016);
    CHECK(fieldOf<std::string>(*host, h, "seen").ends_with("|2|null"));
    CHECK(fieldOf<ValueList>(*host, h, "many") == many);
    // Bad shapes are errors.
    CHECK_FALSE(host->setField(h, "stats", ValueList{std::int64_t{1}}));
    CHECK_FALSE(host->setField(h, "stats", ValueList{}));
}

TEST_CASE(
    "Records: values survive a reload, a changed record is converted member by member, a removed "
    "member parked") {
    TempDir dir("records-reload");
    const std::string changed = R"(using System; using System.Collections.Generic; using UEngine;
[Serializable] public struct Stats { public long hp; public float speed; public string title; public UEntity target;
  [SerializeField] private int secret; public int Secret { get { return secret; } } }
[Serializable] public class Loadout { public List<int> ids = new List<int>(); public Vector3 offset; }
)";
    auto v1 =
        compileScripts(dir, "gen1.dll", {{"Types.cs", kTypes}, {"Holder.cs", holder(kSummary)}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Types.cs", changed}, {"Holder.cs", holder("")}});
    auto host = makeHostFrom(v1);
    host->world().createEntity("Target");
    const ObjectId h = spawnScript(
        *host, "Holder",
        json{{"stats",
              {{"hp", 7},
               {"speed", 1.5},
               {"title", "knight"},
               {"target", {{"entity", "Target"}}},
               {"secret", 42}}},
             {"loadout",
              {{"ids", {1, 2}},
               {"inner",
                {{"hp", 1}, {"speed", 0}, {"title", ""}, {"target", nullptr}, {"secret", 0}}},
               {"offset", {1, 2, 3}}}}});
    const ReloadReport report = reloadOk(*host, v2);
    // Stats: hp int → long converts, the rest carries: restored.
    const ValueList stats = fieldOf<ValueList>(*host, h, "stats");
    CHECK(stats.at(0) == Value{std::int64_t{7}});
    CHECK(stats.at(2) == Value{std::string("knight")});
    CHECK(std::get<ObjectRef>(stats.at(3)).id == host->world().findEntity("Target"));
    REQUIRE(outcomeOf(report, "stats.hp") != nullptr); // member by member
    CHECK(outcomeOf(report, "stats.hp")->kind == FieldOutcome::Kind::Converted);
    CHECK(outcomeOf(report, "stats") == nullptr);
    // Loadout lost its "inner" member: the others carry, "inner" alone is parked.
    const ValueList loadout = fieldOf<ValueList>(*host, h, "loadout");
    REQUIRE(loadout.size() == 2);
    CHECK(std::get<ValueList>(loadout[0]).size() == 2);
    CHECK(std::get<glm::vec3>(loadout[1]) == glm::vec3(1, 2, 3));
    REQUIRE(outcomeOf(report, "loadout.inner") != nullptr);
    CHECK(outcomeOf(report, "loadout.inner")->kind == FieldOutcome::Kind::Removed);
    REQUIRE(host->parkedFields(h) != nullptr);
    CHECK(host->parkedFields(h)->at(0).name == "loadout.inner");
    bool warned = false;
    for (const std::string& w : report.warnings)
        warned = warned || w.find("Holder.table") != std::string::npos;
    CHECK_MESSAGE(warned, report.describe());
}
