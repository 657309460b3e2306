#include "posix/thread_scheduling.hpp"

#include "posix/unique_fd.hpp"

#include <array>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <string_view>
#include <sys/syscall.h>
#include <unistd.h>

namespace scripthost::posix {

pid_t currentThreadId() noexcept {
    return static_cast<pid_t>(::syscall(SYS_gettid));
}

std::optional<std::chrono::nanoseconds> threadCpuTime(pthread_t thread) noexcept {
    clockid_t clock{};
    if (pthread_getcpuclockid(thread, &clock) != 0)
        return std::nullopt;
    timespec used{};
    if (clock_gettime(clock, &used) != 0)
        return std::nullopt;
    return std::chrono::seconds(used.tv_sec) + std::chrono::nanoseconds(used.tv_nsec);
}

ThreadRunState threadRunState(pid_t tid) noexcept {
    if (tid <= 0)
        return ThreadRunState::Unknown;
    std::array<char, 64> path{};
    std::snprintf(path.data(), path.size(), "/proc/self/task/%d/stat", static_cast<int>(tid));
    const UniqueFd file(::open(path.data(), O_RDONLY | O_CLOEXEC));
    if (!file)
        return ThreadRunState::Unknown;
    // "<tid> (<name>) <state> …": the name may hold spaces and parentheses, the state follows
    // the last ')'. 512 bytes reach well past it.
    std::array<char, 512> text{};
    const ssize_t read = ::read(file.get(), text.data(), text.size());
    if (read <= 0)
        return ThreadRunState::Unknown;
    const std::string_view stat(text.data(), static_cast<std::size_t>(read));
    const auto close = stat.rfind(')');
    if (close == std::string_view::npos || close + 2 >= stat.size())
        return ThreadRunState::Unknown;
    switch (stat[close + 2]) {
    case 'R':
        return ThreadRunState::Runnable;
    case 'S': // interruptible sleep
    case 'D': // uninterruptible: disk I/O, some locks
    case 'I': // idle kernel wait
    case 'W': // paging (old kernels)
        return ThreadRunState::Blocked;
    case 'T':
    case 't':
        return ThreadRunState::Stopped;
    default: // 'Z', 'X': gone
        return ThreadRunState::Unknown;
    }
}

} // namespace scripthost::posix
