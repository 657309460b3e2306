// A reload carries [Serializable] records member by member when their type changed shape
// (host/model/member_migration.hpp, the writer in host/domain/src/field_writing.cpp): gained
// members take what the new code constructs, removed ones are parked under their path and come
// back, renamed ones follow [FormerlySerializedAs], retyped ones convert like fields; in fields,
// list and array elements, structs and nested records. Real mcs builds, reloads in-process.
#include "../support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

// The Loadout record (a class), with `members` as its body, and the Stats struct.
std::string types(const std::string& loadoutMembers, const std::string& statsMembers) {
    return "using System; using UEngine;\n[Serializable] public class Loadout { " + loadoutMembers +
           " }\n[Serializable] public struct Stats { " + statsMembers + " }\n";
}

const std::string kLoadoutV1 =
    "public string weapon = \"sword\"; public int ammo = 10; public Vector3 offset;";
const std::string kStatsV1 = "public int hp; public float speed;";

// The script: a record field (with its own initializer), a list and an array of records, a
// struct record and a record field that is null in a new instance.
std::string inventory(const std::string& loadoutInit = "new Loadout()",
                      const std::string& statsInit = "new Stats()") {
    return "using System.Collections.Generic; using UEngine;\n"
           "namespace Demo { public class Inventory : UMonoScriptComponent {\n"
           "  [SerializeField] Loadout loadout = " +
           loadoutInit +
           ";\n"
           "  [SerializeField] List<Loadout> list = new List<Loadout>();\n"
           "  [SerializeField] Loadout[] array = new Loadout[0];\n"
           "  [SerializeField] Stats stats = " +
           statsInit +
           ";\n"
           "  [SerializeField] Loadout spare;\n"
           "} }\n";
}

json loadoutJson(const std::string& weapon, int ammo, std::vector<float> offset) {
    return json{{"weapon", weapon}, {"ammo", ammo}, {"offset", offset}};
}

ObjectId spawnInventory(ScriptHost& host) {
    return spawnScript(
        host, "Demo.Inventory",
        json{{"loadout", loadoutJson("bow", 42, {2, 0, -2})},
             {"list", {loadoutJson("axe", 1, {0, 0, 0}), loadoutJson("mace", 2, {1, 1, 1})}},
             {"array", {loadoutJson("dagger", 3, {0, 0, 1})}},
             {"stats", {{"hp", 5}, {"speed", 1.5}}},
             {"spare", loadoutJson("spear", 4, {0, 0, 0})}});
}

// Member `index` of record `record`.
const Value& member(const ValueList& record, std::size_t index) {
    REQUIRE(record.size() > index);
    return record[index];
}

const ValueList& record(const Value& value) {
    REQUIRE(std::holds_alternative<ValueList>(value));
    return std::get<ValueList>(value);
}

std::string text(const Value& v) {
    REQUIRE(std::holds_alternative<std::string>(v));
    return std::get<std::string>(v);
}

std::int64_t integer(const Value& v) {
    REQUIRE(std::holds_alternative<std::int64_t>(v));
    return std::get<std::int64_t>(v);
}

float real(const Value& v) {
    REQUIRE(std::holds_alternative<float>(v));
    return std::get<float>(v);
}

const FieldSnapshot* parkedAs(ScriptHost& host, ObjectId script, const std::string& name) {
    const auto* parked = host.parkedFields(script);
    if (parked == nullptr)
        return nullptr;
    for (const FieldSnapshot& f : *parked) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

void checkOutcome(const ReloadReport& report, const std::string& field, FieldOutcome::Kind kind,
                  const std::string& detail) {
    const FieldOutcome* o = outcomeOf(report, field);
    REQUIRE_MESSAGE(o != nullptr, field, " has no outcome in\n", report.describe());
    CHECK(o->className == "Demo.Inventory");
    CHECK(outcomeName(o->kind) == std::string(outcomeName(kind)));
    CHECK(o->detail == detail);
}

} // namespace

