// sleepUntil: wakes at its deadline even when signal handlers interrupt the sleep (as Mono's
// stop-the-world suspend signal does), where a relative sleep resumed after each handler wakes
// late by the handlers' time.
#include "posix/sleep_until.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <ctime>
#include <doctest/doctest.h>
#include <pthread.h>
#include <thread>

using scripthost::posix::sleepUntil;
using Clock = std::chrono::steady_clock;

namespace {

constexpr auto kHandlerTime = std::chrono::milliseconds(40);
std::atomic<int> g_handled{0};

// Stands in for a thread stopped by a stop-the-world collection: the handler returns only
// after kHandlerTime (nanosleep is async-signal-safe).
void slowHandler(int) {
    timespec pause{0, std::chrono::nanoseconds(kHandlerTime).count()};
    while (nanosleep(&pause, &pause) != 0) {
    }
    g_handled.fetch_add(1);
}

/// Installs slowHandler for SIGUSR1 for the scope (no SA_RESTART).
class SlowSignal {
public:
    SlowSignal() {
        struct sigaction action {};
        action.sa_handler = &slowHandler;
        sigemptyset(&action.sa_mask);
        REQUIRE(sigaction(SIGUSR1, &action, &previous_) == 0);
    }
    ~SlowSignal() { sigaction(SIGUSR1, &previous_, nullptr); }
    SlowSignal(const SlowSignal&) = delete;
    SlowSignal& operator=(const SlowSignal&) = delete;

private:
    struct sigaction previous_ {};
};

} // namespace

TEST_CASE("sleepUntil: three slow signal handlers during the sleep do not make it wake late") {
    SlowSignal installed;
    g_handled = 0;
    const pthread_t sleeper = pthread_self();
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::milliseconds(250);
    // Three interruptions, each after the previous handler has returned: 120 ms of handlers
    // that end well before the deadline.
    std::thread interrupter([&] {
        for (int i = 0; i < 3; ++i) {
            std::this_thread::sleep_until(start + std::chrono::milliseconds(10 + 50 * i));
            pthread_kill(sleeper, SIGUSR1);
        }
    });
    sleepUntil(deadline);
    const auto woke = Clock::now();
    interrupter.join();

    CHECK(g_handled.load() == 3); // the handlers ran, on this thread, during the sleep
    CHECK(woke >= deadline);
    // A sleep resumed with its remaining time would wake ~120 ms late (the handlers' time).
    const auto late = std::chrono::duration_cast<std::chrono::milliseconds>(woke - deadline);
    CHECK_MESSAGE(late < std::chrono::milliseconds(60), "woke " << late.count() << " ms late");
}

TEST_CASE("sleepUntil: a deadline already passed returns at once") {
    const auto before = Clock::now();
    sleepUntil(before - std::chrono::seconds(5));
    sleepUntil(Clock::time_point{}); // the clock's epoch
    CHECK(Clock::now() - before < std::chrono::seconds(1));
}
