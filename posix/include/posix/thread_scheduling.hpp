#pragma once
// What the scheduler does with a thread: the CPU time it has had and whether it is running (or
// ready to), blocked, or stopped.
//
// A deadline on a thread's work measured by the wall clock also counts the time other threads
// and processes held every CPU while this one was ready to run. On a loaded machine (a parallel
// build, `ctest -j3` on two cores) that can be seconds, and none of it is the thread's doing. A
// thread's own time is what it ran plus what it spent blocked (sleeping, waiting for a lock or
// for I/O): the kernel counts what it ran and what it waited for a CPU, and its state says
// whether it is blocked — figures another thread can sample.

#include <chrono>
#include <optional>
#include <pthread.h>
#include <sys/types.h>

namespace scripthost::posix {

/// The kernel's id of the calling thread (gettid(2)).
[[nodiscard]] pid_t currentThreadId() noexcept;

enum class ThreadRunState {
    Runnable, ///< on a CPU, or ready and waiting for one
    Blocked,  ///< sleeping: a sleep, a lock, a condition, I/O
    Stopped,  ///< by a signal (SIGSTOP, SIGTSTP) or a tracer
    Unknown,  ///< gone, or not a thread of this process
};

/// What thread `tid` of this process is doing now (the state field of
/// /proc/self/task/<tid>/stat). Opens and reads a small /proc file: cheap, but not for every
/// call of a hot path.
[[nodiscard]] ThreadRunState threadRunState(pid_t tid) noexcept;

/// What the scheduler has given thread `tid` so far: the CPU time it ran and the time it waited,
/// ready to run, for a CPU others held (/proc/self/task/<tid>/schedstat).
struct ThreadSchedule {
    std::chrono::nanoseconds ran{};
    std::chrono::nanoseconds waitedForCpu{};
};

/// Thread `tid`'s schedule so far; nullopt if the kernel keeps no such figures
/// (CONFIG_SCHED_INFO off) or `tid` is not a thread of this process.
[[nodiscard]] std::optional<ThreadSchedule> threadSchedule(pid_t tid) noexcept;

/// A thread's own time over `wall` of wall-clock time, from its schedule at both ends and its
/// state at the end: what it ran, plus — when it is blocked at the end — what it spent neither
/// running nor waiting for a CPU (sleeping, waiting for a lock or for I/O). Time it waited for a
/// CPU is never its own. Blocked time is counted only when the thread is blocked at the end, so
/// a process stopped (SIGSTOP) while the thread was running is not taken for a thread that
/// slept. The result is within [0, wall].
[[nodiscard]] std::chrono::nanoseconds ownTimeBetween(const ThreadSchedule& before,
                                                      const ThreadSchedule& after,
                                                      ThreadRunState stateAfter,
                                                      std::chrono::nanoseconds wall) noexcept;

} // namespace scripthost::posix
