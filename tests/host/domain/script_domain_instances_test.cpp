// ScriptDomain's instances: a script removed runs Destroy and leaves the schedule, and a script
// that cannot be constructed is a clear error that leaves the world as it was.
#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/runtime/mono_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("ScriptHost: removing a script runs Destroy and unschedules it") {
    auto host = makeHost();
    const ObjectId counter = spawnScript(*host, "Tests.Counter");
    host->tick(0.016);
    REQUIRE(host->removeScript(counter));
    CHECK(host->domain()->scheduledCount(ScriptPhase::Update) == 0);
    CHECK(host->domain()->instanceCount() == 0);
    CHECK_FALSE(host->world().isAlive(counter));
    host->tick(0.016); // nothing left to run, nothing breaks
    CHECK_FALSE(host->getField(counter, "updates"));
}

TEST_CASE("ScriptHost: construction failures are clear errors and leave the world unchanged") {
    auto host = makeHost();
    const ObjectId entity = host->world().createEntity("E");
    auto ctor = host->addScript(entity, SceneScript{"Tests.ThrowsInConstructor", json::object()});
    REQUIRE_FALSE(ctor);
    CHECK(ctor.error().message.find("constructor refuses") != std::string::npos);
    auto noDefault = host->addScript(entity, SceneScript{"Tests.NeedsArgument", json::object()});
    REQUIRE_FALSE(noDefault);
    CHECK(noDefault.error().message.find("parameterless constructor") != std::string::npos);
    auto notScript = host->addScript(entity, SceneScript{"Tests.NotAScript", json::object()});
    REQUIRE_FALSE(notScript);
    CHECK(notScript.error().message ==
          "class Tests.NotAScript does not derive from UEngine.UMonoScriptComponent");
    auto missing = host->addScript(entity, SceneScript{"Tests.Nope", json::object()});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("no script class named Tests.Nope") != std::string::npos);
    auto badField = host->addScript(entity, SceneScript{"Tests.Counter", json{{"step", "three"}}});
    REQUIRE_FALSE(badField);
    CHECK(badField.error().message.find("Tests.Counter.step") != std::string::npos);
    CHECK(host->world().entity(entity)->scripts.empty());
    CHECK(host->world().scriptCount() == 0);
    CHECK(host->domain()->instanceCount() == 0);
}
