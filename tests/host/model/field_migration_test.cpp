// The reload's field-migration rules (host/model/field_migration.hpp), rule by rule, with the exact
// outcome texts the reload report shows; then properties over many seeded random cases.

#include "field_migration_cases.hpp"
#include "host/model/field_migration.hpp"
#include "host/model/member_migration.hpp"

#include <doctest/doctest.h>
#include <random>

using namespace scripthost;
using migration_cases::identical;
using Kind = FieldOutcome::Kind;

namespace {

const ObjectId kScript{5, 1};
const ObjectId kLive{1, 1};
const ObjectId kDead{2, 1};

FieldType i32() {
    return migration_cases::scalar(ValueKind::Int32, "System.Int32");
}
FieldType i64() {
    return migration_cases::scalar(ValueKind::Int64, "System.Int64");
}
FieldType f32() {
    return migration_cases::scalar(ValueKind::Float, "System.Single");
}
FieldType f64() {
    return migration_cases::scalar(ValueKind::Double, "System.Double");
}
FieldType str() {
    return migration_cases::scalar(ValueKind::String, "System.String");
}
FieldType mood() {
    return migration_cases::enumType({{"Calm", 0}, {"Happy", 1}, {"Angry", 5}});
}
FieldType moodReordered() {
    return migration_cases::enumType({{"Angry", 0}, {"Calm", 3}, {"Happy", 7}});
}
FieldType entityRef() {
    return migration_cases::reference(RefTarget::Entity, "UEngine.UEntity");
}

FieldInfo field(std::string name, FieldType type, std::vector<std::string> formerNames = {}) {
    return FieldInfo{name, name, std::move(type), std::move(formerNames), "Demo.Thing"};
}

ScriptClassInfo thing(std::vector<FieldInfo> fields) {
    ScriptClassInfo info;
    info.name = "Demo.Thing";
    info.fields = std::move(fields);
    return info;
}

FieldSnapshot saved(std::string name, FieldType type, Value value) {
    return FieldSnapshot{std::move(name), std::move(type), std::move(value)};
}

bool usable(ObjectId id) {
    return id != kDead;
}

FieldMigration migrate(const ScriptClassInfo& cls, std::vector<FieldSnapshot> fields,
                       std::vector<FieldSnapshot> parked = {}, bool revived = false) {
    return migrateFields(kScript, cls, std::move(fields), std::move(parked), revived, usable);
}

// One outcome, checked whole (script and class included).
void checkOutcome(const FieldOutcome& o, const std::string& fieldName, Kind kind,
                  const std::string& detail) {
    CHECK(o.script == kScript);
    CHECK(o.className == "Demo.Thing");
    CHECK(o.field == fieldName);
    CHECK(outcomeName(o.kind) == std::string(outcomeName(kind)));
    CHECK(o.detail == detail);
}

void checkWrite(const FieldMigration& m, std::size_t at, std::size_t index, const Value& value) {
    REQUIRE(m.writes.size() > at);
    CHECK(m.writes[at].index == index);
    CHECK_MESSAGE(identical(m.writes[at].value, value), describe(m.writes[at].value), " is not ",
                  describe(value));
}

Value ref(ObjectId id) {
    return Value{ObjectRef{id}};
}

Value ints(std::vector<std::int64_t> items) {
    ValueList list;
    for (std::int64_t i : items)
        list.push_back(Value{i});
    return Value{std::move(list)};
}

} // namespace

TEST_CASE("migrateFields: a field of the same name and shape carries, with no outcome") {
    const auto m = migrate(thing({field("hp", i32()), field("label", str())}),
                           {saved("label", str(), Value{std::string("x")}),
                            saved("hp", i32(), Value{std::int64_t{12}})});
    REQUIRE(m.writes.size() == 2);
    checkWrite(m, 0, 0, Value{std::int64_t{12}}); // schema order, not the snapshot's
    checkWrite(m, 1, 1, Value{std::string("x")});
    CHECK(m.outcomes.empty());
    CHECK(m.parked.empty());
}

