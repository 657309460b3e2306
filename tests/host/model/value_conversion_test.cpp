// convertValue and sameShape: the safe conversions a reload applies to a field whose type
// changed, rule by rule, each with the value that must not convert beside the one that must.
#include "field_migration_cases.hpp"
#include "host/model/value_conversion.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

namespace {

using migration_cases::record;
using migration_cases::scalar;
using migration_cases::sequence;

FieldType mood(std::vector<std::pair<std::string, std::int64_t>> members) {
    return migration_cases::enumType(std::move(members));
}

const FieldType kInt = scalar(ValueKind::Int32, "System.Int32");
const FieldType kByte = scalar(ValueKind::UInt8, "System.Byte");
const FieldType kFloat = scalar(ValueKind::Float, "System.Single");
const FieldType kDouble = scalar(ValueKind::Double, "System.Double");
const FieldType kString = scalar(ValueKind::String, "System.String");

} // namespace

TEST_CASE("convertValue: numbers convert only when the value fits exactly") {
    CHECK(convertValue(Value{std::int64_t{3}}, kInt, kDouble).value() == Value{3.0});
    CHECK(convertValue(Value{3.0}, kDouble, kInt).value() == Value{std::int64_t{3}});
    CHECK(convertValue(Value{std::int64_t{255}}, kInt, kByte).value() == Value{std::uint64_t{255}});
    CHECK_FALSE(convertValue(Value{std::int64_t{300}}, kInt, kByte));
    CHECK_FALSE(convertValue(Value{std::int64_t{-1}}, kInt, kByte));
    CHECK_FALSE(convertValue(Value{3.5}, kDouble, kInt));
    CHECK_FALSE(convertValue(Value{0.1}, kDouble, kFloat)); // 0.1 has no exact float
    CHECK(convertValue(Value{0.5}, kDouble, kFloat).value() == Value{0.5f});
}

TEST_CASE("convertValue: enums go by member name, to enums, strings and integers") {
    const FieldType before = mood({{"Calm", 0}, {"Angry", 1}});
    const FieldType after = mood({{"Angry", 5}, {"Calm", 7}}); // renumbered
    CHECK(convertValue(Value{std::int64_t{1}}, before, after).value() == Value{std::int64_t{5}});
    CHECK(convertValue(Value{std::int64_t{0}}, before, kString).value() == Value{std::string("Calm")});
    CHECK(convertValue(Value{std::int64_t{1}}, before, kInt).value() == Value{std::int64_t{1}});
    CHECK(convertValue(Value{std::string("Calm")}, kString, after).value() == Value{std::int64_t{7}});
    CHECK(convertValue(Value{std::int64_t{5}}, kInt, after).value() == Value{std::int64_t{5}});

    const auto gone = convertValue(Value{std::int64_t{1}}, before, mood({{"Calm", 0}}));
    REQUIRE_FALSE(gone);
    CHECK(gone.error().message == "Demo.Mood has no member Angry");
    const auto notMember = convertValue(Value{std::int64_t{9}}, before, kString);
    REQUIRE_FALSE(notMember);
    CHECK(notMember.error().message == "9 is not a member of Demo.Mood");
    CHECK_FALSE(convertValue(Value{std::int64_t{6}}, kInt, after)); // not a member
    CHECK_FALSE(convertValue(Value{std::string("Sleepy")}, kString, after));
    CHECK_FALSE(convertValue(Value{std::int64_t{0}}, before, scalar(ValueKind::Vector3, "V")));
}

TEST_CASE("convertValue: arrays and lists convert element by element, and name the element "
          "that cannot") {
    const ValueList items{Value{std::int64_t{1}}, Value{std::int64_t{2}}};
    CHECK(convertValue(Value{items}, sequence(ValueKind::Array, kInt),
                       sequence(ValueKind::List, kDouble))
              .value() == Value{ValueList{Value{1.0}, Value{2.0}}});
    const auto bad = convertValue(Value{ValueList{Value{std::int64_t{1}}, Value{std::int64_t{300}}}},
                                  sequence(ValueKind::List, kInt),
                                  sequence(ValueKind::Array, kByte));
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.rfind("[1]: ", 0) == 0);
    CHECK_FALSE(convertValue(Value{std::int64_t{1}}, sequence(ValueKind::List, kInt),
                             sequence(ValueKind::List, kDouble))); // not a list at all
}

TEST_CASE("convertValue: records go member by member, by name, and never drop a member") {
    const FieldType v1 =
        record("Demo.Stats", /*isClass=*/false, {{"hp", kInt, {}}, {"speed", kFloat, {}}});
    const FieldType reordered =
        record("Demo.Stats", /*isClass=*/false, {{"speed", kDouble, {}}, {"hp", kDouble, {}}});
    const Value saved{ValueList{Value{std::int64_t{10}}, Value{0.5f}}};
    CHECK(convertValue(saved, v1, reordered).value() == Value{ValueList{Value{0.5}, Value{10.0}}});

    const auto lost = convertValue(saved, v1, record("Demo.Stats", false, {{"hp", kInt, {}}}));
    REQUIRE_FALSE(lost);
    CHECK(lost.error().message == "Demo.Stats has no member speed any more");
    const auto gained = convertValue(
        saved, v1,
        record("Demo.Stats", false,
               {{"hp", kInt, {}}, {"speed", kFloat, {}}, {"mana", kInt, {}}}));
    REQUIRE_FALSE(gained);
    CHECK(gained.error().message == "Demo.Stats gained member mana: no saved value for it");
    const auto narrowed =
        convertValue(Value{ValueList{Value{std::int64_t{300}}, Value{0.5f}}}, v1,
                     record("Demo.Stats", false, {{"hp", kByte, {}}, {"speed", kFloat, {}}}));
    REQUIRE_FALSE(narrowed);
    CHECK(narrowed.error().message.rfind("hp: ", 0) == 0);

    // A null class instance stays null as a class, and cannot become a struct.
    const FieldType asClass = record("Demo.Stats", /*isClass=*/true, v1.members);
    CHECK(convertValue(Value{ValueList{}}, asClass, record("Demo.Stats", true, reordered.members))
              .value() == Value{ValueList{}});
    CHECK_FALSE(convertValue(Value{ValueList{}}, asClass, reordered));
}

TEST_CASE("convertValue: what has no safe conversion says so, and same shapes pass unchanged") {
    const auto refused = convertValue(Value{std::string("text")}, kString, kInt);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message ==
          "a string (System.String) cannot become a int32 (System.Int32)");
    const FieldType ref = scalar(ValueKind::ObjectRef, "UEngine.UEntity");
    CHECK(convertValue(Value{ObjectRef{}}, ref, ref).value() == Value{ObjectRef{}});
    CHECK(sameShape(kInt, kInt));
    CHECK_FALSE(sameShape(kInt, kDouble));
    CHECK(convertValue(Value{std::int64_t{7}}, kInt, kInt).value() == Value{std::int64_t{7}});
}
