#pragma once
// What the DomainHandOff tests share (docs/MONO.md §2, "A thread still inside a dying domain"):
// RootDomainWorker's hand-off delay for one test, and touching a domain from the thread inside.
#include "mono_test_support.hpp"
#include "runtime/checked_call.hpp"
#include "runtime/domain_presence.hpp"
#include "runtime/root_domain_worker.hpp"

#include <chrono>
#include <mono/metadata/class.h>
#include <mono/metadata/object.h>

namespace scripthost::testing {

/// Sets RootDomainWorker's hand-off delay for one test: each worker is held right after it
/// made a job's future ready, where, before the fix, it still sat in the job's domain while the
/// waiter went on to unload it.
struct HandOffDelay {
    explicit HandOffDelay(std::chrono::milliseconds delay) {
        mono::RootDomainWorker::setHandOffDelayForTesting(delay);
    }
    ~HandOffDelay() { mono::RootDomainWorker::setHandOffDelayForTesting({}); }
    HandOffDelay(const HandOffDelay&) = delete;
    HandOffDelay& operator=(const HandOffDelay&) = delete;
};

/// Enters `domain` on this thread and makes objects of it there (a string and a boxed int, what
/// the unload frees).
inline void touchDomain(MonoDomain* domain) {
    mono::enterDomain(domain);
    MonoString* s = mono_string_new(domain, "inside");
    int n = 7;
    MonoObject* boxed = mono_value_box(domain, mono_get_int32_class(), &n);
    REQUIRE(s != nullptr);
    REQUIRE(boxed != nullptr);
}

} // namespace scripthost::testing
