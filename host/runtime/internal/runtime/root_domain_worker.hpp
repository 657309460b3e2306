#pragma once
// RootDomainWorker: one long-lived thread, attached to Mono's root domain, that runs jobs in
// the order they were submitted. The unloader (DomainUnloader) and a reload's background
// warm-up (ScriptDomain::warmUp) each own one. One thread for the process's life rather than
// one per job: a thread per job costs its creation, its attach to Mono and, in glibc, a
// malloc arena of its own each time (RSS that only grows). Attached to the root domain, so
// ScriptThreads (which counts threads started inside a generation's domain) leaves it out; a
// job enters whatever domain it works in.
//
// The hand-off: the worker goes back to the root domain *before* a job's future is ready.
// Whoever waits on the future may unload the domain the job worked in as soon as it returns;
// a thread still inside that domain then makes Mono free an object the thread still points at
// (docs/MONO.md §2, "A thread still inside a dying domain"). A std::packaged_task would make
// its future ready inside the job, before the worker could switch back: that was the crash.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
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

    /// Queues `job`; the future is ready when it has run and the worker is back in the root
    /// domain (an exception the job threw is in the future). Starts the thread on first use.
    std::future<void> submit(std::move_only_function<void()> job);

    /// Finishes the queue and stops the thread (before the runtime shuts down).
    void stop();

    /// Tests only: every worker sleeps this long right after a job's future is made ready,
    /// before it takes the next job — where, when the future was made ready before the switch
    /// back to the root domain, the thread sat inside the job's domain while its waiter went
    /// on to unload it. Zero (the default) in the product.
    static void setHandOffDelayForTesting(std::chrono::milliseconds delay) noexcept;

private:
    struct Job {
        std::move_only_function<void()> work;
        std::promise<void> done;
    };
    void run();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> queue_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace scripthost::mono
