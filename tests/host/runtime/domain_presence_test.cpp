// DomainPresence: which host thread is inside which domain (every switch goes through
// mono::enterDomain), so that an unload waits until none is (docs/MONO.md §2).
#include "../support/domain_hand_off_support.hpp"
#include "runtime/generation_domain.hpp"
#include "runtime/runtime_state.hpp"

#include <atomic>
#include <mono/metadata/threads.h>
#include <thread>

using namespace scripthost;
using namespace scripthost::testing;

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
        touchDomain(domain);
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
