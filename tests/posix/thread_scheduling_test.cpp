// threadCpuTime and threadRunState: what the kernel says of a thread, read from another one.
// Real threads and the real scheduler: a thread starved of CPU gets little of it while it is
// still runnable; a sleeping thread is blocked; a busy one runnable.
#include "posix/thread_scheduling.hpp"
#include "../support/cpu_starvation.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <doctest/doctest.h>
#include <mutex>
#include <thread>

using namespace scripthost;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using posix::ThreadRunState;

namespace {

// Polls until `state` is what thread `tid` is in, for at most five seconds.
bool becomes(pid_t tid, ThreadRunState state) {
    const auto deadline = Clock::now() + 5s;
    while (Clock::now() < deadline) {
        if (posix::threadRunState(tid) == state)
            return true;
        std::this_thread::sleep_for(1ms);
    }
    return false;
}

} // namespace

TEST_CASE("threadCpuTime: a thread starved of CPU for half a second ran a small part of it, and "
          "another thread reads the same figure") {
    std::chrono::nanoseconds ranOwnClock{};
    std::optional<std::chrono::nanoseconds> before;
    std::optional<std::chrono::nanoseconds> after;
    std::thread starved([&] {
        testing::CpuStarvation starvation;
        const pthread_t self = pthread_self();
        before = posix::threadCpuTime(self);
        const auto cpuStart = testing::threadCpuTime();
        const auto start = Clock::now();
        while (Clock::now() - start < 500ms) { // busy: runnable all along
        }
        ranOwnClock = testing::threadCpuTime() - cpuStart;
        after = posix::threadCpuTime(self);
    });
    starved.join();
    REQUIRE(before.has_value());
    REQUIRE(after.has_value());
    const auto ran = *after - *before;
    INFO("ran " << std::chrono::duration_cast<std::chrono::milliseconds>(ran).count()
                << " ms of 500");
    CHECK(ran < 250ms); // the hogs had the CPU most of the time
    CHECK(ran > 0ms);
    // Read through pthread_getcpuclockid, the same clock as the thread's own.
    CHECK(ran - ranOwnClock < 5ms);
    CHECK(ranOwnClock - ran < 5ms);
}

TEST_CASE("threadRunState: a busy thread is runnable, a sleeping one blocked, one waiting on a "
          "condition blocked") {
    std::atomic<pid_t> tid{0};
    std::atomic<int> step{0}; // 0: busy, 1: sleep, 2: wait on the condition, 3: done
    std::mutex mutex;
    std::condition_variable wake;
    std::thread worker([&] {
        tid = posix::currentThreadId();
        while (step.load() == 0) {
        }
        while (step.load() == 1)
            std::this_thread::sleep_for(5ms);
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return step.load() == 3; });
    });
    while (tid.load() == 0)
        std::this_thread::yield();
    CHECK(becomes(tid, ThreadRunState::Runnable));
    step = 1;
    CHECK(becomes(tid, ThreadRunState::Blocked));
    step = 2;
    std::this_thread::sleep_for(20ms); // out of the sleep loop, into the wait
    CHECK(becomes(tid, ThreadRunState::Blocked));
    {
        std::lock_guard lock(mutex);
        step = 3;
    }
    wake.notify_one();
    worker.join();
    CHECK(posix::threadRunState(tid) == ThreadRunState::Unknown); // gone
}

TEST_CASE("threadRunState: no figure for a thread that is not one of this process") {
    CHECK(posix::threadRunState(0) == ThreadRunState::Unknown);
    CHECK(posix::threadRunState(-1) == ThreadRunState::Unknown);
    CHECK(posix::threadRunState(1) == ThreadRunState::Unknown); // init is not our thread
}
