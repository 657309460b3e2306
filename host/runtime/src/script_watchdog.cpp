#include "host/runtime/script_watchdog.hpp"

#include "host/runtime/mono_runtime.hpp"
#include "host/safety/last_resort.hpp"
#include "posix/thread_scheduling.hpp"
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
    pid_t mainThreadId = 0;             // the kernel's id, for its run state
    std::uint32_t mainThreadObject = 0; // GC handle of the main thread's root-domain Thread
    MonoMethod* checkpoint = nullptr;   // a corlib method: entering it delivers a stray abort
    MonoMethod* resetAbort = nullptr;   // System.Threading.Thread.ResetAbort
    std::atomic<std::uint64_t> aborts{0};

    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;
    bool armed = false;
    const char* phase = "";
    Clock::time_point armedAt;
    // The main thread's own time in the armed scope (see charge), and at the abort.
    Clock::duration charged{};
    Clock::duration chargedAtAbort{};
    // The last check (or sample while nothing was armed): when, the main thread's schedule and
    // state then, and the arming it counted for.
    Clock::time_point checkedAt;
    std::optional<posix::ThreadSchedule> scheduleAtCheck;
    posix::ThreadRunState stateAtCheck = posix::ThreadRunState::Unknown;
    Clock::duration waitedForCpu{}; // in the armed scope, not charged (for the report)
    std::uint64_t armings = 0;      // arm() calls; a check of a new arming starts from armedAt
    std::uint64_t checkedArming = 0;
    bool abortIssued = false;
    bool pausedForDebugger = false; // the last check found a debugger client attached
    std::thread thread;

    void arm(const char* what) {
        std::lock_guard lock(mutex);
        armed = true;
        phase = what;
        armedAt = Clock::now();
        charged = Clock::duration::zero();
        abortIssued = false;
        ++armings;
        armLastResort();
    }

    // Adds the main thread's own time since the last check to `charged` (posix::ownTimeBetween):
    // the CPU time it used plus, if it is blocked now, the time it spent neither running nor
    // waiting for a CPU (sleeping, waiting for a lock or for I/O are the script's doing). Time it
    // waited, ready to run, for a CPU that other threads or processes held is not: on a loaded
    // machine that wait alone passed a budget, and a script was stopped — or a host ended as
    // held hostage — for the machine's load. Nor is time it was stopped (SIGSTOP, a tracer).
    // The watchdog's own thread may be kept from its checks by the same load, so one interval
    // can be long: the kernel's figures, not the interval, say what the main thread did in it.
    // A check of a new arming charges at most the wall-clock time since the arming: the main
    // thread reads no clock when it arms, so script calls cost what they did (sample() keeps
    // the figures fresh while nothing is armed).
    void charge(Clock::time_point now) {
        const auto before = scheduleAtCheck;
        const auto wall = now - checkedAt;
        sample(now);
        Clock::duration own = wall;
        Clock::duration waited{};
        if (before && scheduleAtCheck && stateAtCheck != posix::ThreadRunState::Unknown) {
            own = std::chrono::duration_cast<Clock::duration>(
                posix::ownTimeBetween(*before, *scheduleAtCheck, stateAtCheck, wall));
            waited = std::chrono::duration_cast<Clock::duration>(scheduleAtCheck->waitedForCpu -
                                                                 before->waitedForCpu);
        } // else no figures: the wall clock, as before
        if (std::exchange(checkedArming, armings) != armings) {
            own = std::min<Clock::duration>(own, now - armedAt);
            waited = std::min<Clock::duration>(waited, now - armedAt);
            waitedForCpu = Clock::duration::zero();
        }
        charged += std::max(own, Clock::duration::zero());
        waitedForCpu += std::max(waited, Clock::duration::zero());
    }

    // The main thread's schedule and state as /proc has them now (two reads; no lock needed).
    struct MainThreadSample {
        std::optional<posix::ThreadSchedule> schedule;
        posix::ThreadRunState state = posix::ThreadRunState::Unknown;
    };
    [[nodiscard]] MainThreadSample readMainThread() const {
        return {posix::threadSchedule(mainThreadId), posix::threadRunState(mainThreadId)};
    }
    // `read`, taken at `now`, as the start of the next check's interval (mutex held).
    void record(MainThreadSample read, Clock::time_point now) {
        scheduleAtCheck = std::move(read.schedule);
        stateAtCheck = read.state;
        checkedAt = now;
    }
    void sample(Clock::time_point now) { record(readMainThread(), now); }

    // The main thread is back within what is left of its budget and grace, plus the report,
    // or the process ends, even if this watchdog's thread (attached to Mono, so Mono may
    // suspend it) never wakes up again. Each check moves the deadline on by the time it did not
    // charge.
    void armLastResort() const noexcept {
        if (!endsProcess || MonoRuntime::debuggerAttached())
            return;
        const auto left = abortIssued ? options.grace - (charged - chargedAtAbort)
                                      : options.budget - charged + options.grace;
        const auto from = armings == checkedArming ? checkedAt : armedAt;
        LastResort::arm(LastResort::Deadline::ScriptCall,
                        from + std::max<Clock::duration>(left, Clock::duration::zero()) +
                            kHostageReportLimit + kWatchdogSlack,
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
            // No managed code reset it (a constructor or hook run through mono_runtime_invoke
            // ended in it, or it landed in the checkpoint): the thread still reads "abort
            // requested", and Mono ignores every later abort of a thread in that state — the
            // next runaway would never be stopped (docs/MONO.md §9).
            exc = nullptr;
            mono_runtime_invoke(resetAbort, nullptr, nullptr, &exc);
        }
    }

    // A debugger client may hold the main thread at a breakpoint (or step through it) for as
    // long as the user likes, and the agent tells no one when it does: while a client is
    // attached the budget does not run, nor the grace of an abort already issued, nor the last
    // resort's deadline (docs/MONO.md §11).
    void pauseForDebugger(Clock::time_point now) {
        charged = Clock::duration::zero();
        chargedAtAbort = Clock::duration::zero();
        checkedArming = armings;
        sample(now);
        if (!std::exchange(pausedForDebugger, true)) {
            LastResort::disarm(LastResort::Deadline::ScriptCall);
            spdlog::info("watchdog: paused while a debugger is attached");
        }
    }

    // One check of an armed scope (mutex held): aborts it past the budget, gives up on it past
    // the grace after the abort.
    void check(std::unique_lock<std::mutex>& lock, Clock::time_point now) {
        charge(now);
        if (std::exchange(pausedForDebugger, false))
            spdlog::info("watchdog: debugger detached, watching again");
        if (!abortIssued && charged >= options.budget) {
            spdlog::warn(
                "watchdog: {} has run for {} ms (budget {} ms; {} ms more it waited for "
                "a CPU not counted); stopping it",
                phase, std::chrono::duration_cast<std::chrono::milliseconds>(charged).count(),
                options.budget.count(),
                std::chrono::duration_cast<std::chrono::milliseconds>(waitedForCpu).count());
            mono_thread_stop(
                reinterpret_cast<MonoThread*>(mono_gchandle_get_target(mainThreadObject)));
            abortIssued = true;
            chargedAtAbort = charged;
            aborts.fetch_add(1, std::memory_order_relaxed);
        } else if (abortIssued && charged - chargedAtAbort >= options.grace) {
            const std::string what = phase;
            const auto held = std::chrono::duration_cast<std::chrono::milliseconds>(charged);
            armed = false; // reported once
            lock.unlock();
            options.onHostage(what, held);
            lock.lock();
            return;
        }
        armLastResort(); // moved on by the time this check did not charge
    }

    void run() {
        MonoThread* self = mono_thread_attach(mono::runtimeState().root);
        const auto tick = std::clamp<Clock::duration>(
            options.budget / 10, std::chrono::milliseconds(2), std::chrono::milliseconds(100));
        std::unique_lock lock(mutex);
        while (!stopping) {
            wake.wait_for(lock, tick);
            if (stopping)
                continue;
            const auto now = Clock::now();
            if (!armed) {
                // The next arming's first check starts from here. Read without the lock: the
                // main thread's arm() takes it, and must not wait for this thread when the
                // machine's load preempts it in the middle of two /proc reads.
                lock.unlock();
                MainThreadSample read = readMainThread();
                lock.lock();
                if (!armed && !stopping)
                    record(std::move(read), now);
                continue;
            }
            if (MonoRuntime::debuggerAttached())
                pauseForDebugger(now);
            else
                check(lock, now);
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
    impl->mainThreadId = posix::currentThreadId();
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
    MonoClass* thread = mono_class_from_name(mono_get_corlib(), "System.Threading", "Thread");
    impl->resetAbort = thread ? mono_class_get_method_from_name(thread, "ResetAbort", 0) : nullptr;
    if (impl->checkpoint == nullptr || impl->resetAbort == nullptr) {
        mono_gchandle_free(impl->mainThreadObject);
        return fail("the watchdog cannot find System.Environment.TickCount or "
                    "System.Threading.Thread.ResetAbort in corlib");
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
        watchdog->charged = Clock::duration::zero();
        watchdog->abortIssued = false;
        ++watchdog->armings;
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