TEST_CASE("migrateFields: a new field keeps its default and is reported, unless the class is "
          "back") {
    const auto cls = thing({field("hp", i32()), field("speed", f32())});
    const auto m = migrate(cls, {saved("hp", i32(), Value{std::int64_t{3}})});
    REQUIRE(m.writes.size() == 1);
    checkWrite(m, 0, 0, Value{std::int64_t{3}});
    REQUIRE(m.outcomes.size() == 1);
    checkOutcome(m.outcomes[0], "speed", Kind::Added, "new field: constructor default");

    const auto revived = migrate(cls, {saved("hp", i32(), Value{std::int64_t{3}})}, {}, true);
    CHECK(revived.writes.size() == 1);
    CHECK(revived.outcomes.empty());
}

TEST_CASE("migrateFields: a field the class lost is parked, after the class's own outcomes") {
    const auto m = migrate(thing({field("hp", i32()), field("fresh", i32())}),
                           {saved("gone", str(), Value{std::string("bye")}),
                            saved("hp", i32(), Value{std::int64_t{1}})});
    REQUIRE(m.parked.size() == 1);
    CHECK(identical(m.parked[0], saved("gone", str(), Value{std::string("bye")})));
    REQUIRE(m.outcomes.size() == 2);
    checkOutcome(m.outcomes[0], "fresh", Kind::Added, "new field: constructor default");
    checkOutcome(m.outcomes[1], "gone", Kind::Removed, "no such field any more: value parked");
}

TEST_CASE("migrateFields: a renamed field takes its first former name that has a value") {
    const auto m =
        migrate(thing({field("speed", f32(), {"velocity", "spd"})}),
                {saved("spd", f32(), Value{1.0f}), saved("velocity", f32(), Value{2.0f})});
    checkWrite(m, 0, 0, Value{2.0f});
    REQUIRE(m.outcomes.size() == 2);
    checkOutcome(m.outcomes[0], "speed", Kind::Renamed, "from velocity");
    checkOutcome(m.outcomes[1], "spd", Kind::Removed, "no such field any more: value parked");
    REQUIRE(m.parked.size() == 1);
    CHECK(m.parked[0].name == "spd");
}

TEST_CASE("migrateFields: the current name beats a former one") {
    const auto m =
        migrate(thing({field("speed", f32(), {"velocity"})}),
                {saved("velocity", f32(), Value{2.0f}), saved("speed", f32(), Value{3.0f})});
    REQUIRE(m.writes.size() == 1);
    checkWrite(m, 0, 0, Value{3.0f});
    REQUIRE(m.outcomes.size() == 1);
    checkOutcome(m.outcomes[0], "velocity", Kind::Removed, "no such field any more: value parked");
}

TEST_CASE("migrateFields: a renamed field whose type changed converts under the Renamed outcome "
          "alone") {
    const auto m = migrate(thing({field("speed", f64(), {"velocity"})}),
                           {saved("velocity", i32(), Value{std::int64_t{4}})});
    checkWrite(m, 0, 0, Value{4.0});
    REQUIRE(m.outcomes.size() == 1);
    checkOutcome(m.outcomes[0], "speed", Kind::Renamed, "from velocity");
}

