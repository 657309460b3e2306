#include "posix/sleep_until.hpp"

#include <cerrno>
#include <ctime>

namespace scripthost::posix {

// libstdc++'s steady_clock is CLOCK_MONOTONIC; the deadline converts without an offset.
static_assert(std::chrono::steady_clock::is_steady);

void sleepUntil(std::chrono::steady_clock::time_point deadline) noexcept {
    const auto since = deadline.time_since_epoch();
    if (since.count() <= 0)
        return;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since);
    timespec at{};
    at.tv_sec = static_cast<time_t>(seconds.count());
    at.tv_nsec = static_cast<long>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(since - seconds).count());
    // clock_nanosleep returns the error itself (not through errno); EINTR means a handler
    // ran: sleep on to the same absolute time.
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr) == EINTR) {
    }
}

} // namespace scripthost::posix
