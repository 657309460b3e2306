// RootDomainWorker: jobs run in order on one thread attached to the root domain, and the
// worker is back in the root domain before a job's future is ready (docs/MONO.md §2, "A thread
// still inside a dying domain"). The hand-off delay holds each worker right after it made a
// future ready: before the fix, every run with the delay crashed at the collection after the
// unload (SIGSEGV on Mono's "Domain unloader" thread).
#include "../support/domain_hand_off_support.hpp"
#include "runtime/generation_domain.hpp"
#include "runtime/runtime_state.hpp"

#include <future>

using namespace scripthost;
using namespace scripthost::testing;
using scripthost::mono::RootDomainWorker;

TEST_CASE("DomainHandOff: a worker is back in the root domain before its job's future is ready") {
    (void)startBareRuntime();
    HandOffDelay delay(std::chrono::milliseconds(300));
    auto made = mono::GenerationDomain::create(900);
    REQUIRE_MESSAGE(made, made.error().message);
    MonoDomain* domain = made->get();
    RootDomainWorker worker;
    std::future<void> done = worker.submit([domain] { touchDomain(domain); });
    done.get();
    // The worker now sleeps out the delay: had it made the future ready inside the job, it
    // would still be in `domain` for the next 300 ms.
    CHECK(mono::threadsIn(domain) == 0);
    auto unloaded = mono::GenerationDomain::unloadNow(made->release(), "the test's domain");
    CHECK_MESSAGE(unloaded, (unloaded ? "" : unloaded.error().message));
    ScriptDomain::collectGarbage(); // what crashed: a collection after the unload
    ScriptDomain::collectGarbage();
    worker.stop();
    CHECK(ScriptDomain::liveDomains() == 0);
}

TEST_CASE("DomainHandOff: a job that throws gives its exception to the future, and the worker "
          "is back in the root domain") {
    (void)startBareRuntime();
    auto made = mono::GenerationDomain::create(901);
    REQUIRE_MESSAGE(made, made.error().message);
    MonoDomain* domain = made->get();
    RootDomainWorker worker;
    std::future<void> done = worker.submit([domain] {
        mono::enterDomain(domain);
        throw std::runtime_error("the job failed");
    });
    CHECK_THROWS_WITH(done.get(), "the job failed");
    CHECK(mono::threadsIn(domain) == 0);
    CHECK(mono::GenerationDomain::unloadNow(made->release(), "the test's domain"));
    worker.stop();
}