TEST_CASE("migrateFields: conversions that lose nothing") {
    SUBCASE("int to float, exactly") {
        const auto m =
            migrate(thing({field("hp", f32())}), {saved("hp", i32(), Value{std::int64_t{3}})});
        checkWrite(m, 0, 0, Value{3.0f});
        REQUIRE(m.outcomes.size() == 1);
        checkOutcome(m.outcomes[0], "hp", Kind::Converted, "System.Int32 3 -> System.Single 3");
    }
    SUBCASE("enum to enum by member name, not by number") {
        const auto m = migrate(thing({field("mood", moodReordered())}),
                               {saved("mood", mood(), Value{std::int64_t{1}})}); // Happy
        checkWrite(m, 0, 0, Value{std::int64_t{7}});
        REQUIRE(m.outcomes.size() == 1);
        checkOutcome(m.outcomes[0], "mood", Kind::Converted, "Demo.Mood 1 -> Demo.Mood 7");
    }
    SUBCASE("enum to string and back") {
        const auto toText =
            migrate(thing({field("mood", str())}), {saved("mood", mood(), Value{std::int64_t{5}})});
        checkWrite(toText, 0, 0, Value{std::string("Angry")});
        checkOutcome(toText.outcomes.at(0), "mood", Kind::Converted,
                     "Demo.Mood 5 -> System.String \"Angry\"");
        const auto toEnum = migrate(thing({field("mood", mood())}),
                                    {saved("mood", str(), Value{std::string("Happy")})});
        checkWrite(toEnum, 0, 0, Value{std::int64_t{1}});
        checkOutcome(toEnum.outcomes.at(0), "mood", Kind::Converted,
                     "System.String \"Happy\" -> Demo.Mood 1");
    }
    SUBCASE("array to list, element by element") {
        const auto list = migrate(
            thing({field("xs", migration_cases::sequence(ValueKind::List, i64()))}),
            {saved("xs", migration_cases::sequence(ValueKind::Array, i32()), ints({1, -2, 3}))});
        checkWrite(list, 0, 0, ints({1, -2, 3}));
        checkOutcome(list.outcomes.at(0), "xs", Kind::Converted,
                     "Array of System.Int32 [1, -2, 3] -> List of System.Int64 [1, -2, 3]");
        const auto array =
            migrate(thing({field("xs", migration_cases::sequence(ValueKind::Array, f32()))}),
                    {saved("xs", migration_cases::sequence(ValueKind::List, i32()), ints({2}))});
        REQUIRE(array.writes.size() == 1);
        CHECK(identical(array.writes[0].value, Value{ValueList{Value{2.0f}}}));
    }
}

TEST_CASE("migrateFields: a value that cannot convert keeps the default and is parked") {
    const auto m = migrate(thing({field("hp", i32())}), {saved("hp", f32(), Value{0.5f})});
    CHECK(m.writes.empty());
    REQUIRE(m.parked.size() == 1);
    CHECK(identical(m.parked[0], saved("hp", f32(), Value{0.5f})));
    REQUIRE(m.outcomes.size() == 1);
    checkOutcome(m.outcomes[0], "hp", Kind::Kept,
                 "float 0.5 cannot become System.Int32: 0.5 is not a whole number; default kept, "
                 "old value parked");
}

TEST_CASE("migrateFields: a parked value comes back when its field does") {
    SUBCASE("by name") {
        const auto m = migrate(thing({field("hp", i32())}), {},
                               {saved("hp", i32(), Value{std::int64_t{4}}),
                                saved("other", str(), Value{std::string("stays")})});
        checkWrite(m, 0, 0, Value{std::int64_t{4}});
        REQUIRE(m.outcomes.size() == 1);
        checkOutcome(m.outcomes[0], "hp", Kind::Unparked, "parked value restored");
        REQUIRE(m.parked.size() == 1);
        CHECK(m.parked[0].name == "other");
    }
    SUBCASE("by former name") {
        const auto m = migrate(thing({field("health", i32(), {"hp"})}), {},
                               {saved("hp", i32(), Value{std::int64_t{4}})});
        checkWrite(m, 0, 0, Value{std::int64_t{4}});
        REQUIRE(m.outcomes.size() == 1);
        checkOutcome(m.outcomes[0], "health", Kind::Unparked, "parked value restored");
        CHECK(m.parked.empty());
    }
    SUBCASE("converted on the way, still reported as unparked only") {
        const auto m =
            migrate(thing({field("hp", f64())}), {}, {saved("hp", i32(), Value{std::int64_t{4}})});
        checkWrite(m, 0, 0, Value{4.0});
        REQUIRE(m.outcomes.size() == 1);
        checkOutcome(m.outcomes[0], "hp", Kind::Unparked, "parked value restored");
    }
    SUBCASE("and is parked again when it still cannot convert") {
        const auto m = migrate(thing({field("hp", i32())}), {}, {saved("hp", f32(), Value{0.5f})});
        CHECK(m.writes.empty());
        REQUIRE(m.parked.size() == 1);
        CHECK(identical(m.parked[0], saved("hp", f32(), Value{0.5f})));
        checkOutcome(m.outcomes.at(0), "hp", Kind::Kept,
                     "float 0.5 cannot become System.Int32: 0.5 is not a whole number; default "
                     "kept, old value parked");
    }
}

