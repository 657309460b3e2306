// ManagedDispatcher: ScriptCore's ScriptRuntime driven from C++ through a ScriptDomain made on
// the real runtime: scripts scheduled only for the messages their class overrides, one managed
// call per phase reaching every enabled script, Initialize run or not at attach, disabled and
// detached scripts left out.
#include "../support/bare_domain.hpp"
#include "host/domain/script_domain.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

std::int64_t intField(ScriptDomain& domain, ObjectId slot, const std::string& name) {
    auto value = domain.getField(slot, name);
    REQUIRE_MESSAGE(value, (value ? "" : value.error().message));
    return std::get<std::int64_t>(*value);
}

ObjectId attached(BareDomainWorld& t, ScriptDomain& domain, const std::string& className,
                  bool runInitialize = true) {
    const ObjectId slot = t.slot(className);
    REQUIRE(domain.instantiate(slot, t.entityOf(slot), className));
    REQUIRE(domain.attach(slot, runInitialize));
    return slot;
}

} // namespace

TEST_CASE("ManagedDispatcher: scripts are scheduled only for the messages their class overrides") {
    BareDomainWorld t;
    auto domain = t.domain(1);
    (void)attached(t, *domain, "Tests.Counter");   // Update and FixedUpdate
    (void)attached(t, *domain, "Tests.FixedOnly"); // FixedUpdate only
    (void)attached(t, *domain, "Tests.Idle");      // neither
    CHECK(domain->scheduledCount(ScriptPhase::Update).value_or(-1) == 1);
    CHECK(domain->scheduledCount(ScriptPhase::FixedUpdate).value_or(-1) == 2);
}

TEST_CASE("ManagedDispatcher: one call per phase runs every enabled script with the frame's time") {
    BareDomainWorld t;
    auto domain = t.domain(1);
    const ObjectId a = attached(t, *domain, "Tests.Counter");
    const ObjectId b = attached(t, *domain, "Tests.Counter");
    const ObjectId fixed = attached(t, *domain, "Tests.FixedOnly");
    REQUIRE(domain->runUpdate(0.5F, 2.5, 7));
    REQUIRE(domain->runUpdate(0.5F, 3.0, 8));
    REQUIRE(domain->runFixedUpdate(0.02F, 3.0, 9));
    CHECK(intField(*domain, a, "updates") == 2);
    CHECK(intField(*domain, b, "updates") == 2);
    CHECK(intField(*domain, a, "fixedUpdates") == 1);
    CHECK(intField(*domain, fixed, "ticks") == 1);
    CHECK(std::get<float>(*domain->getField(a, "elapsed")) == doctest::Approx(1.0));
    CHECK(std::get<double>(*domain->getField(a, "lastTime")) == doctest::Approx(3.0)); // Time.time
}

TEST_CASE("ManagedDispatcher: Initialize runs at attach unless told not to (a restored script)") {
    BareDomainWorld t;
    auto domain = t.domain(1);
    const ObjectId fresh = attached(t, *domain, "Tests.Counter", true);
    const ObjectId restored = attached(t, *domain, "Tests.Counter", false);
    CHECK(std::get<bool>(*domain->getField(fresh, "initialized")));
    CHECK_FALSE(std::get<bool>(*domain->getField(restored, "initialized")));
}

TEST_CASE("ManagedDispatcher: a disabled script is skipped until enabled, a detached one for "
          "good") {
    BareDomainWorld t;
    auto domain = t.domain(1);
    const ObjectId paused = attached(t, *domain, "Tests.Counter");
    const ObjectId gone = attached(t, *domain, "Tests.Counter");
    REQUIRE(domain->setEnabled(paused, false));
    CHECK(domain->scheduledCount(ScriptPhase::Update).value_or(-1) == 1);
    REQUIRE(domain->runUpdate(0.1F, 0.1, 1));
    CHECK(intField(*domain, paused, "updates") == 0);
    REQUIRE(domain->setEnabled(paused, true));
    REQUIRE(domain->detach(gone));
    CHECK(domain->scheduledCount(ScriptPhase::Update).value_or(-1) == 1);
    REQUIRE(domain->runUpdate(0.1F, 0.2, 2));
    CHECK(intField(*domain, paused, "updates") == 1);
    CHECK_FALSE(domain->getField(gone, "updates")); // its instance is freed
    CHECK_FALSE(domain->setEnabled(gone, true));
}
