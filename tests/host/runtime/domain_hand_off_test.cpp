// The hand-off between a thread that worked inside a generation's domain and whoever unloads
// that domain (docs/MONO.md §2, "A thread still inside a dying domain"): the worker threads
// leave a job's domain before its future is ready, and an unload waits for any host thread
// still inside. RootDomainWorker's test delay holds each worker right after it made a job's
// future ready — where, before the fix, the thread still sat in the job's domain while the
// waiter went on to unload it (SIGSEGV on Mono's "Domain unloader" thread at the collection
// after the unload, every run with the delay).
#include "../support/mono_test_support.hpp"
#include "runtime/checked_call.hpp"
#include "runtime/domain_presence.hpp"
#include "runtime/generation_domain.hpp"
#include "runtime/root_domain_worker.hpp"
#include "runtime/runtime_state.hpp"

#include <atomic>
#include <mono/metadata/class.h>
#include <mono/metadata/object.h>
#include <mono/metadata/threads.h>
#include <thread>

using namespace scripthost;
using namespace scripthost::testing;
using scripthost::mono::RootDomainWorker;

namespace {

/// Sets RootDomainWorker's hand-off delay for one test.
struct HandOffDelay {
    explicit HandOffDelay(std::chrono::milliseconds delay) {
        RootDomainWorker::setHandOffDelayForTesting(delay);
    }
    ~HandOffDelay() { RootDomainWorker::setHandOffDelayForTesting({}); }
    HandOffDelay(const HandOffDelay&) = delete;
    HandOffDelay& operator=(const HandOffDelay&) = delete;
};

// Something of the domain on the thread that is in it: a string and a boxed int, objects the
// unload frees.
void touch(MonoDomain* domain) {
    mono::enterDomain(domain);
    MonoString* s = mono_string_new(domain, "inside");
    int n = 7;
    MonoObject* boxed = mono_value_box(domain, mono_get_int32_class(), &n);
    REQUIRE(s != nullptr);
    REQUIRE(boxed != nullptr);
}

} // namespace

TEST_CASE("DomainHandOff: a worker is back in the root domain before its job's future is ready") {
    (void)startBareRuntime();
    HandOffDelay delay(std::chrono::milliseconds(300));
    auto made = mono::GenerationDomain::create(900);
    REQUIRE_MESSAGE(made, made.error().message);
    MonoDomain* domain = made->get();
    RootDomainWorker worker;
    std::future<void> done = worker.submit([domain] { touch(domain); });
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

TEST_CASE("DomainHandOff: an unload waits until a host thread inside the domain has left it") {
    (void)startBareRuntime();
    auto made = mono::GenerationDomain::create(902);
    REQUIRE_MESSAGE(made, made.error().message);
    MonoDomain* domain = made->get();
    MonoDomain* root = mono::runtimeState().root;
    std::atomic<bool> inside{false};
    std::atomic<bool> leaving{false};
    std::thread visitor([&] {
        MonoThread* self = mono_thread_attach(root);
        touch(domain);
        inside = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        leaving = true;
        mono::enterDomain(root);
        mono_thread_detach(self);
    });
    while (!inside)
        std::this_thread::yield();
    CHECK(mono::threadsIn(domain) == 1);
    auto unloaded = mono::GenerationDomain::unloadNow(made->release(), "the test's domain");
    CHECK_MESSAGE(unloaded, (unloaded ? "" : unloaded.error().message));
    CHECK(leaving.load()); // the unload began only once the visitor had left
    visitor.join();
    ScriptDomain::collectGarbage();
    CHECK(mono::threadsIn(domain) == 0);
}