TEST_CASE("migrateFields: a parked value of the field's shape beats a saved one that would need "
          "converting") {
    SUBCASE("saved under the same name: it is named as replaced") {
        const auto m = migrate(thing({field("hp", i32())}), {saved("hp", f32(), Value{0.0f})},
                               {saved("hp", i32(), Value{std::int64_t{7}})});
        checkWrite(m, 0, 0, Value{std::int64_t{7}});
        CHECK(m.parked.empty());
        REQUIRE(m.outcomes.size() == 1);
        checkOutcome(m.outcomes[0], "hp", Kind::Unparked,
                     "parked value restored (replaces System.Single 0)");
    }
    SUBCASE("saved under a former name: that value is parked as removed") {
        const auto m =
            migrate(thing({field("hp", i32(), {"health"})}), {saved("health", f32(), Value{2.0f})},
                    {saved("hp", i32(), Value{std::int64_t{7}})});
        checkWrite(m, 0, 0, Value{std::int64_t{7}});
        REQUIRE(m.outcomes.size() == 2);
        checkOutcome(m.outcomes[0], "hp", Kind::Unparked,
                     "parked value restored (replaces System.Single 2)");
        checkOutcome(m.outcomes[1], "health", Kind::Removed,
                     "no such field any more: value parked");
        REQUIRE(m.parked.size() == 1);
        CHECK(identical(m.parked[0], saved("health", f32(), Value{2.0f})));
    }
    SUBCASE("a parked value of another shape does not") {
        const auto m =
            migrate(thing({field("hp", f64())}), {saved("hp", i32(), Value{std::int64_t{2}})},
                    {saved("hp", str(), Value{std::string("old")})});
        checkWrite(m, 0, 0, Value{2.0});
        checkOutcome(m.outcomes.at(0), "hp", Kind::Converted, "System.Int32 2 -> System.Double 2");
        REQUIRE(m.parked.size() == 1);
        CHECK(identical(m.parked[0], saved("hp", str(), Value{std::string("old")})));
    }
}

TEST_CASE("migrateFields: a later park replaces an older parked value of the same name") {
    SUBCASE("at a type change that cannot convert") {
        const auto m =
            migrate(thing({field("hp", i32())}), {saved("hp", str(), Value{std::string("x")})},
                    {saved("hp", f32(), Value{0.5f})});
        CHECK(m.writes.empty());
        REQUIRE(m.parked.size() == 1);
        CHECK(identical(m.parked[0], saved("hp", str(), Value{std::string("x")})));
        checkOutcome(m.outcomes.at(0), "hp", Kind::Kept,
                     "string \"x\" cannot become System.Int32: a string (System.String) cannot "
                     "become a int32 (System.Int32); default kept, old value parked");
    }
    SUBCASE("when the field is removed") {
        const auto m = migrate(
            thing({}), {saved("hp", i32(), Value{std::int64_t{9}})},
            {saved("hp", f32(), Value{0.5f}), saved("keep", i32(), Value{std::int64_t{1}})});
        REQUIRE(m.parked.size() == 2);
        CHECK(m.parked[0].name == "keep");
        CHECK(identical(m.parked[1], saved("hp", i32(), Value{std::int64_t{9}})));
    }
}

