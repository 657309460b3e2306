// ScriptDomain's unload of a domain made ahead (ScriptDomain::prepare) that a reload drops —
// a rollback, or a host that stops — right as its background warm-up ends (docs/MONO.md §2).
#include "../support/domain_hand_off_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("DomainHandOff: prepared domains dropped as their warm-up ends unload cleanly") {
    // ReloadTransaction's "a failed load into a prepared domain rolls back and unloads it"
    // made this crash in 1-7 % of runs under load: the prepared domain's background warm-up
    // had just returned, and its unload began while the worker was still inside the domain.
    // With the delay at the hand-off it is every run without the fix.
    auto host = makeHost();
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    const std::size_t handles = ScriptDomain::liveGcHandles();
    HandOffDelay delay(std::chrono::milliseconds(200));
    for (int i = 0; i < 3; ++i) {
        auto prepared =
            ScriptDomain::prepare(host->peekGenerationNumber(), host->scriptCore(), host->world());
        REQUIRE_MESSAGE(prepared, prepared.error().message);
        REQUIRE((*prepared)->waitForBackgroundWarm(std::chrono::steady_clock::now() +
                                                   std::chrono::seconds(60)));
        prepared->reset(); // unloads it on this thread, while the worker sleeps out the delay
        ScriptDomain::collectGarbage();
    }
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    CHECK(ScriptDomain::liveDomains() == 1);
    CHECK(ScriptDomain::liveGcHandles() == handles);
    CHECK(ScriptDomain::takeUnloadFailures().empty());
    host->tick(0.016);
    CHECK(host->domain()->generation() == 1);
}
