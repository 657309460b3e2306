#include "posix/thread_scheduling.hpp"

#include "posix/unique_fd.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
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

std::optional<ThreadSchedule> threadSchedule(pid_t tid) noexcept {
    if (tid <= 0)
        return std::nullopt;
    std::array<char, 64> path{};
    std::snprintf(path.data(), path.size(), "/proc/self/task/%d/schedstat", static_cast<int>(tid));
    const UniqueFd file(::open(path.data(), O_RDONLY | O_CLOEXEC));
    if (!file)
        return std::nullopt;
    // "<ns on a CPU> <ns waiting on a run queue> <timeslices>\n"
    std::array<char, 128> text{};
    const ssize_t read = ::read(file.get(), text.data(), text.size());
    if (read <= 0)
        return std::nullopt;
    const char* at = text.data();
    const char* end = text.data() + read;
    std::uint64_t figures[2]{};
    for (std::uint64_t& figure : figures) {
        while (at < end && *at == ' ')
            ++at;
        const auto [next, error] = std::from_chars(at, end, figure);
        if (error != std::errc{})
            return std::nullopt;
        at = next;
    }
    return ThreadSchedule{std::chrono::nanoseconds(figures[0]),
                          std::chrono::nanoseconds(figures[1])};
}

std::chrono::nanoseconds ownTimeBetween(const ThreadSchedule& before, const ThreadSchedule& after,
                                        ThreadRunState stateAfter,
                                        std::chrono::nanoseconds wall) noexcept {
    using std::chrono::nanoseconds;
    if (wall <= nanoseconds::zero())
        return nanoseconds::zero();
    const nanoseconds ran = std::max(after.ran - before.ran, nanoseconds::zero());
    const nanoseconds waited =
        std::max(after.waitedForCpu - before.waitedForCpu, nanoseconds::zero());
    nanoseconds own = ran;
    if (stateAfter == ThreadRunState::Blocked)
        own += std::max(wall - ran - waited, nanoseconds::zero());
    return std::min(own, wall);
}

} // namespace scripthost::posix