TEST_CASE("migrateFields: references to objects that no longer exist are cleared, counted per "
          "field") {
    const auto refs = migration_cases::sequence(ValueKind::List, entityRef());
    const auto m =
        migrate(thing({field("target", entityRef()), field("friends", refs),
                       field("alive", entityRef()), field("pals", refs, {"mates"})}),
                {saved("target", entityRef(), ref(kDead)),
                 saved("friends", refs, Value{ValueList{ref(kDead), ref(kLive), ref(kDead)}}),
                 saved("alive", entityRef(), ref(kLive)),
                 saved("mates", refs, Value{ValueList{ref(kDead)}})});
    REQUIRE(m.writes.size() == 4);
    checkWrite(m, 0, 0, ref({}));
    checkWrite(m, 1, 1, Value{ValueList{ref({}), ref(kLive), ref({})}});
    checkWrite(m, 2, 2, ref(kLive));
    checkWrite(m, 3, 3, Value{ValueList{ref({})}});
    REQUIRE(m.outcomes.size() == 4);
    checkOutcome(m.outcomes[0], "target", Kind::Cleared,
                 "1 reference(s) to objects that no longer exist set to null");
    checkOutcome(m.outcomes[1], "friends", Kind::Cleared,
                 "2 reference(s) to objects that no longer exist set to null");
    checkOutcome(m.outcomes[2], "pals", Kind::Renamed, "from mates"); // the rename, then the clear
    checkOutcome(m.outcomes[3], "pals", Kind::Cleared,
                 "1 reference(s) to objects that no longer exist set to null");
}

TEST_CASE("migrateFields: parked references stay as they were") {
    const auto m = migrate(thing({}), {saved("target", entityRef(), ref(kDead))});
    REQUIRE(m.parked.size() == 1);
    CHECK(identical(m.parked[0].value, ref(kDead)));
}

TEST_CASE("migrateStatic: converts, refuses with a reason, clears dead references") {
    const auto converted =
        migrateStatic(saved("count", i32(), Value{std::int64_t{3}}), field("count", f64()), usable);
    REQUIRE(converted.has_value());
    CHECK(identical(*converted, Value{3.0}));

    const auto refused =
        migrateStatic(saved("count", f64(), Value{0.25}), field("count", i32()), usable);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message == "0.25 is not a whole number");

    const auto cleared =
        migrateStatic(saved("last", entityRef(), ref(kDead)), field("last", entityRef()), usable);
    REQUIRE(cleared.has_value());
    CHECK(identical(*cleared, ref({})));
    const auto kept =
        migrateStatic(saved("last", entityRef(), ref(kLive)), field("last", entityRef()), usable);
    CHECK(identical(*kept, ref(kLive)));
}

TEST_CASE("directCarryOutcomes: added and cleared merged in field order, with migrateFields' "
          "texts") {
    const auto cls = thing(
        {field("a", i32()), field("b", entityRef()), field("c", i32()), field("d", entityRef())});
    const auto outcomes = directCarryOutcomes(kScript, cls, {0, 2}, {{1, 2}, {3, 1}});
    REQUIRE(outcomes.size() == 4);
    checkOutcome(outcomes[0], "a", Kind::Added, "new field: constructor default");
    checkOutcome(outcomes[1], "b", Kind::Cleared,
                 "2 reference(s) to objects that no longer exist set to null");
    checkOutcome(outcomes[2], "c", Kind::Added, "new field: constructor default");
    checkOutcome(outcomes[3], "d", Kind::Cleared,
                 "1 reference(s) to objects that no longer exist set to null");
    CHECK(directCarryOutcomes(kScript, cls, {}, {}).empty());
    const auto onlyCleared = directCarryOutcomes(kScript, cls, {}, {{3, 4}});
    REQUIRE(onlyCleared.size() == 1);
    CHECK(onlyCleared[0].field == "d");

    // The same field set as migrateFields reports for the snapshot path.
    const auto snapshotPath = migrate(cls, {saved("b", entityRef(), ref(kDead))});
    const auto direct = directCarryOutcomes(kScript, cls, {0, 2, 3}, {{1, 1}});
    REQUIRE(snapshotPath.outcomes.size() == direct.size());
    for (std::size_t i = 0; i < direct.size(); ++i) {
        CHECK(snapshotPath.outcomes[i].field == direct[i].field);
        CHECK(snapshotPath.outcomes[i].kind == direct[i].kind);
        CHECK(snapshotPath.outcomes[i].detail == direct[i].detail);
    }
}

