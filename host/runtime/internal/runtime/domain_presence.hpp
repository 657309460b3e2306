#pragma once
// DomainPresence: which app domain each of the host's own threads is in, so that no domain
// is unloaded while one of them is still inside it (docs/MONO.md §2, "A thread still inside
// a dying domain").
//
// mono_domain_set makes a domain current on a thread by pointing that thread's Thread object
// (a managed object of the root domain) at the domain's default context, an object of the
// domain. Mono's unload aborts the threads it knows are in the domain (threads started there,
// thread-pool work), but a thread attached from C++ that merely set the domain is not one of
// them: the unload frees the context object while the Thread object still points at it, and
// the next collection that scans that Thread object reads freed memory (SIGSEGV on Mono's
// "Domain unloader" thread). So every domain switch the host makes goes through
// mono::enterDomain, which records it here, and an unload first waits until no host thread
// is recorded in the dying domain.

#include <chrono>
#include <mono/metadata/appdomain.h>

namespace scripthost::mono {

/// Records that the calling thread's current domain is now `domain` (enterDomain calls
/// it after every switch). Lock-free; any thread.
void recordDomainEntered(MonoDomain* domain) noexcept;

/// Waits until no host thread other than the caller is recorded in `domain`, at most until
/// `deadline`; returns whether none is. Any thread (the unloader).
[[nodiscard]] bool waitUntilNoThreadIn(MonoDomain* domain,
                                       std::chrono::steady_clock::time_point deadline);

/// How many host threads other than the caller are recorded in `domain` right now (tests).
[[nodiscard]] int threadsIn(MonoDomain* domain) noexcept;

} // namespace scripthost::mono
