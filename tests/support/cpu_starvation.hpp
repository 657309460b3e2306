#pragma once
// CpuStarvation: makes the calling thread wait for a CPU most of the time, as a host does on a
// machine busy with other work, without making it block.

#include "posix/thread_scheduling.hpp"

#include <atomic>
#include <chrono>
#include <ctime>
#include <doctest/doctest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace scripthost::testing {

/// While it lives, the calling thread shares one CPU with `hogs` busy threads that the
/// scheduler prefers by far: the caller drops to nice 19 (about 1.5 % of a CPU against each
/// hog at nice 0) and all of them are pinned to the first CPU the process may use. The caller
/// stays pinned and at nice 19 afterwards (a thread cannot raise its priority back without
/// privileges): construct it on a thread of the test's own.
class CpuStarvation {
public:
    explicit CpuStarvation(int hogs = 2) {
        cpu_set_t allowed;
        CPU_ZERO(&allowed);
        REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
        int cpu = 0;
        while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &allowed))
            ++cpu;
        REQUIRE(cpu < CPU_SETSIZE);
        CPU_ZERO(&one_);
        CPU_SET(cpu, &one_);
        REQUIRE(pthread_setaffinity_np(pthread_self(), sizeof one_, &one_) == 0);
        // The hogs first: a new thread inherits its creator's nice value.
        hogIds_ = std::vector<std::atomic<pid_t>>(static_cast<std::size_t>(hogs)); // zeros
        for (int i = 0; i < hogs; ++i)
            hogs_.emplace_back([this, i] {
                pthread_setaffinity_np(pthread_self(), sizeof one_, &one_);
                hogIds_[static_cast<std::size_t>(i)].store(posix::currentThreadId());
                while (!stop_.load(std::memory_order_relaxed)) {
                }
            });
        for (const std::atomic<pid_t>& id : hogIds_) { // each hog has said who it is
            while (id.load() == 0)
                std::this_thread::yield();
        }
        REQUIRE(setpriority(PRIO_PROCESS, static_cast<id_t>(posix::currentThreadId()), 19) == 0);
    }

    /// The CPU time the hogs have had so far, all together (the kernel's figure: the CPU the
    /// caller shares with them served them that long).
    [[nodiscard]] std::chrono::nanoseconds hogsRan() const {
        std::chrono::nanoseconds ran{};
        for (const std::atomic<pid_t>& id : hogIds_) {
            const auto schedule = posix::threadSchedule(id.load());
            REQUIRE(schedule.has_value());
            ran += schedule->ran;
        }
        return ran;
    }
    ~CpuStarvation() {
        stop_ = true;
        for (std::thread& hog : hogs_)
            hog.join();
    }
    CpuStarvation(const CpuStarvation&) = delete;
    CpuStarvation& operator=(const CpuStarvation&) = delete;

private:
    cpu_set_t one_{};
    std::atomic<bool> stop_{false};
    std::vector<std::atomic<pid_t>> hogIds_; // sized before the hogs start, never after
    std::vector<std::thread> hogs_;
};

/// CPU time the calling thread has used.
inline std::chrono::nanoseconds threadCpuTime() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

} // namespace scripthost::testing