TEST_CASE("migrateFields properties: over seeded random cases nothing is lost, writes fit their "
          "fields, the result is deterministic") {
    for (std::uint32_t seed = 1; seed <= 3000; ++seed) {
        std::mt19937 rng(seed);
        const migration_cases::Choose choose = [&](std::size_t n) {
            return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
        };
        const migration_cases::Case c = migration_cases::randomCase(choose);
        const FieldMigration m = migration_cases::migrate(c);
        const auto lost = migration_cases::lostValue(c, m);
        const auto broken = migration_cases::brokenInvariant(c, m);
        INFO("seed ", seed);
        CHECK_MESSAGE(!lost, lost.value_or(""));
        CHECK_MESSAGE(!broken, broken.value_or(""));
        CHECK(migration_cases::sameMigration(m, migration_cases::migrate(c)));
        if (lost || broken)
            break;
    }
}

TEST_CASE("migrateFields properties: forward and back with exact conversions restores every "
          "value") {
    std::size_t retyped = 0, renamed = 0, removed = 0;
    for (std::uint32_t seed = 1; seed <= 2000; ++seed) {
        std::mt19937 rng(seed);
        const migration_cases::Choose choose = [&](std::size_t n) {
            return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
        };
        const migration_cases::RoundTrip r = migration_cases::randomRoundTrip(choose);
        for (const FieldInfo& old : r.oldClass.fields) {
            auto now = std::ranges::find_if(r.newClass.fields, [&](const FieldInfo& f) {
                return f.name == old.name ||
                       (!old.formerNames.empty() && f.name == old.formerNames[0]);
            });
            removed += now == r.newClass.fields.end();
            renamed += now != r.newClass.fields.end() && now->name != old.name;
            retyped += now != r.newClass.fields.end() && !(now->type == old.type);
        }
        const auto loss = migration_cases::roundTripLoss(r, choose);
        INFO("seed ", seed);
        CHECK_MESSAGE(!loss, loss.value_or(""));
        if (loss)
            break;
    }
    // The cases do exercise every kind of change.
    CHECK(retyped > 100);
    CHECK(renamed > 100);
    CHECK(removed > 100);
}

TEST_CASE("migrateFields: a parked value replaced by a newer park stays replaced when that one "
          "moves on") {
    // "c" (formerly "a") cannot take the saved "a": it is parked, replacing the parked "a";
    // then field "a" takes it from there. The older parked "a" is gone: the Kept outcome is
    // the only trace of the replacement.
    const auto m = migrate(thing({field("c", mood(), {"a"}), field("a", str())}),
                           {saved("a", str(), Value{std::string("x")})},
                           {saved("a", str(), Value{std::string("older")})});
    REQUIRE(m.writes.size() == 1);
    checkWrite(m, 0, 1, Value{std::string("x")});
    CHECK(m.parked.empty());
    REQUIRE(m.outcomes.size() == 2);
    checkOutcome(m.outcomes[0], "c", Kind::Kept,
                 "string \"x\" cannot become Demo.Mood: Demo.Mood has no member x; default kept, "
                 "old value parked");
    checkOutcome(m.outcomes[1], "a", Kind::Unparked, "parked value restored");
}

// Records ([Serializable] structs and classes) whose members changed: member by member.
namespace {

FieldType loadoutType(std::vector<MemberType> members) {
    return migration_cases::record("Demo.Loadout", true, std::move(members));
}

Value loadout(std::string weapon, std::int64_t ammo) {
    return Value{ValueList{Value{std::move(weapon)}, Value{ammo}}};
}

const FieldType kLoadoutV1 = loadoutType({{"weapon", str()}, {"ammo", i32()}});

bool keepsDefault(const Value& v) {
    return std::holds_alternative<KeepDefault>(v);
}

} // namespace

TEST_CASE("migrateFields records: a gained member keeps the new default, the others their values") {
    const FieldType v2 = loadoutType({{"weapon", str()}, {"ammo", i32()}, {"weight", f32()}});
    const auto m =
        migrate(thing({field("loadout", v2)}), {saved("loadout", kLoadoutV1, loadout("bow", 42))});
    REQUIRE(m.writes.size() == 1);
    const auto& members = std::get<ValueList>(m.writes[0].value);
    REQUIRE(members.size() == 3);
    CHECK(identical(members[0], Value{std::string("bow")}));
    CHECK(identical(members[1], Value{std::int64_t{42}}));
    CHECK(keepsDefault(members[2]));
    REQUIRE(m.outcomes.size() == 1); // no "converted" line for the record as a whole
    checkOutcome(m.outcomes[0], "loadout.weight", Kind::Added, "new member: default kept");
    CHECK(m.parked.empty());
}

