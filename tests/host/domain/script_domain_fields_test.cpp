// ScriptDomain's fields: every field kind read and written through the domain, edge values
// round-tripped, and bad writes refused without a change. Real runtime, the test scripts.
#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/runtime/mono_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("ScriptDomain: every field kind reads its initial value and round-trips edge values") {
    auto host = makeHost();
    const ObjectId zoo = spawnScript(*host, "Tests.FieldZoo");
    CHECK(fieldOf<std::int64_t>(*host, zoo, "baseValue") == 11);
    CHECK(fieldOf<std::string>(*host, zoo, "basePrivate") == "base");
    CHECK(fieldOf<bool>(*host, zoo, "flag") == true);
    CHECK(fieldOf<std::int64_t>(*host, zoo, "i8") == -8);
    CHECK(fieldOf<std::uint64_t>(*host, zoo, "u64") == 64);
    CHECK(fieldOf<double>(*host, zoo, "f64") == 2.25);
    CHECK(fieldOf<std::string>(*host, zoo, "text") == "héllo");
    CHECK(fieldOf<std::int64_t>(*host, zoo, "mood") == 5);
    CHECK(fieldOf<glm::vec3>(*host, zoo, "position") == glm::vec3(1, 2, 3));

    const std::vector<std::pair<std::string, Value>> edges = {
        {"flag", false},
        {"i8", std::int64_t{INT8_MIN}},
        {"u8", std::uint64_t{UINT8_MAX}},
        {"i16", std::int64_t{INT16_MIN}},
        {"u16", std::uint64_t{UINT16_MAX}},
        {"i32", std::int64_t{INT32_MIN}},
        {"u32", std::uint64_t{UINT32_MAX}},
        {"i64", std::int64_t{INT64_MIN}},
        {"u64", std::uint64_t{UINT64_MAX}},
        {"f32", -INFINITY},
        {"f64", 1e308},
        {"text", std::string("日本語 ✓ and \"quotes\"")},
        {"mood", std::int64_t{-3}},
        {"tiny", std::int64_t{255}},
        {"position", glm::vec3(-0.0f, 1e-38f, 3.5f)},
    };
    for (const auto& [name, value] : edges) {
        auto written = host->setField(zoo, name, value);
        REQUIRE_MESSAGE(written, (name + ": " + (written ? "" : written.error().message)));
        auto read = host->getField(zoo, name);
        REQUIRE(read);
        CHECK_MESSAGE(*read == value, (name + " read back " + describe(*read)));
    }
    CHECK(fieldOf<std::string>(*host, zoo, "text") == "日本語 ✓ and \"quotes\"");
    host->setField(zoo, "f32", std::numeric_limits<float>::quiet_NaN()).value();
    CHECK(std::isnan(fieldOf<float>(*host, zoo, "f32")));
    CHECK(host->setField(zoo, "text", std::string()).has_value());
    CHECK(fieldOf<std::string>(*host, zoo, "text").empty());
}

TEST_CASE("ScriptDomain: bad field writes are errors and change nothing") {
    auto host = makeHost();
    const ObjectId zoo = spawnScript(*host, "Tests.FieldZoo");
    CHECK_FALSE(host->setField(zoo, "u8", std::int64_t{256}));
    CHECK_FALSE(host->setField(zoo, "u8", std::int64_t{-1}));
    CHECK(fieldOf<std::uint64_t>(*host, zoo, "u8") == 8);
    CHECK_FALSE(host->setField(zoo, "i32", std::string("3")));
    CHECK_FALSE(host->setField(zoo, "text", std::string("bad \xff utf-8")));
    CHECK(fieldOf<std::string>(*host, zoo, "text") == "héllo");
    auto missing = host->setField(zoo, "nonSerialized", std::int64_t{1});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("no serialized field named nonSerialized") !=
          std::string::npos);
    CHECK_FALSE(host->getField(ObjectId{999, 1}, "i8"));
}

TEST_CASE("ScriptDomain: readFieldsAt reads the fields at the indices asked, in their order, "
          "and refuses an index the class lacks") {
    auto host = makeHost();
    const ObjectId zoo = spawnScript(*host, "Tests.FieldZoo");
    const ScriptClassInfo* info = host->scriptClassOf(zoo);
    REQUIRE(info != nullptr);
    auto indexOf = [&](const std::string& name) {
        const auto found = std::ranges::find(info->fields, name, &FieldInfo::name);
        REQUIRE(found != info->fields.end());
        return static_cast<std::uint32_t>(found - info->fields.begin());
    };
    const std::vector<std::uint32_t> indices = {indexOf("position"), indexOf("i8"),
                                                indexOf("text")};
    std::vector<Value> out(3);
    REQUIRE(host->domain()->readFieldsAt(zoo, indices, out));
    CHECK(std::get<glm::vec3>(out[0]) == glm::vec3(1, 2, 3));
    CHECK(std::get<std::int64_t>(out[1]) == -8);
    CHECK(std::get<std::string>(out[2]) == "héllo");

    const std::vector<std::uint32_t> beyond = {static_cast<std::uint32_t>(info->fields.size())};
    std::vector<Value> one(1);
    auto refused = host->domain()->readFieldsAt(zoo, beyond, one);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("has no field #") != std::string::npos);
    CHECK_FALSE(host->domain()->readFieldsAt(zoo, indices, one)); // out too short
    CHECK_FALSE(host->domain()->readFieldsAt(ObjectId{999, 1}, indices, out));
}

TEST_CASE("ScriptDomain: an instance found once is read again without the lookup, and freeing "
          "any instance changes instancesVersion") {
    auto host = makeHost();
    const ObjectId zoo = spawnScript(*host, "Tests.FieldZoo");
    const ObjectId other = spawnScript(*host, "Tests.FieldZoo");
    const ScriptClassInfo* info = host->scriptClassOf(zoo);
    REQUIRE(info != nullptr);
    const auto i8 = std::ranges::find(info->fields, "i8", &FieldInfo::name);
    REQUIRE(i8 != info->fields.end());
    const std::vector<std::uint32_t> indices = {
        static_cast<std::uint32_t>(i8 - info->fields.begin())};
    auto found = host->domain()->findInstance(zoo);
    REQUIRE(found);
    CHECK_FALSE(host->domain()->findInstance(ObjectId{999, 1}));
    const std::uint64_t version = host->domain()->instancesVersion();

    REQUIRE(host->setField(zoo, "i8", std::int64_t{-5}));
    std::vector<Value> out(1);
    REQUIRE(host->domain()->readFieldsAt(*found, indices, out));
    CHECK(std::get<std::int64_t>(out[0]) == -5); // the live value, not one copied when found
    CHECK(host->domain()->instancesVersion() == version); // a write frees nothing

    REQUIRE(host->destroyEntity(host->world().script(other)->entity));
    CHECK(host->domain()->instancesVersion() != version);
    // The host's reader found through the host answers the same and refuses a gone script.
    auto viaHost = host->findScript(zoo);
    REQUIRE(viaHost);
    REQUIRE(host->readFieldsAt(*viaHost, indices, out));
    CHECK(std::get<std::int64_t>(out[0]) == -5);
    CHECK_FALSE(host->findScript(other));
}
