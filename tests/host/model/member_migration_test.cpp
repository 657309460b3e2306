// The member-by-member rules for [Serializable] records whose type changed shape, called
// directly: paths, what is parked under which path, what comes back, and when nothing is
// touched. (Through whole fields: field_migration_test.cpp, "migrateFields records: …".)
#include "field_migration_cases.hpp"
#include "host/model/member_migration.hpp"

#include <doctest/doctest.h>
#include <map>

using namespace scripthost;
using Kind = FieldOutcome::Kind;

namespace {

using migration_cases::scalar;

const FieldType kInt = scalar(ValueKind::Int32, "System.Int32");
const FieldType kFloat = scalar(ValueKind::Float, "System.Single");
const FieldType kString = scalar(ValueKind::String, "System.String");

FieldType loadout(std::vector<MemberType> members) {
    return migration_cases::record("Demo.Loadout", /*isClass=*/false, std::move(members));
}

FieldType listOf(FieldType element) {
    return migration_cases::sequence(ValueKind::List, std::move(element));
}

/// The notes migrateValue made, by path.
struct Notes {
    std::map<std::string, Kind> kinds;
    MemberNote sink() {
        return [this](const std::string& path, Kind kind, const std::string&) {
            kinds[path] = kind;
        };
    }
};

const FieldType kOld = loadout({{"weapon", kString, {}}, {"ammo", kInt, {}}});
const FieldType kNew = loadout({{"weapon", kString, {}}, {"armor", kFloat, {}}});

Value gun(std::int64_t ammo) { return Value{ValueList{Value{std::string("gun")}, Value{ammo}}}; }

} // namespace

TEST_CASE("member migration: paths name members and elements") {
    CHECK(memberPath("loadout", "weapon") == "loadout.weapon");
    CHECK(memberPath("loadouts[2]", "inner") == "loadouts[2].inner");
    CHECK(elementPath("loadouts", 2) == "loadouts[2]");
    CHECK(migratesByMember(kOld, kNew));
    CHECK(migratesByMember(listOf(kOld), listOf(kNew)));
    CHECK_FALSE(migratesByMember(kInt, kFloat));
    CHECK_FALSE(migratesByMember(kOld, kInt));
}

TEST_CASE("member migration: a lost member is parked under its path, a gained one keeps its "
          "default, the rest carry") {
    std::vector<FieldSnapshot> parked;
    Notes notes;
    auto migrated = migrateValue("loadout", gun(30), kOld, kNew, parked, notes.sink());
    REQUIRE(migrated);
    const auto& members = std::get<ValueList>(*migrated);
    REQUIRE(members.size() == 2);
    CHECK(members[0] == Value{std::string("gun")});
    CHECK(std::holds_alternative<KeepDefault>(members[1]));
    REQUIRE(parked.size() == 1);
    CHECK(parked[0].name == "loadout.ammo");
    CHECK(parked[0].value == Value{std::int64_t{30}});
    CHECK(notes.kinds == std::map<std::string, Kind>{{"loadout.ammo", Kind::Removed},
                                                     {"loadout.armor", Kind::Added}});

    // The member comes back in a later build: its parked value with it, taken off the slot.
    Notes back;
    auto restored = migrateValue("loadout", Value{ValueList{Value{std::string("gun")},
                                                            Value{0.0f}}},
                                 kNew, kOld, parked, back.sink());
    REQUIRE(restored);
    CHECK(*restored == gun(30));
    CHECK(back.kinds.at("loadout.ammo") == Kind::Unparked);
    CHECK(back.kinds.at("loadout.armor") == Kind::Removed);
    REQUIRE(parked.size() == 1);
    CHECK(parked[0].name == "loadout.armor");
}

TEST_CASE("member migration: list elements go member by member, each under its element path") {
    std::vector<FieldSnapshot> parked;
    Notes notes;
    auto migrated = migrateValue("loadouts", Value{ValueList{gun(1), gun(2)}}, listOf(kOld),
                                 listOf(kNew), parked, notes.sink());
    REQUIRE(migrated);
    CHECK(std::get<ValueList>(*migrated).size() == 2);
    REQUIRE(parked.size() == 2);
    CHECK(parked[0].name == "loadouts[0].ammo");
    CHECK(parked[1].name == "loadouts[1].ammo");
    CHECK(parked[1].value == Value{std::int64_t{2}});
}

TEST_CASE("member migration: a value that cannot become the new type touches nothing") {
    std::vector<FieldSnapshot> parked{FieldSnapshot{"loadout.old", kInt, Value{std::int64_t{1}}}};
    Notes notes;
    CHECK_FALSE(migrateValue("loadout", gun(30), kOld, kInt, parked, notes.sink()));
    CHECK(parked.size() == 1);
    CHECK(notes.kinds.empty());
}

TEST_CASE("member migration: valueAtPath finds a member, an element's member, or nothing") {
    const Value list{ValueList{gun(1), gun(7)}};
    const Value* ammo = valueAtPath(list, listOf(kOld), "[1].ammo");
    REQUIRE(ammo != nullptr);
    CHECK(*ammo == Value{std::int64_t{7}});
    CHECK(valueAtPath(gun(3), kOld, "") != nullptr);
    CHECK(*valueAtPath(gun(3), kOld, ".weapon") == Value{std::string("gun")});
    CHECK(valueAtPath(gun(3), kOld, ".armor") == nullptr);
    CHECK(valueAtPath(list, listOf(kOld), "[5].ammo") == nullptr);
}
