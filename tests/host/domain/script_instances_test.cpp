// ScriptInstances: the script objects one generation made, by slot: made by the class's
// parameterless constructor (a missing one, or one that throws, is a clear error and leaves no
// instance), found per slot and class, and freed except those a reload still wants. ScriptDomains
// made directly on the real runtime, with the test scripts.
#include "../support/bare_domain.hpp"
#include "host/domain/script_domain.hpp"

using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("ScriptInstances: an instance is made per slot by the parameterless constructor and "
          "found by slot and class") {
    BareDomainWorld t;
    auto domain = t.domain(1);
    const ObjectId slot = t.slot("Tests.Counter");
    CHECK_FALSE(domain->hasInstance(slot, "Tests.Counter"));
    REQUIRE(domain->instantiate(slot, t.entityOf(slot), "Tests.Counter"));
    CHECK(domain->hasInstance(slot, "Tests.Counter"));
    CHECK_FALSE(domain->hasInstance(slot, "Tests.Idle")); // another class
    // Its field initializers ran in the constructor.
    CHECK(std::get<std::int64_t>(*domain->getField(slot, "step")) == 1);
}

TEST_CASE("ScriptInstances: a class without a parameterless constructor, one whose constructor "
          "throws and an unknown class are errors and leave no instance") {
    BareDomainWorld t;
    auto domain = t.domain(1);
    const ObjectId needs = t.slot("Tests.NeedsArgument");
    auto noCtor = domain->instantiate(needs, t.entityOf(needs), "Tests.NeedsArgument");
    REQUIRE_FALSE(noCtor);
    CHECK(noCtor.error().message.find("needs a parameterless constructor") != std::string::npos);
    CHECK_FALSE(domain->hasInstance(needs, "Tests.NeedsArgument"));

    const ObjectId throws = t.slot("Tests.ThrowsInConstructor");
    auto thrown = domain->instantiate(throws, t.entityOf(throws), "Tests.ThrowsInConstructor");
    REQUIRE_FALSE(thrown);
    CHECK(thrown.error().message.find("the constructor of Tests.ThrowsInConstructor threw") !=
          std::string::npos);
    CHECK(thrown.error().message.find("constructor refuses") != std::string::npos);
    CHECK_FALSE(domain->hasInstance(throws, "Tests.ThrowsInConstructor"));

    const ObjectId unknown = t.slot("Tests.Nowhere");
    CHECK_FALSE(domain->instantiate(unknown, t.entityOf(unknown), "Tests.Nowhere"));
}

TEST_CASE("ScriptInstances: instances a reload no longer wants are freed, the others kept with "
          "their values") {
    BareDomainWorld t;
    auto domain = t.domain(1);
    const ObjectId kept = t.slot("Tests.Counter");
    const ObjectId dropped = t.slot("Tests.Counter");
    REQUIRE(domain->instantiate(kept, t.entityOf(kept), "Tests.Counter"));
    REQUIRE(domain->instantiate(dropped, t.entityOf(dropped), "Tests.Counter"));
    REQUIRE(domain->setField(kept, "step", std::int64_t{5}));
    const std::size_t handles = ScriptDomain::liveGcHandles();
    domain->discardInstancesExcept([&](ObjectId slot) { return slot == kept; });
    CHECK(domain->hasInstance(kept, "Tests.Counter"));
    CHECK_FALSE(domain->hasInstance(dropped, "Tests.Counter"));
    CHECK(ScriptDomain::liveGcHandles() == handles - 1); // its handle freed
    CHECK(std::get<std::int64_t>(*domain->getField(kept, "step")) == 5);
    CHECK_FALSE(domain->getField(dropped, "step"));
}
