#pragma once
// Supervisor: `scripthost run` watches over itself. The process forks before it touches Mono;
// the parent never loads the runtime, never starts a thread, and restarts the host (the child)
// when it dies by a signal (a crash: Mono's crash handler ends with SIGABRT) or by the last
// resort's hostage exit (kHostageExitCode). The restarted host resumes from the project's state
// file, keeps the control socket path, and knows how many restarts came before it.
//
// The parent forwards SIGINT and SIGTERM that were sent to it alone (kill, systemd); a terminal's
// Ctrl+C already reaches the whole process group, so it is not sent twice (the host takes a
// second stop signal as "exit now"). A child that dies after the parent was told to stop is
// not restarted. The child's exit status is passed through: its exit code, or 128 + the signal
// that ended it. After a crash the terminal is given back (mode, cursor, main screen) before the
// host is started again. The child dies with the parent (PR_SET_PDEATHSIG: SIGTERM, so it still
// saves its state). More than `maxCrashes` crashes within `crashWindow` stop the supervisor:
// the host is crashing at start, and another restart would only crash again.

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

namespace scripthost {

/// What a (re)started host is told about the runs before it.
struct RestartInfo {
    int restarts = 0;      ///< 0: the first start
    std::string lastCrash; ///< e.g. "killed by SIGSEGV (core dumped)"; empty on the first start
    std::filesystem::path
        lastCrashReport; ///< Mono's crash report of the last crash, moved aside; may be empty
};

struct SupervisorOptions {
    int maxCrashes = 3; ///< crashes within crashWindow that stop it
    std::chrono::seconds crashWindow{60};
    bool jsonLog = false; ///< log lines as JSON objects (--log-format json)
    /// Where Mono's crash reports (mono_crash.*.json, written in the host's working folder)
    /// are moved after a crash; empty: left where they are.
    std::filesystem::path crashReportFolder;
};

/// Runs `host` in a child process and restarts it as described above; returns the exit code
/// to end with. `host` runs in the child only, with what it needs to know about earlier runs.
[[nodiscard]] int supervise(const SupervisorOptions& options,
                            const std::function<int(const RestartInfo&)>& host);

/// "SIGSEGV", "SIGABRT", … ("signal 42" for one without a name).
[[nodiscard]] std::string signalName(int signal);

} // namespace scripthost
