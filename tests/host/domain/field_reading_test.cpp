// Reading managed fields into values (C# → C++): managed code writes, the host reads.
#include "../support/mono_test_support.hpp"

#include <cmath>
#include <limits>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("Marshaling C# to C++: values only managed code wrote") {
    auto host = makeHost();
    const ObjectId s = spawnScript(*host, "Tests.MarshalConstants");
    const ObjectId entity = host->world().script(s)->entity;
    CHECK(fieldOf<std::int64_t>(*host, s, "minLong") == INT64_MIN);
    CHECK(fieldOf<std::uint64_t>(*host, s, "maxULong") == UINT64_MAX);
    CHECK(fieldOf<std::int64_t>(*host, s, "minSByte") == -128);
    CHECK(std::isnan(fieldOf<float>(*host, s, "nan")));
    CHECK(fieldOf<float>(*host, s, "posInf") == std::numeric_limits<float>::infinity());
    CHECK(fieldOf<double>(*host, s, "negInf") == -std::numeric_limits<double>::infinity());
    CHECK(fieldOf<float>(*host, s, "tiny") == std::numeric_limits<float>::denorm_min());
    CHECK(fieldOf<double>(*host, s, "precise") == 0.1 + 0.2);
    CHECK(fieldOf<std::string>(*host, s, "empty").empty());
    CHECK(fieldOf<std::string>(*host, s, "nonAscii") == "日本語 ✓ ünïcødé \xF0\x9F\x98\x80");
    CHECK(fieldOf<std::string>(*host, s, "nullText").empty());
    CHECK(fieldOf<std::int64_t>(*host, s, "mood") == -3);
    CHECK(fieldOf<glm::vec3>(*host, s, "vector") == glm::vec3(-1.5f, 2.25f, 1e30f));
    const glm::quat r = fieldOf<glm::quat>(*host, s, "rotation");
    CHECK(r.y == doctest::Approx(std::sqrt(0.5)));
    CHECK(r.w == doctest::Approx(std::sqrt(0.5)));
    CHECK(fieldOf<ValueList>(*host, s, "emptyArray").empty());
    CHECK(fieldOf<ValueList>(*host, s, "nullArray").empty());
    const ValueList big = fieldOf<ValueList>(*host, s, "bigArray");
    REQUIRE(big.size() == 10000);
    for (int i : {0, 1, 4999, 9999}) {
        CHECK(big[std::size_t(i)] == Value{std::int64_t{i * i - 5000}});
    }
    CHECK(fieldOf<ValueList>(*host, s, "words") ==
          ValueList{std::string("alpha"), std::string(""), std::string("γ")});
    CHECK(fieldOf<ValueList>(*host, s, "emptyList").empty());
    CHECK(fieldOf<ObjectRef>(*host, s, "self").id == entity);
    CHECK(fieldOf<ObjectRef>(*host, s, "nobody").id.isNull());
    CHECK(fieldOf<ObjectRef>(*host, s, "me").id == s);
    CHECK(fieldOf<ValueList>(*host, s, "selves") ==
          ValueList{ObjectRef{entity}, ObjectRef{}, ObjectRef{entity}});
}