TEST_CASE("migrateFields records: a removed member is parked under its path and comes back") {
    const FieldType v2 = loadoutType({{"ammo", i32()}});
    const auto there =
        migrate(thing({field("loadout", v2)}), {saved("loadout", kLoadoutV1, loadout("bow", 42))});
    REQUIRE(there.writes.size() == 1);
    CHECK(identical(there.writes[0].value, Value{ValueList{Value{std::int64_t{42}}}}));
    REQUIRE(there.outcomes.size() == 1);
    checkOutcome(there.outcomes[0], "loadout.weapon", Kind::Removed,
                 "no such member any more: value parked");
    REQUIRE(there.parked.size() == 1);
    CHECK(there.parked[0].name == "loadout.weapon");
    CHECK(there.parked[0].type == str());
    CHECK(identical(there.parked[0].value, Value{std::string("bow")}));

    // The member returns (ammo changed meanwhile): its parked value is restored.
    const auto back =
        migrate(thing({field("loadout", kLoadoutV1)}),
                {saved("loadout", v2, Value{ValueList{Value{std::int64_t{7}}}})}, there.parked);
    checkWrite(back, 0, 0, loadout("bow", 7));
    REQUIRE(back.outcomes.size() == 1);
    checkOutcome(back.outcomes[0], "loadout.weapon", Kind::Unparked, "parked value restored");
    CHECK(back.parked.empty());
}

TEST_CASE("migrateFields records: [FormerlySerializedAs] on a member carries its value") {
    const FieldType v2 = loadoutType({{"weapon", str()}, {"bullets", i32(), {"ammo"}}});
    const auto m =
        migrate(thing({field("loadout", v2)}), {saved("loadout", kLoadoutV1, loadout("bow", 42))});
    checkWrite(m, 0, 0, loadout("bow", 42));
    REQUIRE(m.outcomes.size() == 1);
    checkOutcome(m.outcomes[0], "loadout.bullets", Kind::Renamed, "from ammo");
    CHECK(m.parked.empty());
}

TEST_CASE("migrateFields records: a retyped member converts like a field, or is parked alone") {
    const FieldType v2 = loadoutType({{"weapon", mood()}, {"ammo", f32()}});
    const auto m =
        migrate(thing({field("loadout", v2)}), {saved("loadout", kLoadoutV1, loadout("bow", 42))});
    REQUIRE(m.writes.size() == 1);
    const auto& members = std::get<ValueList>(m.writes[0].value);
    CHECK(keepsDefault(members[0]));            // "bow" is no Mood
    CHECK(identical(members[1], Value{42.0f})); // int 42 -> float 42
    REQUIRE(m.outcomes.size() == 2);
    checkOutcome(m.outcomes[0], "loadout.weapon", Kind::Kept,
                 "string \"bow\" cannot become Demo.Mood: Demo.Mood has no member bow; default "
                 "kept, old value parked");
    checkOutcome(m.outcomes[1], "loadout.ammo", Kind::Converted,
                 "System.Int32 42 -> System.Single 42");
    REQUIRE(m.parked.size() == 1);
    CHECK(m.parked[0].name == "loadout.weapon");
    CHECK(identical(m.parked[0].value, Value{std::string("bow")}));

    // Back to a string: the parked "bow" returns in preference to the default kept meanwhile.
    const auto back = migrate(
        thing({field("loadout", kLoadoutV1)}),
        {saved("loadout", v2, Value{ValueList{Value{std::int64_t{0}}, Value{42.0f}}})}, m.parked);
    checkWrite(back, 0, 0, loadout("bow", 42));
    CHECK(back.parked.empty());
}

