#pragma once
// LastResort: ending the host never hangs.
//
// One thread of its own, started once per process and never attached to Mono (so Mono can
// neither suspend it — for a GC, a thread dump, Environment.Exit's "suspend all other
// threads" — nor wait for it at shutdown), that holds a few deadlines. Code that is about to do
// something that may block on the way out arms a deadline first; if the deadline is still armed
// when it passes, the thread writes one log line to stderr with write(2) and calls _exit with
// the deadline's exit code. It takes no lock another thread could hold: no spdlog, no malloc, no
// Mono, no stdio.
//
// The deadlines:
// - ScriptCall: armed by the watchdog around every call into script code (budget + grace + the
//   time its report may take), so a script holds the main thread for a bounded time even when
//   the watchdog's own (Mono-attached) thread is stuck.
// - HostageExit: armed by the watchdog before its report and thread dump, which can block.
// - StopSignal: armed by the SIGINT/SIGTERM handler; the host must be gone within the stop grace.
//
// Arming and disarming are a few atomic stores: cheap enough for every script call and safe in
// a signal handler. Until start() has run, arm() does nothing.

#include "scripthost/game/error.hpp"

#include <atomic>
#include <chrono>
#include <string_view>

namespace scripthost {

/// The exit code of a host that ended because a stop signal (SIGTERM, SIGINT) was not obeyed
/// within the stop grace, or came twice: 128 + the signal (143 for SIGTERM, 130 for SIGINT), what
/// a shell reports for a process killed by that signal.
inline constexpr int kStopSignalExitBase = 128;

class LastResort {
public:
    enum class Deadline { ScriptCall, HostageExit, StopSignal };

    /// Starts the thread (later calls return at once). `jsonLines`: its lines are JSON objects
    /// like the daemon's `--log-format json`, else "[HH:MM:SS.mmm] [critical] …".
    [[nodiscard]] static Result<void> start(bool jsonLines = false);
    [[nodiscard]] static bool started() noexcept;

    /// Unless disarmed first, once `when` has passed the process writes `why` (a string that
    /// lives as long as the process) with the exit code and ends with `_exit(code)`. Re-arming
    /// replaces the deadline. Any thread, and signal handlers. Does nothing before start().
    static void arm(Deadline which, std::chrono::steady_clock::time_point when, int code,
                    const char* why) noexcept;
    static void disarm(Deadline which) noexcept;

    /// Handles SIGINT and SIGTERM (after start()): the first signal sets `stop` (which must live
    /// as long as the process) and gives the host `grace` to be gone, else it exits with
    /// kStopSignalExitBase + the signal; a second signal ends it at once with that code.
    [[nodiscard]] static Result<void> handleStopSignals(std::atomic<bool>& stop,
                                                        std::chrono::milliseconds grace);
    /// The first stop signal received (SIGTERM, SIGINT), or 0.
    [[nodiscard]] static int stopSignal() noexcept;
};

} // namespace scripthost
