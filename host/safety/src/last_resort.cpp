#include "host/safety/last_resort.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string>
#include <unistd.h>

namespace scripthost {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kDeadlines = 3;
// The thread looks at its deadlines at least this often (an arm() does not wake it).
constexpr int kTickMs = 50;

struct Slot {
    std::atomic<std::int64_t> deadline{0}; // steady clock, ns; 0: disarmed
    std::atomic<int> code{0};
    std::atomic<const char*> why{nullptr};
};

// Process-wide and never destroyed: the thread and signal handlers may run during exit().
struct State {
    std::atomic<bool> started{false};
    bool jsonLines = false;
    int wakeRead = -1;  // the thread polls it; signal handlers write the signal's number
    int wakeWrite = -1; // non-blocking
    long utcOffsetSeconds = 0;
    std::array<Slot, kDeadlines> slots;
    std::atomic<std::atomic<bool>*> stopFlag{nullptr};
    std::atomic<std::int64_t> stopGraceMs{0};
    std::atomic<int> stopSignal{0};
    std::atomic<int> stopSignals{0};
};

State& state() noexcept {
    static State* s = new State();
    return *s;
}

std::int64_t toNs(Clock::time_point when) noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(when.time_since_epoch()).count();
}

Slot& slot(LastResort::Deadline which) noexcept {
    return state().slots[static_cast<std::size_t>(which)];
}

const char* signalName(int sig) noexcept {
    switch (sig) {
    case SIGTERM:
        return "SIGTERM";
    case SIGINT:
        return "SIGINT";
    default:
        return "a stop signal";
    }
}

// Appends to a fixed buffer, truncating; no allocation.
struct Line {
    char text[1536];
    std::size_t size = 0;
    void append(std::string_view part) noexcept {
        for (char c : part) {
            if (size + 1 < sizeof text)
                text[size++] = c;
        }
    }
    void appendJsonEscaped(std::string_view part) noexcept {
        for (char c : part) {
            if (c == '"' || c == '\\') {
                append("\\");
                append(std::string_view(&c, 1));
            } else if (static_cast<unsigned char>(c) < 0x20) {
                append(" ");
            } else {
                append(std::string_view(&c, 1));
            }
        }
    }
};

// The time as the daemon's log lines show it, computed without the C library's time-zone lock
// (a thread Mono suspended could hold it): UTC ISO 8601 for JSON, local HH:MM:SS.mmm for text.
void appendTime(Line& line, bool json) noexcept {
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    const long ms = now.tv_nsec / 1'000'000;
    char buffer[64];
    if (json) {
        using namespace std::chrono;
        const sys_seconds seconds{std::chrono::seconds(now.tv_sec)};
        const auto day = floor<days>(seconds);
        const year_month_day date{day};
        const hh_mm_ss time{seconds - day};
        std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02lld:%02lld:%02lld.%03ldZ",
                      static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                      static_cast<unsigned>(date.day()),
                      static_cast<long long>(time.hours().count()),
                      static_cast<long long>(time.minutes().count()),
                      static_cast<long long>(time.seconds().count()), ms);
    } else {
        const long long local = (now.tv_sec + state().utcOffsetSeconds) % 86400;
        std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%02lld.%03ld", local / 3600,
                      local / 60 % 60, local % 60, ms);
    }
    line.append(buffer);
}

// Writes one log line to stderr, unless stderr would block (a pipe no one reads): the thread
// must get to its _exit whatever the reader does.
void writeLine(const char* level, std::string_view message, bool afterDump = false) noexcept {
    const bool json = state().jsonLines;
    Line line;
    if (json) {
        line.append("{\"time\":\"");
        appendTime(line, true);
        line.append("\",\"level\":\"");
        line.append(level);
        line.append("\",\"message\":\"");
        line.appendJsonEscaped(message);
        line.append("\"}\n");
    } else {
        if (afterDump)
            line.append("\n"); // Mono's thread dump may have left a line unfinished
        line.append("[");
        appendTime(line, false);
        line.append("] [");
        line.append(level);
        line.append("] ");
        line.append(message);
        line.append("\n");
    }
    pollfd out{STDERR_FILENO, POLLOUT, 0};
    if (poll(&out, 1, 0) != 1 || (out.revents & POLLOUT) == 0)
        return;
    (void)!write(STDERR_FILENO, line.text, line.size);
}

[[noreturn]] void fire(LastResort::Deadline which, int code, const char* why) noexcept {
    char message[1024];
    if (which == LastResort::Deadline::StopSignal) {
        const int sig = state().stopSignal.load();
        if (state().stopSignals.load() > 1) {
            std::snprintf(message, sizeof message,
                          "last resort: a second %s; the host exits now with code %d, without "
                          "stopping the loop or saving the state",
                          signalName(sig), code);
        } else {
            std::snprintf(message, sizeof message,
                          "last resort: the host has not exited %lld ms after %s (its main "
                          "thread is stuck: in script code the watchdog cannot stop, or on the "
                          "way out); it exits now with code %d, without saving the state",
                          static_cast<long long>(state().stopGraceMs.load()), signalName(sig),
                          code);
        }
    } else {
        std::snprintf(message, sizeof message, "last resort: %s; the host exits now with code %d",
                      why != nullptr ? why : "a deadline passed", code);
    }
    writeLine("critical", message, which == LastResort::Deadline::HostageExit);
    _exit(code);
}