TEST_CASE("Record members: a gained member takes the new code's default, the others keep their "
          "values (field, list, array, struct, null field)") {
    TempDir dir("records-gained");
    auto v1 = compileScripts(dir, "gen1.dll",
                             {{"Types.cs", types(kLoadoutV1, kStatsV1)}, {"Inv.cs", inventory()}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Types.cs",
          types(kLoadoutV1 + " public float weight = 2.5f;", kStatsV1 + " public int mana;")},
         // The script's own initializers decide the field's gained members: weight 4, mana 7.
         {"Inv.cs", inventory("new Loadout { weight = 4f }", "new Stats { mana = 7 }")}});
    auto host = makeHostFrom(v1);
    const ObjectId inv = spawnInventory(*host);
    const ReloadReport report = reloadOk(*host, v2);

    const ValueList loadout = fieldOf<ValueList>(*host, inv, "loadout");
    CHECK(text(member(loadout, 0)) == "bow");
    CHECK(integer(member(loadout, 1)) == 42);
    CHECK(std::get<glm::vec3>(member(loadout, 2)) == glm::vec3(2, 0, -2));
    CHECK(real(member(loadout, 3)) == 4.0f); // the instance's initializer, not 2.5 or 0

    const ValueList list = fieldOf<ValueList>(*host, inv, "list");
    REQUIRE(list.size() == 2);
    CHECK(text(member(record(list[0]), 0)) == "axe");
    CHECK(integer(member(record(list[0]), 1)) == 1);
    CHECK(real(member(record(list[0]), 3)) == 2.5f); // a fresh Loadout: the member initializer
    CHECK(text(member(record(list[1]), 0)) == "mace");
    CHECK(std::get<glm::vec3>(member(record(list[1]), 2)) == glm::vec3(1, 1, 1));
    CHECK(real(member(record(list[1]), 3)) == 2.5f);

    const ValueList array = fieldOf<ValueList>(*host, inv, "array");
    REQUIRE(array.size() == 1);
    CHECK(text(member(record(array[0]), 0)) == "dagger");
    CHECK(integer(member(record(array[0]), 1)) == 3);
    CHECK(real(member(record(array[0]), 3)) == 2.5f);

    const ValueList stats = fieldOf<ValueList>(*host, inv, "stats");
    CHECK(integer(member(stats, 0)) == 5);
    CHECK(real(member(stats, 1)) == 1.5f);
    CHECK(integer(member(stats, 2)) == 7); // the script's `new Stats { mana = 7 }`

    const ValueList spare = fieldOf<ValueList>(*host, inv, "spare"); // null in a new instance
    CHECK(text(member(spare, 0)) == "spear");
    CHECK(integer(member(spare, 1)) == 4);
    CHECK(real(member(spare, 3)) == 2.5f);

    checkOutcome(report, "loadout.weight", FieldOutcome::Kind::Added, "new member: default 4 kept");
    checkOutcome(report, "list[0].weight", FieldOutcome::Kind::Added,
                 "new member: default 2.5 kept");
    checkOutcome(report, "list[1].weight", FieldOutcome::Kind::Added,
                 "new member: default 2.5 kept");
    checkOutcome(report, "array[0].weight", FieldOutcome::Kind::Added,
                 "new member: default 2.5 kept");
    checkOutcome(report, "stats.mana", FieldOutcome::Kind::Added, "new member: default 7 kept");
    checkOutcome(report, "spare.weight", FieldOutcome::Kind::Added, "new member: default 2.5 kept");
    CHECK(outcomeOf(report, "loadout") == nullptr); // no whole-record outcome, nothing parked
    CHECK(host->parkedFields(inv) == nullptr);
    CHECK(report.describe().find("Demo.Inventory.loadout.weight") != std::string::npos);
}

