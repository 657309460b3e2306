#pragma once
// RootDomainWorker: one long-lived thread, attached to Mono's root domain, that runs jobs in
// the order they were submitted. The unloader (DomainUnloader) and a reload's background
// warm-up (ScriptDomain::warmUp) each own one. One thread for the process's life rather than
// one per job: a thread per job costs its creation, its attach to Mono and, in glibc, a
// malloc arena of its own each time (RSS that only grows). Attached to the root domain, so
// ScriptThreads (which counts threads started inside a generation's domain) leaves it out; a
// job enters whatever domain it works in, and the worker goes back to the root domain after.

#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

namespace scripthost::mono {

/// Never destroyed with work in flight: its owner calls stop() before the runtime shuts down.
class RootDomainWorker {
public:
    RootDomainWorker() = default;
    RootDomainWorker(const RootDomainWorker&) = delete;
    RootDomainWorker& operator=(const RootDomainWorker&) = delete;

    /// Queues `job`; the future is ready when it has run. Starts the thread on first use.
    std::future<void> submit(std::packaged_task<void()> job);

    /// Finishes the queue and stops the thread (before the runtime shuts down).
    void stop();

private:
    void run();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::packaged_task<void()>> queue_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace scripthost::mono
