#pragma once
// ScriptWatchdog: stops a script that keeps the main thread past a time budget.
//
// The main thread arms the watchdog around every call into script code (a phase, a
// constructor, a reload's hooks) with a ScriptWatchdog::Scope. A thread of the
// watchdog's own checks the armed scope a few times per budget; once it has run longer
// than the budget (the main thread's own time: what it ran plus what it was blocked, not what
// it waited for a CPU other processes held), the watchdog aborts the main thread's managed code
// (Thread.Abort, through mono_thread_stop). The managed dispatcher catches the abort,
// resets it, disables the script and reports it with its stack, and the frame goes on;
// a constructor or OnAfterReload that is stopped fails its reload, which rolls back.
//
// A script can refuse to be stopped: an endless loop in a `finally` or `catch` block
// runs on after the abort (and Thread.ResetAbort is refused when scripts load). If the
// main thread is still held `grace` after the abort, the host cannot get it back: the
// watchdog reports the phase and every managed stack and calls onHostage, which by
// default ends the process with kHostageExitCode — a supervisor (or the user) restarts
// it, from its state file when it has one. Hanging forever is never the outcome.

#include "scripthost/game/error.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace scripthost {

/// The exit code of a host that a script held hostage (see ScriptWatchdog).
inline constexpr int kHostageExitCode = 70; // EX_SOFTWARE

struct WatchdogOptions {
    /// Script code that runs longer than this in one go is aborted.
    std::chrono::milliseconds budget{1000};
    /// After the abort: how long the script may still hold the main thread before the
    /// watchdog gives up on it (onHostage).
    std::chrono::milliseconds grace{2000};
    /// Called on the watchdog's thread with what was running and for how long; by
    /// default logs, prints the managed stacks and ends the process (kHostageExitCode).
    std::function<void(const std::string& phase, std::chrono::milliseconds held)> onHostage;
};

class ScriptWatchdog {
public:
    /// Starts watching the calling thread, which must be the main thread, with the Mono
    /// runtime running. One watchdog at a time per process.
    [[nodiscard]] static Result<std::unique_ptr<ScriptWatchdog>> start(WatchdogOptions options);
    ~ScriptWatchdog();
    ScriptWatchdog(const ScriptWatchdog&) = delete;
    ScriptWatchdog& operator=(const ScriptWatchdog&) = delete;

    /// Managed code caught and reset the watchdog's abort: the armed scope gets a fresh
    /// budget, so the next runaway in the same phase is stopped too. (Main thread.)
    static void abortHandled() noexcept;

    /// Whether a watchdog runs in this process.
    [[nodiscard]] static bool running() noexcept;

    [[nodiscard]] const WatchdogOptions& options() const noexcept;
    /// Aborts issued so far.
    [[nodiscard]] std::uint64_t aborts() const noexcept;

    /// Arms the running watchdog (if any) while script code runs on the main thread.
    /// Only the outermost scope counts; on other threads, or with no watchdog, a scope
    /// does nothing. `phase` must outlive the scope (a string literal).
    class Scope {
    public:
        explicit Scope(const char* phase) noexcept;
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        bool counted_ = false;   // on the watched thread, with a watchdog running
        bool outermost_ = false; // armed the watchdog
    };

    struct Impl;

private:
    explicit ScriptWatchdog(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace scripthost
