#include "supervisor.hpp"

#include "crash_report.hpp"
#include "host/runtime/script_watchdog.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

namespace scripthost {

namespace {

volatile sig_atomic_t g_child = 0;    // the running host's pid (0: none)
volatile sig_atomic_t g_stopping = 0; // a stop signal came: do not restart

// SIGINT/SIGTERM in the parent: a signal another process sent to the parent alone goes on to
// the host; one the terminal sent (si_code SI_KERNEL) reached the host already.
void onStopSignal(int sig, siginfo_t* info, void* /*context*/) {
    g_stopping = 1;
    const bool fromProcess =
        info != nullptr && (info->si_code == SI_USER || info->si_code == SI_QUEUE);
    if (fromProcess && g_child > 0)
        ::kill(static_cast<pid_t>(g_child), sig);
}

void handleStopSignals() {
    struct sigaction action {};
    action.sa_sigaction = &onStopSignal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

// The parent's own log lines, in the host's format (it has no logger: it never starts a thread).
void log(bool json, const char* level, const std::string& message) {
    const auto now = std::chrono::system_clock::now();
    std::string line;
    if (json) {
        line = nlohmann::json{{"time",
                               fmt::format("{:%FT%T}Z",
                                           std::chrono::floor<std::chrono::milliseconds>(now))},
                              {"level", level},
                              {"message", message},
                              {"source", "supervisor"}}
                   .dump() +
               "\n";
    } else {
        line = fmt::format("[{:%H:%M:%S}] [{}] supervisor: {}\n",
                           std::chrono::floor<std::chrono::milliseconds>(now), level, message);
    }
    (void)!::write(STDERR_FILENO, line.data(), line.size());
}

// The terminal as the parent found it, to give back after a host crashed with it in raw mode
// on the alternate screen.
class TerminalState {
public:
    TerminalState() : saved_(::isatty(STDIN_FILENO) && ::tcgetattr(STDIN_FILENO, &mode_) == 0) {}
    void restore() const {
        if (!saved_)
            return;
        ::tcsetattr(STDIN_FILENO, TCSANOW, &mode_);
        if (::isatty(STDOUT_FILENO)) {
            static constexpr char kReset[] = "\x1b[0m\x1b[?25h\x1b[?1049l";
            (void)!::write(STDOUT_FILENO, kReset, sizeof kReset - 1);
        }
    }

private:
    termios mode_{};
    bool saved_ = false;
};

// How a child ended, for the log.
std::string describeEnd(int status) {
    if (WIFSIGNALED(status)) {
        return fmt::format("killed by {}{}", signalName(WTERMSIG(status)),
                           WCOREDUMP(status) ? " (core dumped)" : "");
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == kHostageExitCode)
        return fmt::format("ended by the last resort (exit {}: script code held the main thread)",
                           kHostageExitCode);
    return fmt::format("exited with code {}", WEXITSTATUS(status));
}

bool isCrash(int status) {
    return WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == kHostageExitCode);
}

int exitCodeOf(int status) {
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

// Runs the host in a child; returns its wait status (or -1 when fork failed).
int runChild(const std::function<int(const RestartInfo&)>& host, const RestartInfo& info) {
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0)
        return -1;
    if (child == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) // the parent died before prctl
            ::_exit(1);
        struct sigaction deflt {};
        deflt.sa_handler = SIG_DFL;
        sigaction(SIGINT, &deflt, nullptr);
        sigaction(SIGTERM, &deflt, nullptr);
        std::fflush(nullptr);
        std::exit(host(info)); // normal exit: the host's own cleanup runs
    }
    g_child = child;
    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            status = 0;
            break;
        }
    }
    g_child = 0;
    return status;
}

} // namespace

std::string signalName(int signal) {
    if (const char* abbrev = ::sigabbrev_np(signal))
        return fmt::format("SIG{}", abbrev);
    return fmt::format("signal {}", signal);
}

int supervise(const SupervisorOptions& options,
              const std::function<int(const RestartInfo&)>& host) {
    handleStopSignals();
    const TerminalState terminal;
    RestartInfo info;
    std::deque<std::chrono::steady_clock::time_point> crashes;
    for (;;) {
        const int status = runChild(host, info);
        if (status < 0) {
            log(options.jsonLog, "error",
                fmt::format("cannot start the host: {}", std::strerror(errno)));
            return 1;
        }
        if (!isCrash(status) || g_stopping)
            return exitCodeOf(status);

        terminal.restore();
        const auto now = std::chrono::steady_clock::now();
        crashes.push_back(now);
        while (!crashes.empty() && now - crashes.front() > options.crashWindow)
            crashes.pop_front();
        CrashReport report = collectCrashReport(options.crashReportFolder);
        info.restarts += 1;
        info.lastCrash = describeEnd(status);
        info.lastCrashReport = report.file;
        std::string message = fmt::format("the host crashed: {}", info.lastCrash);
        if (!report.topFrames.empty())
            message += fmt::format("; top native frames: {}", report.topFrames);
        if (!report.file.empty())
            message += fmt::format("; Mono's crash report: {}", report.file.string());
        if (static_cast<int>(crashes.size()) >= options.maxCrashes) {
            log(options.jsonLog, "critical",
                fmt::format("{}; {} crashes within {} s: not restarting it (fix the cause, then "
                            "start it again; the state of the last save is kept)",
                            message, crashes.size(), options.crashWindow.count()));
            return exitCodeOf(status);
        }
        log(options.jsonLog, "error",
            fmt::format("{}; restarting it with the state of its last save (restart {})", message,
                        info.restarts));
    }
}

} // namespace scripthost
