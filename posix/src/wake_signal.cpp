#include "posix/wake_signal.hpp"

#include <cerrno>
#include <cstdint>
#include <sys/eventfd.h>
#include <unistd.h>
#include <utility>

namespace scripthost::posix {

std::expected<WakeSignal, std::error_code> WakeSignal::create() noexcept {
    UniqueFd fd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
    if (!fd) {
        return std::unexpected(std::error_code(errno, std::system_category()));
    }
    return WakeSignal(std::move(fd));
}

void WakeSignal::notify() const noexcept {
    const std::uint64_t one = 1;
    // EAGAIN means the counter is saturated: the descriptor is readable anyway.
    [[maybe_unused]] const auto written = ::write(fd_.get(), &one, sizeof one);
}

void WakeSignal::drain() const noexcept {
    // An eventfd read returns the whole counter and resets it; EAGAIN means nothing pending.
    std::uint64_t count = 0;
    [[maybe_unused]] const auto got = ::read(fd_.get(), &count, sizeof count);
}

} // namespace scripthost::posix
