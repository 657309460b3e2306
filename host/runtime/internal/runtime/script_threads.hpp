#pragma once
// ScriptThreads: the managed threads script code started, by the generation that started
// them, so that unloading a generation can stop them within a bound and name them.

#include "runtime/gc_handle.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/profiler.h>
#include <mutex>
#include <string>
#include <vector>

namespace scripthost::mono {

/// How long an unload waits for the threads its generation started to end once aborted.
inline constexpr std::chrono::milliseconds kThreadStopBudget{2000};

/// One thread a generation started and that had not ended when the generation let go.
struct StartedThread {
    std::uintptr_t tid = 0; ///< the native thread id, as Mono's profiler names it
    std::string name;       ///< Thread.Name, or the start method "Class.Method" when unnamed
    GcHandle thread;        ///< weak: the System.Threading.Thread object
};

/// What stopping a generation's threads came to.
struct ThreadStopOutcome {
    std::vector<std::string> stopped; ///< names of the threads that ended
    std::vector<std::string> running; ///< names of those still running at the deadline
};

/// Owned by the RuntimeState. Mono's profiler tells it when a managed thread starts (on
/// that thread, in the domain the thread was started from) and when it stops; threads
/// that start in the root domain (Mono's own, the thread pool's, the host's) are not
/// kept. Every member may be called from any thread (its own lock).
class ScriptThreads {
public:
    ScriptThreads() = default;
    ScriptThreads(const ScriptThreads&) = delete;
    ScriptThreads& operator=(const ScriptThreads&) = delete;

    /// Registers the profiler callbacks; once, after the JIT has started.
    void install(MonoDomain* root);

    /// The threads started from `domain` that are still running, in the order they
    /// started, with their names, taken
    /// out of the registry (the caller stops them). Call before the domain is unloaded,
    /// while the Thread objects are alive.
    [[nodiscard]] std::vector<StartedThread> takeRunning(MonoDomain* domain);

    /// Aborts `threads` and waits until they have all ended, at most until `deadline`.
    /// A thread that will not stop (a loop in a finally block) is left running.
    [[nodiscard]] ThreadStopOutcome stop(const std::vector<StartedThread>& threads,
                                         std::chrono::steady_clock::time_point deadline);

    /// Threads that were asked to stop and did not: the process must not wait for them
    /// at exit (mono_jit_cleanup waits for every foreground thread).
    [[nodiscard]] std::size_t unstoppable() const;

private:
    static void onStarted(MonoProfiler* profiler, std::uintptr_t tid);
    static void onStopped(MonoProfiler* profiler, std::uintptr_t tid);
    void started(std::uintptr_t tid);
    void ended(std::uintptr_t tid);

    struct Running {
        MonoDomain* domain = nullptr;
        GcHandle thread;
        std::uint64_t order = 0; // the n-th thread recorded
    };

    mutable std::mutex mutex_;
    std::condition_variable ended_;
    MonoDomain* root_ = nullptr;
    std::map<std::uintptr_t, Running> running_; // started in a script domain, not yet ended
    std::size_t unstoppable_ = 0;
    std::uint64_t startedCount_ = 0;
};

} // namespace scripthost::mono