void announceSignal(int sig) noexcept {
    char message[512];
    std::snprintf(message, sizeof message,
                  "%s: stopping the loop; a host that has not exited within %lld ms ends with "
                  "code %d (a second signal ends it at once)",
                  signalName(sig), static_cast<long long>(state().stopGraceMs.load()),
                  kStopSignalExitBase + sig);
    writeLine("warning", message);
}

[[noreturn]] void watch() noexcept {
    // Signals go to other threads; this one only waits and, at worst, exits.
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    State& s = state();
    for (;;) {
        const std::int64_t now = toNs(Clock::now());
        std::int64_t earliest = INT64_MAX;
        for (std::size_t i = 0; i < s.slots.size(); ++i) {
            Slot& armed = s.slots[i];
            const std::int64_t deadline = armed.deadline.load(std::memory_order_acquire);
            if (deadline == 0)
                continue;
            if (deadline > now) {
                earliest = std::min(earliest, deadline);
                continue;
            }
            const int code = armed.code.load(std::memory_order_relaxed);
            const char* why = armed.why.load(std::memory_order_relaxed);
            if (armed.deadline.load(std::memory_order_acquire) == deadline) // not re-armed since
                fire(static_cast<LastResort::Deadline>(i), code, why);
        }
        int timeout = kTickMs;
        if (earliest != INT64_MAX)
            timeout = static_cast<int>(
                std::min<std::int64_t>(timeout, (earliest - now + 999'999) / 1'000'000));
        pollfd wake{s.wakeRead, POLLIN, 0};
        if (poll(&wake, 1, timeout) == 1) {
            unsigned char signals[16];
            const ssize_t got = read(s.wakeRead, signals, sizeof signals);
            // The first signal is announced; a second one armed an immediate deadline.
            for (ssize_t i = 0; i < got; ++i) {
                if (i == 0 && s.stopSignals.load() == 1)
                    announceSignal(signals[i]);
            }
        }
    }
}

extern "C" void onStopSignal(int sig) {
    const int savedErrno = errno;
    State& s = state();
    int none = 0;
    s.stopSignal.compare_exchange_strong(none, sig);
    const int count = s.stopSignals.fetch_add(1) + 1;
    if (std::atomic<bool>* stop = s.stopFlag.load())
        stop->store(true);
    const auto now = Clock::now();
    LastResort::arm(LastResort::Deadline::StopSignal,
                    count == 1 ? now + std::chrono::milliseconds(s.stopGraceMs.load()) : now,
                    kStopSignalExitBase + s.stopSignal.load(), nullptr);
    const unsigned char byte = static_cast<unsigned char>(sig);
    (void)!write(s.wakeWrite, &byte, 1);
    errno = savedErrno;
}

} // namespace

Result<void> LastResort::start(bool jsonLines) {
    State& s = state();
    if (s.started.load())
        return {};
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
        return fail(std::string("the last resort's pipe: ") + std::strerror(errno));
    s.wakeRead = fds[0];
    s.wakeWrite = fds[1];
    s.jsonLines = jsonLines;
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    if (localtime_r(&now, &local) != nullptr)
        s.utcOffsetSeconds = local.tm_gmtoff;
    pthread_t thread;
    const int error = pthread_create(
        &thread, nullptr, [](void*) -> void* { watch(); }, nullptr);
    if (error != 0)
        return fail(std::string("the last resort's thread: ") + std::strerror(error));
    pthread_detach(thread);
    s.started.store(true);
    return {};
}

bool LastResort::started() noexcept {
    return state().started.load();
}

void LastResort::arm(Deadline which, std::chrono::steady_clock::time_point when, int code,
                     const char* why) noexcept {
    if (!state().started.load(std::memory_order_relaxed))
        return;
    Slot& armed = slot(which);
    armed.deadline.store(0, std::memory_order_relaxed);
    armed.code.store(code, std::memory_order_relaxed);
    armed.why.store(why, std::memory_order_relaxed);
    armed.deadline.store(std::max<std::int64_t>(toNs(when), 1), std::memory_order_release);
}

void LastResort::disarm(Deadline which) noexcept {
    slot(which).deadline.store(0, std::memory_order_release);
}

Result<void> LastResort::handleStopSignals(std::atomic<bool>& stop,
                                           std::chrono::milliseconds grace) {
    State& s = state();
    if (!s.started.load())
        return fail("the last resort must run before it handles stop signals");
    s.stopFlag.store(&stop);
    s.stopGraceMs.store(grace.count());
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    sigaddset(&action.sa_mask, SIGINT); // one handler at a time per thread
    sigaddset(&action.sa_mask, SIGTERM);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &action, nullptr) != 0 || sigaction(SIGTERM, &action, nullptr) != 0)
        return fail(std::string("sigaction: ") + std::strerror(errno));
    return {};
}

int LastResort::stopSignal() noexcept {
    return state().stopSignal.load();
}

} // namespace scripthost
