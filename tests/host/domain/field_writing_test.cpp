// Writing values into managed fields (C++ → C#), per type: the host writes, managed code computes
// from what it read. References in every id form the host prints.
#include "../support/mono_test_support.hpp"

#include <cmath>
#include <limits>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {
void set(ScriptHost& host, ObjectId script, const std::string& field, const Value& value) {
    auto r = host.setField(script, field, value);
    REQUIRE_MESSAGE(r, (field + ": " + (r ? "" : r.error().message)));
}
} // namespace

TEST_CASE("Marshaling C++ to C#: integers at their limits, floats, strings, enums, vectors") {
    auto host = makeHost();
    const ObjectId s = spawnScript(*host, "Tests.MarshalEcho");
    struct IntCase {
        const char* in;
        const char* out;
        Value value;
        Value expected;
    };
    const std::vector<IntCase> ints = {
        {"i8In", "i8Out", std::int64_t{INT8_MIN}, std::int64_t{INT8_MIN ^ 1}},
        {"u8In", "u8Out", std::uint64_t{UINT8_MAX}, std::uint64_t{UINT8_MAX ^ 1}},
        {"i16In", "i16Out", std::int64_t{INT16_MAX}, std::int64_t{INT16_MAX ^ 1}},
        {"u16In", "u16Out", std::uint64_t{0}, std::uint64_t{1}},
        {"i32In", "i32Out", std::int64_t{INT32_MIN}, std::int64_t{INT32_MIN ^ 1}},
        {"u32In", "u32Out", std::uint64_t{UINT32_MAX}, std::uint64_t{UINT32_MAX ^ 1}},
        {"i64In", "i64Out", std::int64_t{INT64_MIN}, std::int64_t{INT64_MIN ^ 1}},
        {"u64In", "u64Out", std::uint64_t{UINT64_MAX}, std::uint64_t{UINT64_MAX ^ 1}},
    };
    for (const auto& c : ints)
        set(*host, s, c.in, c.value);
    set(*host, s, "boolIn", true);
    set(*host, s, "f32In", std::numeric_limits<float>::infinity());
    set(*host, s, "f64In", -0.0);
    set(*host, s, "textIn", std::string("日本語 ✓"));
    set(*host, s, "moodIn", std::int64_t{5}); // Happy
    set(*host, s, "v2In", glm::vec2(1.5f, -2));
    set(*host, s, "v3In", glm::vec3(1, 2, 3));
    set(*host, s, "v4In", glm::vec4(-1, 0, 1, 1e-3f));
    set(*host, s, "qIn", glm::quat(0.4f, 0.1f, 0.2f, 0.3f)); // w, x, y, z
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);

    for (const auto& c : ints) {
        auto out = host->getField(s, c.out);
        REQUIRE(out);
        CHECK_MESSAGE(*out == c.expected, (std::string(c.out) + " = " + describe(*out)));
    }
    CHECK(fieldOf<bool>(*host, s, "boolOut") == false);
    CHECK(fieldOf<float>(*host, s, "f32Out") == -std::numeric_limits<float>::infinity());
    const double negZero = fieldOf<double>(*host, s, "f64Out");
    CHECK(negZero == 0.0);
    CHECK_FALSE(std::signbit(negZero)); // -(-0.0) is +0.0: C# really computed it
    CHECK(fieldOf<std::string>(*host, s, "textOut") == "日本語 ✓!");
    CHECK(fieldOf<std::int64_t>(*host, s, "textLength") == 5); // UTF-16 code units
    CHECK(fieldOf<std::int64_t>(*host, s, "moodOut") == -3);   // Angry
    CHECK(fieldOf<glm::vec2>(*host, s, "v2Out") == glm::vec2(3, -4));
    CHECK(fieldOf<glm::vec3>(*host, s, "v3Out") == glm::vec3(2, 4, 6));
    CHECK(fieldOf<glm::vec4>(*host, s, "v4Out") == glm::vec4(-2, 0, 2, 2e-3f));
    const glm::quat q = fieldOf<glm::quat>(*host, s, "qOut");
    CHECK(q.x == 0.4f); // C# built (w, z, y, x) from (x, y, z, w)
    CHECK(q.y == 0.3f);
    CHECK(q.z == 0.2f);
    CHECK(q.w == 0.1f);
}

