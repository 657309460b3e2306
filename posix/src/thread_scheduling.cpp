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

namespace {

// The start of /proc/self/task/<tid>/<name> in `buffer` (one read); empty if it cannot be read.
template <std::size_t N>
std::string_view readTaskFile(pid_t tid, const char* name, std::array<char, N>& buffer) noexcept {
    if (tid <= 0)
        return {};
    std::array<char, 64> path{};
    std::snprintf(path.data(), path.size(), "/proc/self/task/%d/%s", static_cast<int>(tid), name);
    const UniqueFd file(::open(path.data(), O_RDONLY | O_CLOEXEC));
    if (!file)
        return {};
    const ssize_t read = ::read(file.get(), buffer.data(), buffer.size());
    return read > 0 ? std::string_view(buffer.data(), static_cast<std::size_t>(read))
                    : std::string_view{};
}

} // namespace

ThreadRunState threadRunState(pid_t tid) noexcept {
    // "<tid> (<name>) <state> …": the name may hold spaces and parentheses, the state follows
    // the last ')'. 512 bytes reach well past it.
    std::array<char, 512> text{};
    const std::string_view stat = readTaskFile(tid, "stat", text);
    if (stat.empty())
        return ThreadRunState::Unknown;
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
    // "<ns on a CPU> <ns waiting on a run queue> <timeslices>\n"
    std::array<char, 128> text{};
    const std::string_view line = readTaskFile(tid, "schedstat", text);
    if (line.empty())
        return std::nullopt;
    const char* at = line.data();
    const char* end = line.data() + line.size();
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
