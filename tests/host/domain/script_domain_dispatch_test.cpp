// ScriptDomain's dispatch: only overriders are scheduled, Update's work reaches C++, and a
// script's exceptions (with their managed stack) are reported, counted and end in the script
// being disabled while the others run on. Real runtime, the test scripts.
#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/runtime/mono_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

TEST_CASE("ScriptHost: Update changes a field that C++ reads back, only overriders are scheduled") {
    auto host = makeHost();
    const ObjectId counter = spawnScript(*host, "Tests.Counter", json{{"step", 3}});
    spawnScript(*host, "Tests.Idle");
    const ObjectId fixedOnly = spawnScript(*host, "Tests.FixedOnly");
    CHECK(fieldOf<bool>(*host, counter, "initialized"));
    CHECK(host->domain()->scheduledCount(ScriptPhase::Update) == 1);
    CHECK(host->domain()->scheduledCount(ScriptPhase::FixedUpdate) == 2);

    for (int i = 0; i < 10; ++i)
        host->tick(0.01); // 0.1 s → 5 fixed steps of 0.02
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 30);
    CHECK(fieldOf<float>(*host, counter, "elapsed") == doctest::Approx(0.1));
    CHECK(fieldOf<double>(*host, counter, "lastTime") == doctest::Approx(0.1).epsilon(1e-5));
    CHECK(fieldOf<std::int64_t>(*host, counter, "fixedUpdates") == 5);
    CHECK(fieldOf<std::int64_t>(*host, fixedOnly, "ticks") == 5);
    CHECK(host->stats().summary().frames == 10);
}

TEST_CASE("ScriptHost: an exception's text carries the managed stack with File.cs:LINE") {
    auto host = makeHost();
    const ObjectId thrower = spawnScript(*host, "Tests.Thrower");
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 1);
    const ScriptFailure& failure = host->recentFailures().back();
    CHECK(failure.script == thrower);
    CHECK(failure.className == "Tests.Thrower");
    CHECK(failure.phase == ScriptPhase::Update);
    CHECK(failure.exceptionType == "System.InvalidOperationException");
    CHECK(failure.message == "thrower failed on purpose");
    const std::string source = std::string(SCRIPTHOST_TEST_SCRIPTS_SOURCE_DIR) + "/Thrower.cs";
    const int line = lineOf(source, "THROW-LINE");
    REQUIRE(line > 0);
    CHECK_MESSAGE(failure.text.find("Thrower.cs:" + std::to_string(line)) != std::string::npos,
                  failure.text);
    CHECK(failure.text.find("Tests.Thrower.Update") != std::string::npos);
}

TEST_CASE(
    "ScriptHost: a script that throws every frame is disabled after N while the others run on") {
    auto host = makeHost(/*disableAfterFailures*/ 5);
    const ObjectId thrower = spawnScript(*host, "Tests.Thrower");
    const ObjectId counter = spawnScript(*host, "Tests.Counter");
    for (int i = 0; i < 20; ++i)
        host->tick(0.016);
    CHECK(host->scriptFailureCount() == 5);
    CHECK(fieldOf<std::int64_t>(*host, thrower, "calls") == 5); // not called once disabled
    CHECK(fieldOf<std::int64_t>(*host, counter, "updates") == 20);
    CHECK_FALSE(host->world().script(thrower)->enabled);
    CHECK(host->recentFailures().back().disabled);
    CHECK(host->recentFailures().back().consecutive == 5);
    CHECK(host->domain()->scheduledCount(ScriptPhase::Update) == 1);
}

TEST_CASE("ScriptHost: a success ends a failure streak") {
    auto host = makeHost(/*disableAfterFailures*/ 3);
    const ObjectId thrower = spawnScript(*host, "Tests.Thrower");
    for (int round = 0; round < 4; ++round) {
        REQUIRE(host->setField(thrower, "failing", true));
        host->tick(0.016);
        host->tick(0.016); // two failures: below the limit of three
        REQUIRE(host->setField(thrower, "failing", false));
        host->tick(0.016); // success resets the streak
    }
    CHECK(host->scriptFailureCount() == 8);
    CHECK(host->world().script(thrower)->enabled);
    CHECK(fieldOf<std::int64_t>(*host, thrower, "calls") == 12);
}

TEST_CASE("ScriptHost: an exception in Initialize is reported and the script still updates") {
    auto host = makeHost();
    const ObjectId s = spawnScript(*host, "Tests.ThrowsInInitialize");
    REQUIRE(host->scriptFailureCount() == 1);
    CHECK(host->recentFailures().back().phase == ScriptPhase::Initialize);
    host->tick(0.016);
    CHECK(fieldOf<std::int64_t>(*host, s, "updates") == 1);
}
