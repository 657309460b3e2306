// SnapshotComparison: exact, bitwise comparison of two snapshots.
#include "snapshot_comparison.hpp"

#include <bit>
#include <cmath>
#include <doctest/doctest.h>
#include <limits>

using namespace scripthost;

namespace {

FieldType typeOf(ValueKind kind, std::string name) {
    FieldType t;
    t.kind = kind;
    t.typeName = std::move(name);
    return t;
}

const ObjectId kEntity{1, 1};
const ObjectId kScript{2, 1};

Snapshot oneScript(std::vector<FieldSnapshot> fields) {
    Snapshot s;
    s.scripts.push_back(ScriptSnapshot{kScript, kEntity, "Demo.Ball", std::move(fields)});
    return s;
}

std::string name(ObjectId id) {
    return id == kEntity ? "Ball" : "?";
}

} // namespace

TEST_CASE("sameValue: floats by their bits") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK(sameValue(Value(nan), Value(nan)));
    CHECK_FALSE(sameValue(Value(nan), Value(-nan)));
    CHECK_FALSE(sameValue(Value(0.0f), Value(-0.0f)));
    CHECK(sameValue(Value(1.5), Value(1.5)));
    CHECK_FALSE(sameValue(Value(1.5), Value(1.5f))); // double vs float
    CHECK(sameValue(Value(glm::vec3(1, nan, 3)), Value(glm::vec3(1, nan, 3))));
    CHECK_FALSE(sameValue(Value(glm::vec3(1, 0.0f, 3)), Value(glm::vec3(1, -0.0f, 3))));
    CHECK_FALSE(sameValue(Value(glm::quat(1, 0, 0, 0)), Value(glm::quat(1, 0, 0, 1e-7f))));
}

TEST_CASE("sameValue: lists element by element, references by id, integers by kind") {
    CHECK(sameValue(Value(ValueList{Value(std::int64_t{1}), Value(ObjectRef{kEntity})}),
                    Value(ValueList{Value(std::int64_t{1}), Value(ObjectRef{kEntity})})));
    CHECK_FALSE(sameValue(Value(ValueList{Value(ObjectRef{kEntity})}),
                          Value(ValueList{Value(ObjectRef{kScript})})));
    CHECK_FALSE(sameValue(Value(ValueList{}), Value(ValueList{Value(true)})));
    CHECK_FALSE(sameValue(Value(std::int64_t{1}), Value(std::uint64_t{1})));
    CHECK(sameValue(Value(std::string("a")), Value(std::string("a"))));
}

TEST_CASE("compareSnapshots: identical snapshots count their scripts and fields") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const auto fields = std::vector<FieldSnapshot>{
        {"speed", typeOf(ValueKind::Float, "System.Single"), Value(nan)},
        {"target", typeOf(ValueKind::ObjectRef, "UEngine.UEntity"), Value(ObjectRef{kEntity})}};
    Snapshot before = oneScript(fields);
    before.statics.push_back(
        {"Demo.Ball",
         {{"count", typeOf(ValueKind::Int32, "System.Int32"), Value(std::int64_t{3})}}});
    const Snapshot after = before;
    const SnapshotComparison result = compareSnapshots(before, after, name);
    CHECK(result.identical());
    CHECK(result.scripts == 1);
    CHECK(result.fields == 3);
}

TEST_CASE("compareSnapshots: names each changed, missing or extra field") {
    const FieldType f = typeOf(ValueKind::Float, "System.Single");
    // Two NaNs that differ only in their payload print alike: the bits tell them apart.
    const float nanA = std::bit_cast<float>(0x7fc00000u);
    const float nanB = std::bit_cast<float>(0x7fc00001u);
    const Snapshot before = oneScript({{"a", f, Value(nanA)}, {"gone", f, Value(1.0f)}});
    const Snapshot after = oneScript({{"a", f, Value(nanB)}, {"extra", f, Value(2.0f)}});
    const SnapshotComparison result = compareSnapshots(before, after, name);
    REQUIRE(result.mismatches.size() == 3);
    CHECK(result.mismatches[0].where == "Ball/Demo.Ball.a");
    CHECK(result.mismatches[0].before == "nan (bits 0x7fc00000)");
    CHECK(result.mismatches[0].after == "nan (bits 0x7fc00001)");
    CHECK(result.mismatches[1].where == "Ball/Demo.Ball.gone");
    CHECK(result.mismatches[1].after == "(missing)");
    CHECK(result.mismatches[2].where == "Ball/Demo.Ball.extra");
    CHECK(result.mismatches[2].before == "(missing)");
    CHECK(result.fields == 2);
}

TEST_CASE("compareSnapshots: a changed type, script or static is a mismatch") {
    const FieldType i32 = typeOf(ValueKind::Int32, "System.Int32");
    const FieldType i64 = typeOf(ValueKind::Int64, "System.Int64");
    Snapshot before = oneScript({{"n", i32, Value(std::int64_t{1})}});
    Snapshot after = oneScript({{"n", i64, Value(std::int64_t{1})}});
    auto result = compareSnapshots(before, after, name);
    REQUIRE(result.mismatches.size() == 1);
    CHECK(result.mismatches[0].where == "Ball/Demo.Ball.n (type)");
    CHECK(result.mismatches[0].after == "System.Int64");

    after = before;
    after.scripts[0].className = "Demo.Other";
    result = compareSnapshots(before, after, name);
    REQUIRE(result.mismatches.size() == 1);
    CHECK(result.mismatches[0].where == "Ball/Demo.Ball (script)");

    after = before;
    after.scripts.clear();
    CHECK(compareSnapshots(before, after, name).mismatches.size() == 1);

    after = before;
    before.statics.push_back({"Demo.Ball", {{"count", i32, Value(std::int64_t{3})}}});
    after.statics.push_back({"Demo.Ball", {{"count", i32, Value(std::int64_t{4})}}});
    result = compareSnapshots(before, after, name);
    REQUIRE(result.mismatches.size() == 1);
    CHECK(result.mismatches[0].where == "static Demo.Ball.count");
    CHECK(result.mismatches[0].before == "3");
    CHECK(result.mismatches[0].after == "4");
}