TEST_CASE("Record members: a removed member is parked alone and comes back with the member") {
    TempDir dir("records-removed");
    const std::string withoutWeapon = "public int ammo = 10; public Vector3 offset;";
    auto v1 = compileScripts(dir, "gen1.dll",
                             {{"Types.cs", types(kLoadoutV1, kStatsV1)}, {"Inv.cs", inventory()}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Types.cs", types(withoutWeapon, "public int hp;")}, {"Inv.cs", inventory()}});
    auto v3 = compileScripts(dir, "gen3.dll",
                             {{"Types.cs", types(kLoadoutV1, kStatsV1)}, {"Inv.cs", inventory()}});
    auto host = makeHostFrom(v1);
    const ObjectId inv = spawnInventory(*host);

    const ReloadReport removed = reloadOk(*host, v2);
    const ValueList loadout = fieldOf<ValueList>(*host, inv, "loadout");
    REQUIRE(loadout.size() == 2);
    CHECK(integer(loadout[0]) == 42);
    CHECK(std::get<glm::vec3>(loadout[1]) == glm::vec3(2, 0, -2));
    CHECK(integer(member(record(fieldOf<ValueList>(*host, inv, "list").at(1)), 0)) == 2);
    CHECK(integer(member(fieldOf<ValueList>(*host, inv, "stats"), 0)) == 5);
    checkOutcome(removed, "loadout.weapon", FieldOutcome::Kind::Removed,
                 "no such member any more: value parked");
    checkOutcome(removed, "list[1].weapon", FieldOutcome::Kind::Removed,
                 "no such member any more: value parked");
    checkOutcome(removed, "stats.speed", FieldOutcome::Kind::Removed,
                 "no such member any more: value parked");
    for (const auto& [name, value] :
         std::vector<std::pair<std::string, Value>>{{"loadout.weapon", std::string("bow")},
                                                    {"list[0].weapon", std::string("axe")},
                                                    {"list[1].weapon", std::string("mace")},
                                                    {"array[0].weapon", std::string("dagger")},
                                                    {"spare.weapon", std::string("spear")},
                                                    {"stats.speed", 1.5f}}) {
        const FieldSnapshot* parked = parkedAs(*host, inv, name);
        REQUIRE_MESSAGE(parked != nullptr, name, " is not parked");
        CHECK_MESSAGE(parked->value == value, name, " parked as ", describe(parked->value));
    }
    // Changed while the member is gone: kept, and the parked members are not disturbed.
    REQUIRE(host->setField(inv, "loadout", ValueList{std::int64_t{43}, glm::vec3(9, 9, 9)}));

    const ReloadReport back = reloadOk(*host, v3);
    const ValueList again = fieldOf<ValueList>(*host, inv, "loadout");
    CHECK(text(member(again, 0)) == "bow");
    CHECK(integer(member(again, 1)) == 43);
    CHECK(std::get<glm::vec3>(member(again, 2)) == glm::vec3(9, 9, 9));
    const ValueList list = fieldOf<ValueList>(*host, inv, "list");
    CHECK(text(member(record(list.at(0)), 0)) == "axe");
    CHECK(text(member(record(list.at(1)), 0)) == "mace");
    CHECK(text(member(record(fieldOf<ValueList>(*host, inv, "array").at(0)), 0)) == "dagger");
    CHECK(text(member(fieldOf<ValueList>(*host, inv, "spare"), 0)) == "spear");
    CHECK(real(member(fieldOf<ValueList>(*host, inv, "stats"), 1)) == 1.5f);
    checkOutcome(back, "loadout.weapon", FieldOutcome::Kind::Unparked, "parked value restored");
    checkOutcome(back, "stats.speed", FieldOutcome::Kind::Unparked, "parked value restored");
    CHECK(host->parkedFields(inv) == nullptr);
}

TEST_CASE("Record members: [FormerlySerializedAs] on a member carries its value") {
    TempDir dir("records-renamed");
    auto v1 = compileScripts(dir, "gen1.dll",
                             {{"Types.cs", types(kLoadoutV1, kStatsV1)}, {"Inv.cs", inventory()}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Types.cs", types("public string weapon = \"sword\"; [FormerlySerializedAs(\"ammo\")] "
                            "public int bullets = 10; public Vector3 offset;",
                            "[FormerlySerializedAs(\"hp\")] public int health; public float "
                            "speed;")},
         {"Inv.cs", inventory()}});
    auto host = makeHostFrom(v1);
    const ObjectId inv = spawnInventory(*host);
    const ScriptClassInfo* before = host->domain()->findScriptClass("Demo.Inventory");
    REQUIRE(before != nullptr);
    const ReloadReport report = reloadOk(*host, v2);
    const ScriptClassInfo* info = host->domain()->findScriptClass("Demo.Inventory");
    REQUIRE(info != nullptr);
    CHECK(info->fields.at(0).type.members.at(1).formerNames == std::vector<std::string>{"ammo"});

    CHECK(integer(member(fieldOf<ValueList>(*host, inv, "loadout"), 1)) == 42);
    const ValueList list = fieldOf<ValueList>(*host, inv, "list");
    CHECK(integer(member(record(list.at(0)), 1)) == 1);
    CHECK(integer(member(record(list.at(1)), 1)) == 2);
    CHECK(integer(member(record(fieldOf<ValueList>(*host, inv, "array").at(0)), 1)) == 3);
    CHECK(integer(member(fieldOf<ValueList>(*host, inv, "stats"), 0)) == 5);
    checkOutcome(report, "loadout.bullets", FieldOutcome::Kind::Renamed, "from ammo");
    checkOutcome(report, "list[1].bullets", FieldOutcome::Kind::Renamed, "from ammo");
    checkOutcome(report, "stats.health", FieldOutcome::Kind::Renamed, "from hp");
    CHECK(host->parkedFields(inv) == nullptr);
}

