#pragma once
// DomainUnloader: unloads old app domains on a thread of its own, so the game loop does
// not wait for Mono's unload (finalizers, two collections, freeing the domain's memory).
//
// Mono's mono_domain_try_unload already does the work on an "unload thread" of its own
// and makes the caller wait for it; calling it from this thread instead of the main
// thread lets the main thread go on with the next frame in the new domain. The caller
// must first have dropped everything it held in the domain (GC handles, cached class,
// method and field pointers, thunks) — see ScriptDomain::Impl::release — and never use
// the domain again. Collections the unload runs still stop the world briefly, the main
// thread included.

#include "runtime/root_domain_worker.hpp"
#include "runtime/script_threads.hpp"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mono/metadata/appdomain.h>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace scripthost::mono {

/// How long an unload waits for host threads to leave the domain (DomainPresence) before it
/// gives up and leaves the domain loaded.
inline constexpr std::chrono::milliseconds kPresenceBudget{2000};

/// Owned by the RuntimeState (one per process, never destroyed: stop() runs before the
/// runtime shuts down, never at static exit). The main thread submits and waits; the
/// unloader's own thread (a RootDomainWorker, started with the first unload) runs the
/// unloads in order; the mutex guards the count and the failures they share.
class DomainUnloader {
public:
    DomainUnloader() = default;
    DomainUnloader(const DomainUnloader&) = delete;
    DomainUnloader& operator=(const DomainUnloader&) = delete;

    /// Queues `domain` for unloading; `label` names it in messages. `threads` (taken from
    /// ScriptThreads) are stopped first.
    void submit(MonoDomain* domain, std::string label, std::vector<StartedThread> threads);

    /// Waits (at most kPresenceBudget) until no host thread is inside `domain`, stops
    /// `threads` (abort, then at most kThreadStopBudget), then unloads `domain`
    /// with mono_domain_try_unload, on the calling thread. When a thread does not stop,
    /// the domain is not unloaded (Mono's own unload would wait for it forever) and stays
    /// loaded until the process exits. Logs what it stopped; returns the failure, or "".
    [[nodiscard]] static std::string unload(MonoDomain* domain, const std::string& label,
                                            const std::vector<StartedThread>& threads);

    /// Waits until every queued unload has finished, at most until `deadline`.
    /// Returns whether the queue is empty.
    bool waitIdle(std::chrono::steady_clock::time_point deadline);

    /// Domains queued or being unloaded.
    [[nodiscard]] std::size_t pending() const;

    /// Messages of unloads that failed since the last call (Mono keeps such a domain).
    [[nodiscard]] std::vector<std::string> takeFailures();

    /// Finishes the queue and stops the thread (before the runtime shuts down).
    void stop();

private:
    mutable std::mutex mutex_;
    std::condition_variable idle_;
    std::size_t pending_ = 0; // unloads submitted and not finished
    std::vector<std::string> failures_;
    RootDomainWorker worker_; // its jobs use the members above
};

} // namespace scripthost::mono
