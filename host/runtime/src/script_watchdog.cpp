#include "host/runtime/script_watchdog.hpp"

#include "host/runtime/mono_runtime.hpp"
#include "host/safety/last_resort.hpp"
#include "runtime/checked_call.hpp"
#include "runtime/runtime_state.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/class.h>
#include <mono/metadata/object.h>
#include <mono/metadata/threads.h>
#include <mutex>
#include <spdlog/spdlog.h>
#include <thread>

namespace scripthost {

using Clock = std::chrono::steady_clock;

namespace {

// How long exitHostage's report (log line, flush, thread dump) may take before the last resort
// ends the process without it.
constexpr auto kHostageReportLimit = std::chrono::milliseconds(1500);
// The watchdog's thread checks a few times per budget, at most every 100 ms; beyond that and
// its report, a script still holding the main thread means the watchdog's thread is stuck.
constexpr auto kWatchdogSlack = std::chrono::milliseconds(500);

} // namespace

struct ScriptWatchdog::Impl {
    WatchdogOptions options;
    bool endsProcess = false; // the default onHostage: the last resort backs it up
    std::thread::id mainThread;
    std::uint32_t mainThreadObject = 0; // GC handle of the main thread's root-domain Thread
    MonoMethod* checkpoint = nullptr;   // a corlib method: entering it delivers a stray abort
    std::atomic<std::uint64_t> aborts{0};

    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;
    bool armed = false;
    const char* phase = "";
    Clock::time_point armedAt;
    bool abortIssued = false;
    Clock::time_point abortedAt;
    bool pausedForDebugger = false; // the last check found a debugger client attached
    std::thread thread;

    void arm(const char* what) {
        std::lock_guard lock(mutex);
        armed = true;
        phase = what;
        armedAt = Clock::now();
        abortIssued = false;
        armLastResort();
    }

    // The main thread is back within budget + grace + the report, or the process ends, even
    // if this watchdog's thread (attached to Mono, so Mono may suspend it) never wakes up.
    void armLastResort() const noexcept {
        if (!endsProcess || MonoRuntime::debuggerAttached())
            return;
        LastResort::arm(LastResort::Deadline::ScriptCall,
                        armedAt + options.budget + options.grace + kHostageReportLimit +
                            kWatchdogSlack,
                        kHostageExitCode,
                        "a script has held the main thread past the watchdog's budget and grace, "
                        "and the watchdog has not ended the host (its thread is blocked or was "
                        "suspended by Mono)");
    }

    void disarm() {
        bool stray = false;
        {
            std::lock_guard lock(mutex);
            armed = false;
            stray = std::exchange(abortIssued, false);
        }
        LastResort::disarm(LastResort::Deadline::ScriptCall);
        if (stray) {
            // The abort may have come as the script code returned and not been delivered
            // yet: take it now, here, rather than in the next script call.
            MonoObject* exc = nullptr;
            mono_runtime_invoke(checkpoint, nullptr, nullptr, &exc);
        }
    }