TEST_CASE("Record members: a member retyped int -> float converts like a field, one that cannot "
          "convert is parked alone") {
    TempDir dir("records-retyped");
    auto v1 = compileScripts(dir, "gen1.dll",
                             {{"Types.cs", types(kLoadoutV1, kStatsV1)}, {"Inv.cs", inventory()}});
    auto v2 = compileScripts(
        dir, "gen2.dll",
        {{"Types.cs", types("public string weapon = \"sword\"; public float ammo; public Vector3 "
                            "offset;",
                            "public byte hp; public float speed;")},
         {"Inv.cs", inventory()}});
    auto host = makeHostFrom(v1);
    const ObjectId inv = spawnInventory(*host);
    REQUIRE(host->setField(inv, "stats", ValueList{std::int64_t{300}, 1.5f})); // no byte
    const ReloadReport report = reloadOk(*host, v2);

    const ValueList loadout = fieldOf<ValueList>(*host, inv, "loadout");
    CHECK(real(member(loadout, 1)) == 42.0f);
    CHECK(text(member(loadout, 0)) == "bow");
    CHECK(real(member(record(fieldOf<ValueList>(*host, inv, "list").at(1)), 1)) == 2.0f);
    checkOutcome(report, "loadout.ammo", FieldOutcome::Kind::Converted,
                 "System.Int32 42 -> System.Single 42");
    checkOutcome(report, "list[0].ammo", FieldOutcome::Kind::Converted,
                 "System.Int32 1 -> System.Single 1");
    // 300 is no byte: hp keeps the new default (a struct's default: 0), speed its value.
    const ValueList stats = fieldOf<ValueList>(*host, inv, "stats");
    CHECK(std::get<std::uint64_t>(member(stats, 0)) == 0);
    CHECK(real(member(stats, 1)) == 1.5f);
    checkOutcome(report, "stats.hp", FieldOutcome::Kind::Kept,
                 "int32 300 cannot become System.Byte: 300 does not fit a uint8; default kept, "
                 "old value parked");
    const FieldSnapshot* parked = parkedAs(*host, inv, "stats.hp");
    REQUIRE(parked != nullptr);
    CHECK(parked->value == Value{std::int64_t{300}});
}

TEST_CASE("Record members: a record nested in a record migrates member by member") {
    TempDir dir("records-nested");
    auto nest = [](const std::string& inner) {
        return "using System; using System.Collections.Generic; using UEngine;\n"
               "[Serializable] public struct Inner { " +
               inner +
               " }\n"
               "[Serializable] public class Outer { public string name = \"o\"; public Inner "
               "inner; }\n"
               "namespace Demo { public class Nest : UMonoScriptComponent {\n"
               "  [SerializeField] Outer outer = new Outer();\n"
               "  [SerializeField] List<Outer> all = new List<Outer>(); } }\n";
    };
    auto v1 = compileScripts(dir, "gen1.dll", {{"Nest.cs", nest("public int x; public int y;")}});
    auto v2 =
        compileScripts(dir, "gen2.dll", {{"Nest.cs", nest("public int x; public string z;")}});
    auto v3 = compileScripts(dir, "gen3.dll", {{"Nest.cs", nest("public int x; public int y;")}});
    auto host = makeHostFrom(v1);
    auto outer = [](const std::string& name, int x, int y) {
        return json{{"name", name}, {"inner", {{"x", x}, {"y", y}}}};
    };
    const ObjectId n = spawnScript(
        *host, "Demo.Nest", json{{"outer", outer("top", 1, 2)}, {"all", {outer("e0", 3, 4)}}});
    const ReloadReport report = reloadOk(*host, v2);
    const ValueList top = fieldOf<ValueList>(*host, n, "outer");
    CHECK(text(member(top, 0)) == "top");
    const ValueList inner = record(member(top, 1));
    CHECK(integer(member(inner, 0)) == 1);
    CHECK(text(member(inner, 1)) == ""); // gained z: the struct's default (null reads as "")
    const ValueList element = record(fieldOf<ValueList>(*host, n, "all").at(0));
    CHECK(text(member(element, 0)) == "e0");
    CHECK(integer(member(record(member(element, 1)), 0)) == 3);
    const FieldOutcome* removed = outcomeOf(report, "outer.inner.y");
    REQUIRE(removed != nullptr);
    CHECK(removed->kind == FieldOutcome::Kind::Removed);
    REQUIRE(outcomeOf(report, "all[0].inner.z") != nullptr);
    CHECK(outcomeOf(report, "all[0].inner.z")->kind == FieldOutcome::Kind::Added);

    reloadOk(*host, v3);
    CHECK(integer(member(record(member(fieldOf<ValueList>(*host, n, "outer"), 1)), 1)) == 2);
    const ValueList back = record(fieldOf<ValueList>(*host, n, "all").at(0));
    CHECK(integer(member(record(member(back, 1)), 0)) == 3);
    CHECK(integer(member(record(member(back, 1)), 1)) == 4);
    // z went away again: parked by its paths, nothing else.
    REQUIRE(host->parkedFields(n) != nullptr);
    std::vector<std::string> parked;
    for (const FieldSnapshot& f : *host->parkedFields(n))
        parked.push_back(f.name);
    CHECK(parked == std::vector<std::string>{"outer.inner.z", "all[0].inner.z"});
}