TEST_CASE("Marshaling C++ to C#: NaN, empty strings, empty and 10k-element arrays, lists") {
    auto host = makeHost();
    const ObjectId s = spawnScript(*host, "Tests.MarshalEcho");
    set(*host, s, "f32In", std::numeric_limits<float>::quiet_NaN());
    set(*host, s, "textIn", std::string());
    ValueList big;
    std::int64_t sum = 0;
    for (int i = 0; i < 10000; ++i) {
        big.push_back(std::int64_t{i * 3 - 7});
        sum += i * 3 - 7;
    }
    set(*host, s, "intsIn", big);
    set(*host, s, "wordsIn", ValueList{std::string("a"), std::string(""), std::string("ß")});
    set(*host, s, "pointsIn", ValueList{});
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);
    CHECK(std::isnan(fieldOf<float>(*host, s, "f32Out")));
    CHECK(fieldOf<std::string>(*host, s, "textOut") == "!");
    CHECK(fieldOf<std::int64_t>(*host, s, "textLength") == 0);
    CHECK(fieldOf<std::int64_t>(*host, s, "intsSum") == sum);
    const ValueList reversed = fieldOf<ValueList>(*host, s, "intsOut");
    REQUIRE(reversed.size() == 10000);
    CHECK(reversed.front() == Value{std::int64_t{9999 * 3 - 7}});
    CHECK(reversed.back() == Value{std::int64_t{-7}});
    CHECK(fieldOf<ValueList>(*host, s, "wordsOut") ==
          ValueList{std::string("a"), std::string(""), std::string("ß"), std::string("end")});
    CHECK(fieldOf<ValueList>(*host, s, "pointsOut").empty());

    set(*host, s, "intsIn", ValueList{});
    set(*host, s, "pointsIn", ValueList{glm::vec3(1, 2, 3)});
    host->tick(0.016);
    CHECK(fieldOf<ValueList>(*host, s, "intsOut").empty());
    CHECK(fieldOf<std::int64_t>(*host, s, "intsSum") == 0);
    CHECK(fieldOf<ValueList>(*host, s, "pointsOut") == ValueList{glm::vec3(2, 3, 4)});
}

TEST_CASE("Marshaling C++ to C#: references to entities, components, scripts, and arrays of them") {
    auto host = makeHost();
    const ObjectId s = spawnScript(*host, "Tests.MarshalEcho");
    const ObjectId counter = spawnScript(*host, "Tests.Counter");
    const ObjectId a = host->world().createEntity("Alpha");
    const ObjectId b = host->world().createEntity("Beta");
    const ObjectId camera = *host->world().addComponent(b, "Camera");
    set(*host, s, "entityIn", ObjectRef{a});
    set(*host, s, "cameraIn", ObjectRef{camera});
    set(*host, s, "counterIn", ObjectRef{counter});
    set(*host, s, "entitiesIn", ValueList{ObjectRef{a}, ObjectRef{}, ObjectRef{b}});
    host->tick(0.016);
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);
    CHECK(fieldOf<ObjectRef>(*host, s, "entityOut").id == a);
    CHECK(fieldOf<std::string>(*host, s, "entityName") == "Alpha");
    CHECK(fieldOf<ObjectRef>(*host, s, "cameraAsRender").id == camera);
    CHECK(fieldOf<ObjectRef>(*host, s, "counterOut").id == counter);
    CHECK(fieldOf<std::int64_t>(*host, s, "counterUpdates") >= 1); // the real instance
    CHECK(fieldOf<std::string>(*host, s, "entityNames") == "Alpha;<null>;Beta;");
    CHECK(fieldOf<ValueList>(*host, s, "entitiesOut") ==
          ValueList{ObjectRef{b}, ObjectRef{}, ObjectRef{a}});

    // Wrong-typed and dangling references are errors and leave the field as it was.
    auto wrong = host->setField(s, "cameraIn", ObjectRef{a});
    REQUIRE_FALSE(wrong);
    CHECK(wrong.error().message.find("is a UEntity, not a UCameraComponent") != std::string::npos);
    auto scriptAsEntity = host->setField(s, "counterIn", ObjectRef{camera});
    CHECK_FALSE(scriptAsEntity);
    REQUIRE(host->destroyEntity(a));
    auto dangling = host->setField(s, "entityIn", ObjectRef{a});
    REQUIRE_FALSE(dangling);
    CHECK(dangling.error().message.find("does not exist") != std::string::npos);
    CHECK(fieldOf<ObjectRef>(*host, s, "cameraIn").id == camera);
    set(*host, s, "entityIn", ObjectRef{});
    CHECK(fieldOf<ObjectRef>(*host, s, "entityIn").id.isNull());
}

TEST_CASE("A reference written as JSON takes every id form the host prints: packed, \"3:1\", "
          "\"#3:1\", \"e3v1\"") {
    auto host = makeHost();
    const ObjectId a = host->world().createEntity("Alpha");
    const std::string index = std::to_string(a.index), generation = std::to_string(a.generation);
    for (const json& id : {json(a.packed()), json(index + ":" + generation),
                           json("#" + index + ":" + generation),
                           json("e" + index + "v" + generation)}) {
        CAPTURE(id.dump());
        const ObjectId s = spawnScript(*host, "Tests.MarshalEcho", json{{"entityIn", {{"id", id}}}});
        CHECK(fieldOf<ObjectRef>(*host, s, "entityIn").id == a);
    }
    for (const json& bad : {json("3:"), json("x:1"), json(index + ":0"), json(-1)}) {
        CAPTURE(bad.dump());
        const ObjectId entity = host->world().createEntity("Holder");
        auto added = host->addScript(entity, SceneScript{"Tests.MarshalEcho",
                                                         json{{"entityIn", {{"id", bad}}}}});
        REQUIRE_FALSE(added);
        CHECK_MESSAGE(added.error().message.find("\"index:generation\"") != std::string::npos,
                      added.error().message);
    }
}