    void run() {
        MonoThread* self = mono_thread_attach(mono::runtimeState().root);
        const auto tick = std::clamp<Clock::duration>(
            options.budget / 10, std::chrono::milliseconds(2), std::chrono::milliseconds(100));
        std::unique_lock lock(mutex);
        while (!stopping) {
            wake.wait_for(lock, tick);
            if (!armed || stopping)
                continue;
            const auto now = Clock::now();
            if (MonoRuntime::debuggerAttached()) {
                // A debugger client may hold the main thread at a breakpoint (or step through
                // it) for as long as the user likes, and the agent tells no one when it does:
                // while a client is attached the budget does not run, nor the grace of an
                // abort already issued, nor the last resort's deadline (docs/MONO.md §11).
                armedAt = now;
                abortedAt = now;
                if (!std::exchange(pausedForDebugger, true)) {
                    LastResort::disarm(LastResort::Deadline::ScriptCall);
                    spdlog::info("watchdog: paused while a debugger is attached");
                }
                continue;
            }
            if (std::exchange(pausedForDebugger, false)) {
                armLastResort();
                spdlog::info("watchdog: debugger detached, watching again");
            }
            if (!abortIssued && now - armedAt >= options.budget) {
                spdlog::warn(
                    "watchdog: {} has run for {} ms (budget {} ms); stopping it", phase,
                    std::chrono::duration_cast<std::chrono::milliseconds>(now - armedAt).count(),
                    options.budget.count());
                mono_thread_stop(
                    reinterpret_cast<MonoThread*>(mono_gchandle_get_target(mainThreadObject)));
                abortIssued = true;
                abortedAt = now;
                aborts.fetch_add(1, std::memory_order_relaxed);
            } else if (abortIssued && now - abortedAt >= options.grace) {
                const std::string what = phase;
                const auto held =
                    std::chrono::duration_cast<std::chrono::milliseconds>(now - armedAt);
                armed = false; // reported once
                lock.unlock();
                options.onHostage(what, held);
                lock.lock();
            }
        }
        lock.unlock();
        mono_thread_detach(self);
    }
};

namespace {

// The running watchdog lives in the runtime's state (mono::RuntimeState::watchdog).
std::atomic<ScriptWatchdog::Impl*>& activeWatchdog() noexcept {
    return mono::runtimeState().watchdog;
}
// Nesting of Scopes on the watched thread: only the outermost arms the watchdog. Per
// thread, so it outlives any one watchdog (a scope may end after its watchdog stopped).
thread_local int t_depth = 0;

void exitHostage(const std::string& phase, std::chrono::milliseconds held) {
    // Everything below may block: the logger's lock (held by a thread Mono suspended), a full
    // stderr pipe, the thread dump (the finalizer thread suspends every thread in turn).
    LastResort::arm(LastResort::Deadline::HostageExit, Clock::now() + kHostageReportLimit,
                    kHostageExitCode,
                    "the watchdog's report of a script that will not stop did not finish in time "
                    "(blocked logging or thread dump)");
    spdlog::critical(
        "watchdog: {} has held the main thread for {} ms and did not stop when aborted (an "
        "endless loop in a finally or catch block?). The host cannot take the main thread "
        "back and exits now with code {}; managed stacks follow.",
        phase, held.count(), kHostageExitCode);
    spdlog::default_logger()->flush();
    mono_threads_request_thread_dump(); // every thread prints its managed stack
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(kHostageExitCode);
}

} // namespace

Result<std::unique_ptr<ScriptWatchdog>> ScriptWatchdog::start(WatchdogOptions options) {
    MonoDomain* root = mono::runtimeState().root;
    if (root == nullptr)
        return fail("the watchdog needs the Mono runtime running");
    if (options.budget <= std::chrono::milliseconds::zero())
        return fail("the watchdog's budget must be positive");
    if (activeWatchdog().load() != nullptr)
        return fail("a watchdog is already running in this process");
    auto impl = std::make_unique<Impl>();
    impl->options = std::move(options);
    if (!impl->options.onHostage) {
        impl->options.onHostage = exitHostage;
        impl->endsProcess = true;
    }
    impl->mainThread = std::this_thread::get_id();
    // The main thread's Thread object of the root domain lives as long as the process
    // (one of a script domain would die with its generation).
    MonoDomain* current = mono_domain_get();
    mono::enterDomain(root);
    impl->mainThreadObject =
        mono_gchandle_new(reinterpret_cast<MonoObject*>(mono_thread_current()), false);
    mono::enterDomain(current);
    MonoClass* environment = mono_class_from_name(mono_get_corlib(), "System", "Environment");
    impl->checkpoint =
        environment ? mono_class_get_method_from_name(environment, "get_TickCount", 0) : nullptr;
    if (impl->checkpoint == nullptr) {
        mono_gchandle_free(impl->mainThreadObject);
        return fail("the watchdog cannot find System.Environment.TickCount in corlib");
    }
    Impl* raw = impl.get();
    impl->thread = std::thread([raw] { raw->run(); });
    activeWatchdog().store(raw);
    return std::unique_ptr<ScriptWatchdog>(new ScriptWatchdog(std::move(impl)));
}

ScriptWatchdog::ScriptWatchdog(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ScriptWatchdog::~ScriptWatchdog() {
    activeWatchdog().store(nullptr);
    LastResort::disarm(LastResort::Deadline::ScriptCall);
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stopping = true;
    }
    impl_->wake.notify_one();
    impl_->thread.join();
    mono_gchandle_free(impl_->mainThreadObject);
}

void ScriptWatchdog::abortHandled() noexcept {
    Impl* watchdog = activeWatchdog().load(std::memory_order_acquire);
    if (watchdog == nullptr)
        return;
    std::lock_guard lock(watchdog->mutex);
    if (watchdog->armed) {
        watchdog->armedAt = Clock::now();
        watchdog->abortIssued = false;
        watchdog->armLastResort();
    }
}

bool ScriptWatchdog::running() noexcept {
    return activeWatchdog().load() != nullptr;
}

const WatchdogOptions& ScriptWatchdog::options() const noexcept {
    return impl_->options;
}

std::uint64_t ScriptWatchdog::aborts() const noexcept {
    return impl_->aborts.load(std::memory_order_relaxed);
}

ScriptWatchdog::Scope::Scope(const char* phase) noexcept {
    Impl* watchdog = activeWatchdog().load(std::memory_order_acquire);
    if (watchdog == nullptr || std::this_thread::get_id() != watchdog->mainThread)
        return;
    counted_ = true;
    if (t_depth++ == 0) {
        outermost_ = true;
        watchdog->arm(phase);
    }
}

ScriptWatchdog::Scope::~Scope() {
    if (!counted_)
        return;
    --t_depth;
    if (!outermost_)
        return;
    if (Impl* watchdog = activeWatchdog().load(std::memory_order_acquire))
        watchdog->disarm();
}

} // namespace scripthost
