// ScriptClassRegistry: what a generation's scripts assembly holds: exactly its concrete script
// classes, the messages each overrides, and the serialized field schema. Real mcs build, real runtime.
#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/runtime/mono_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("ScriptDomain: finds exactly the concrete script classes, and what they override") {
    auto host = makeHost();
    std::vector<std::string> names;
    for (const auto& c : host->domain()->scriptClasses())
        names.push_back(c.name);
    CHECK(names == std::vector<std::string>{"Tests.BadArguments",
                                            "Tests.CameraDriver",
                                            "Tests.Counter",
                                            "Tests.Factory",
                                            "Tests.FieldZoo",
                                            "Tests.FixedOnly",
                                            "Tests.Idle",
                                            "Tests.MarshalConstants",
                                            "Tests.MarshalEcho",
                                            "Tests.MathProbe",
                                            "Tests.NeedsArgument",
                                            "Tests.ProxyHolder",
                                            "Tests.Spawner",
                                            "Tests.StaleTransform",
                                            "Tests.StaleUser",
                                            "Tests.Thrower",
                                            "Tests.ThrowsInConstructor",
                                            "Tests.ThrowsInInitialize",
                                            "Tests.TransformMirror",
                                            "Tests.TransformOnDestroyed",
                                            "Tests.ZooBase"});
    const ScriptClassInfo* counter = host->domain()->findScriptClass("Counter"); // short name
    REQUIRE(counter != nullptr);
    CHECK(counter->overridesUpdate);
    CHECK(counter->overridesFixedUpdate);
    const ScriptClassInfo* fixedOnly = host->domain()->findScriptClass("Tests.FixedOnly");
    CHECK_FALSE(fixedOnly->overridesUpdate);
    CHECK(fixedOnly->overridesFixedUpdate);
    CHECK(host->domain()->findScriptClass("Tests.NotAScript") == nullptr);
}

TEST_CASE("ScriptDomain: the serialized field schema is exact: Unity's rules for public fields") {
    auto host = makeHost();
    const ScriptClassInfo* zoo = host->domain()->findScriptClass("Tests.FieldZoo");
    REQUIRE(zoo != nullptr);
    std::vector<std::string> names;
    for (const FieldInfo& f : zoo->fields)
        names.push_back(f.name);
    // Base class first; public fields by Unity's rule; readonly, [NonSerialized], static and
    // plain private fields excluded, and a public field of a type the host cannot carry skipped.
    CHECK(names == std::vector<std::string>{"baseValue", "basePrivate", "flag", "i8", "u8",
                                            "i16", "u16", "i32", "u32", "i64", "u64", "f32",
                                            "f64", "text", "mood", "tiny", "position", "renamed",
                                            "publicField", "hiddenField"});
    CHECK_FALSE(zoo->fields[18].hidden);
    CHECK(zoo->fields[19].hidden);
    CHECK(zoo->fields[19].type.kind == ValueKind::Int32);
    const FieldInfo& renamed = zoo->fields[17];
    CHECK(renamed.displayName == "Pretty Name");
    std::vector<std::string> former = renamed.formerNames;
    std::sort(former.begin(), former.end());
    CHECK(former == std::vector<std::string>{"oldName", "olderName"});
    CHECK(zoo->fields[0].declaringClass == "Tests.ZooBase");
    CHECK(zoo->fields[2].declaringClass == "Tests.FieldZoo");
    const FieldInfo& mood = zoo->fields[14];
    CHECK(mood.type.kind == ValueKind::Enum);
    CHECK(mood.type.enumMembers == std::vector<std::pair<std::string, std::int64_t>>{
                                       {"Calm", 0}, {"Happy", 5}, {"Angry", -3}});
    CHECK(zoo->fields[15].type.enumMembers.back() ==
          std::pair<std::string, std::int64_t>{"Max", 255});
    CHECK(zoo->fields[16].type.kind == ValueKind::Vector3);
    CHECK(zoo->fields[11].type.kind == ValueKind::Float);
}
