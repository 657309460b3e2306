// A field's type as the schema describes it: arrays, lists and references.
#include "../support/mono_test_support.hpp"

#include <cmath>
#include <limits>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("The schema describes arrays, lists and references") {
    auto host = makeHost();
    const ScriptClassInfo* echo = host->domain()->findScriptClass("Tests.MarshalEcho");
    REQUIRE(echo != nullptr);
    auto field = [&](const std::string& name) -> const FieldType& {
        for (const FieldInfo& f : echo->fields) {
            if (f.name == name)
                return f.type;
        }
        FAIL("no field " << name);
        throw;
    };
    CHECK(field("intsIn").kind == ValueKind::Array);
    CHECK(field("intsIn").elementType().kind == ValueKind::Int32);
    CHECK(field("wordsIn").kind == ValueKind::List);
    CHECK(field("wordsIn").elementType().kind == ValueKind::String);
    CHECK(field("pointsIn").elementType().kind == ValueKind::Vector3);
    CHECK(field("entityIn").kind == ValueKind::ObjectRef);
    CHECK(field("entityIn").refTarget == RefTarget::Entity);
    CHECK(field("cameraIn").refTarget == RefTarget::Component);
    CHECK(field("counterIn").refTarget == RefTarget::Script);
    CHECK(field("counterIn").typeName == "Tests.Counter");
    CHECK(field("entitiesOut").elementType().refTarget == RefTarget::Entity);
}