TEST_CASE("migrateFields records: nested records, list and array elements go member by member") {
    const FieldType pairV1 = migration_cases::record("Demo.Pair", false, {{"x", i32()}});
    const FieldType pairV2 =
        migration_cases::record("Demo.Pair", false, {{"x", i32()}, {"y", f32()}});
    const FieldType outerV1 = loadoutType({{"inner", pairV1}, {"gone", str()}});
    const FieldType outerV2 = loadoutType({{"inner", pairV2}});
    const FieldType listV1 = migration_cases::sequence(ValueKind::List, outerV1);
    const FieldType listV2 = migration_cases::sequence(ValueKind::List, outerV2);
    auto outer = [](std::int64_t x, std::string gone) {
        return Value{ValueList{Value{ValueList{Value{x}}}, Value{std::move(gone)}}};
    };
    const auto m = migrate(thing({field("one", outerV2), field("many", listV2)}),
                           {saved("one", outerV1, outer(1, "a")),
                            saved("many", listV1, Value{ValueList{outer(2, "b"), outer(3, "c")}})});
    REQUIRE(m.writes.size() == 2);
    const Value kept = KeepDefault{};
    auto expected = [&](std::int64_t x) {
        return Value{ValueList{Value{ValueList{Value{x}, kept}}}};
    };
    checkWrite(m, 0, 0, expected(1));
    checkWrite(m, 1, 1, Value{ValueList{expected(2), expected(3)}});
    std::vector<std::string> fields;
    for (const FieldOutcome& o : m.outcomes)
        fields.push_back(std::string(outcomeName(o.kind)) + " " + o.field);
    CHECK(fields == std::vector<std::string>{"added one.inner.y", "removed one.gone",
                                             "added many[0].inner.y", "removed many[0].gone",
                                             "added many[1].inner.y", "removed many[1].gone"});
    REQUIRE(m.parked.size() == 3);
    CHECK(m.parked[0].name == "one.gone");
    CHECK(m.parked[1].name == "many[0].gone");
    CHECK(identical(m.parked[2].value, Value{std::string("c")}));
    CHECK(m.parked[2].name == "many[1].gone");
}

TEST_CASE("migrateFields records: a record that cannot become the new type is parked whole") {
    // A null class instance cannot become a struct: nothing member-level happens.
    const FieldType asStruct =
        migration_cases::record("Demo.Loadout", false, {{"weapon", str()}, {"extra", i32()}});
    const auto m = migrate(thing({field("loadout", asStruct)}),
                           {saved("loadout", kLoadoutV1, Value{ValueList{}})});
    CHECK(m.writes.empty());
    REQUIRE(m.outcomes.size() == 1);
    checkOutcome(m.outcomes[0], "loadout", Kind::Kept,
                 "record [] cannot become Demo.Loadout: a null Demo.Loadout cannot become a "
                 "struct; default kept, old value parked");
    REQUIRE(m.parked.size() == 1);
    CHECK(m.parked[0].name == "loadout");
}

TEST_CASE("describeKeptDefaults: an added member's outcome names the default the new code made") {
    const FieldType v2 = loadoutType({{"weapon", str()}, {"weight", f32()}});
    const FieldType list = migration_cases::sequence(ValueKind::List, v2);
    const auto cls = thing({field("loadout", v2), field("all", list)});
    std::vector<FieldOutcome> outcomes{
        {kScript, "Demo.Thing", "loadout.weight", Kind::Added, "new member: default kept"},
        {kScript, "Demo.Thing", "all[1].weight", Kind::Added, "new member: default kept"},
        {kScript, "Demo.Thing", "loadout", Kind::Added, "new field: constructor default"}};
    const Value bow{ValueList{Value{std::string("bow")}, Value{2.5f}}};
    describeKeptDefaults(outcomes, cls, [&](const FieldInfo& f) -> Result<Value> {
        if (f.name == "loadout")
            return bow;
        return Value{ValueList{bow, Value{ValueList{Value{std::string("axe")}, Value{1.0f}}}}};
    });
    CHECK(outcomes[0].detail == "new member: default 2.5 kept");
    CHECK(outcomes[1].detail == "new member: default 1 kept");
    CHECK(outcomes[2].detail == "new field: constructor default");
}
