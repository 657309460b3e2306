#pragma once
// What the scheduler does with a thread: the CPU time it has had and whether it is running (or
// ready to), blocked, or stopped.
//
// A deadline on a thread's work measured by the wall clock also counts the time other threads
// and processes held every CPU while this one was ready to run. On a loaded machine (a parallel
// build, `ctest -j3` on two cores) that can be seconds, and none of it is the thread's doing. A
// thread's own time is what it ran plus what it spent blocked (sleeping, waiting for a lock or
// for I/O) — the two figures below, sampled by another thread.

#include <chrono>
#include <optional>
#include <pthread.h>
#include <sys/types.h>

namespace scripthost::posix {

/// The kernel's id of the calling thread (gettid(2)).
[[nodiscard]] pid_t currentThreadId() noexcept;

/// CPU time thread `thread` of this process has used so far; nullopt if it cannot be read.
[[nodiscard]] std::optional<std::chrono::nanoseconds> threadCpuTime(pthread_t thread) noexcept;

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

} // namespace scripthost::posix
