#include "host/model/value.hpp"

#include <cmath>
#include <doctest/doctest.h>
#include <limits>
#include <nlohmann/json.hpp>

using namespace scripthost;
using nlohmann::json;

namespace {
FieldType type(ValueKind kind) {
    FieldType t;
    t.kind = kind;
    t.typeName = kindName(kind);
    return t;
}
FieldType enumType(std::vector<std::pair<std::string, std::int64_t>> members) {
    FieldType t = type(ValueKind::Enum);
    t.typeName = "Demo.Mood";
    t.enumMembers = std::move(members);
    return t;
}
} // namespace

TEST_CASE("valueFromJson: integers must fit their width exactly") {
    CHECK(std::get<std::int64_t>(*valueFromJson(json(-128), type(ValueKind::Int8))) == -128);
    CHECK_FALSE(valueFromJson(json(128), type(ValueKind::Int8)));
    CHECK_FALSE(valueFromJson(json(-1), type(ValueKind::UInt8)));
    CHECK(std::get<std::uint64_t>(*valueFromJson(json(255), type(ValueKind::UInt8))) == 255);
    CHECK_FALSE(valueFromJson(json(1.5), type(ValueKind::Int32)));
    CHECK(std::get<std::int64_t>(*valueFromJson(json(3.0), type(ValueKind::Int32))) == 3);
    CHECK(std::get<std::uint64_t>(*valueFromJson(json(UINT64_MAX), type(ValueKind::UInt64))) ==
          UINT64_MAX);
    CHECK(std::get<std::int64_t>(*valueFromJson(json(INT64_MIN), type(ValueKind::Int64))) ==
          INT64_MIN);
    CHECK_FALSE(valueFromJson(json(UINT64_MAX), type(ValueKind::Int64)));
    CHECK_FALSE(valueFromJson(json("7"), type(ValueKind::Int32)));
}

TEST_CASE("valueFromJson: floats, strings, bools, vectors, quaternions") {
    CHECK(std::get<float>(*valueFromJson(json(0.25), type(ValueKind::Float))) == 0.25f);
    CHECK(std::isnan(std::get<double>(*valueFromJson(json("nan"), type(ValueKind::Double)))));
    CHECK(std::get<double>(*valueFromJson(json("-inf"), type(ValueKind::Double))) == -INFINITY);
    CHECK(std::get<std::string>(*valueFromJson(json("ünï"), type(ValueKind::String))) == "ünï");
    CHECK_FALSE(valueFromJson(json(1), type(ValueKind::Bool)));
    CHECK(std::get<glm::vec3>(*valueFromJson(json({1, 2, 3}), type(ValueKind::Vector3))) ==
          glm::vec3(1, 2, 3));
    CHECK_FALSE(valueFromJson(json({1, 2}), type(ValueKind::Vector3)));
    const glm::quat q = std::get<glm::quat>(
        *valueFromJson(json({0.1, 0.2, 0.3, 0.9}), type(ValueKind::Quaternion)));
    CHECK(q.x == 0.1f);
    CHECK(q.w == 0.9f);
}

TEST_CASE("valueFromJson: enums by member name or number") {
    FieldType mood = enumType({{"Calm", 0}, {"Happy", 5}});
    CHECK(std::get<std::int64_t>(*valueFromJson(json("Happy"), mood)) == 5);
    CHECK(std::get<std::int64_t>(*valueFromJson(json(0), mood)) == 0);
    auto bad = valueFromJson(json("Sad"), mood);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("Calm, Happy") != std::string::npos);
}

TEST_CASE("valueToJson is the inverse of valueFromJson") {
    FieldType mood = enumType({{"Calm", 0}, {"Happy", 5}});
    for (const auto& [j, t] :
         std::vector<std::pair<json, FieldType>>{{json(-5), type(ValueKind::Int16)},
                                                 {json(UINT64_MAX), type(ValueKind::UInt64)},
                                                 {json(0.5), type(ValueKind::Float)},
                                                 {json("inf"), type(ValueKind::Double)},
                                                 {json("Happy"), mood},
                                                 {json({1.5, -2, 0}), type(ValueKind::Vector3)},
                                                 {json({0, 0, 0, 1}), type(ValueKind::Quaternion)},
                                                 {json("text"), type(ValueKind::String)},
                                                 {json(true), type(ValueKind::Bool)}}) {
        auto v = valueFromJson(j, t);
        REQUIRE(v);
        CHECK(valueToJson(*v, t) == j);
    }
}

TEST_CASE("valueFromJson: a float just past the 64-bit range is refused, not converted") {
    // UBSan, under fuzz_scene_json: 2^63 passed the check "d <= double(INT64_MAX)" (that
    // double is 2^63 itself) and its conversion to int64 was undefined behaviour.
    CHECK_FALSE(valueFromJson(json::parse("9223372036854775808.0"), type(ValueKind::Int64)));
    CHECK_FALSE(valueFromJson(json::parse("18446744073709551616"), type(ValueKind::UInt64)));
    CHECK_FALSE(valueFromJson(json::parse("2147483648.0"), type(ValueKind::Int32)));
    auto below = valueFromJson(json::parse("9223372036854774784.0"), type(ValueKind::Int64));
    REQUIRE(below);
    CHECK(std::get<std::int64_t>(*below) == 9223372036854774784LL);
    auto lowest = valueFromJson(json::parse("-9223372036854775808.0"), type(ValueKind::Int64));
    REQUIRE(lowest);
    CHECK(std::get<std::int64_t>(*lowest) == INT64_MIN);
    auto top = valueFromJson(json::parse("4294967295.0"), type(ValueKind::UInt32));
    REQUIRE(top);
    CHECK(std::get<std::uint64_t>(*top) == 4294967295u);
}

TEST_CASE("valueFromJson: a finite number beyond float's range is refused, not made infinite") {
    auto huge = valueFromJson(json(1e300), type(ValueKind::Float));
    REQUIRE_FALSE(huge);
    CHECK(huge.error().message.find("does not fit a float") != std::string::npos);
    CHECK_FALSE(valueFromJson(json({0, -1e39, 0}), type(ValueKind::Vector3)));
    // The largest float itself, infinity asked for by name, and doubles still pass.
    CHECK(std::get<float>(*valueFromJson(json(3.4028234663852886e38), type(ValueKind::Float))) ==
          std::numeric_limits<float>::max());
    CHECK(std::get<float>(*valueFromJson(json("inf"), type(ValueKind::Float))) == INFINITY);
    CHECK(std::get<double>(*valueFromJson(json(1e300), type(ValueKind::Double))) == 1e300);
}
