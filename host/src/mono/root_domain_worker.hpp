#pragma once
// BackgroundJit: one thread, for the process's life, that JIT-compiles a new generation's
// ScriptCore code while the game loop ticks (ScriptDomain::warmUp). One long-lived thread
// rather than one per reload: a thread per reload costs its creation, its attach to Mono and,
// in glibc, a malloc arena of its own each time (RSS that only grows).

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>

namespace scripthost::mono {

/// Owned by the RuntimeState (never destroyed: stop() runs before the runtime shuts down).
/// The main thread submits; the worker, attached to the root domain, runs the jobs in order.
class BackgroundJit {
public:
    BackgroundJit() = default;
    BackgroundJit(const BackgroundJit&) = delete;
    BackgroundJit& operator=(const BackgroundJit&) = delete;

    /// Queues `job` (it enters whatever domain it works in, and leaves it); the future is
    /// ready when it has run. Starts the thread on first use.
    std::future<void> submit(std::function<void()> job);

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
