#include "wake_signal.hpp"

#include <cstdint>
#include <sys/eventfd.h>
#include <unistd.h>

namespace scripthost::watcher::detail {

WakeSignal::WakeSignal() : fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

void WakeSignal::notify() const noexcept {
    const std::uint64_t one = 1;
    // A full counter (EAGAIN) still leaves the fd readable, which is all we need.
    [[maybe_unused]] const auto written = ::write(fd_.get(), &one, sizeof one);
}

void WakeSignal::drain() const noexcept {
    std::uint64_t value = 0;
    [[maybe_unused]] const auto got = ::read(fd_.get(), &value, sizeof value);
}

} // namespace scripthost::watcher::detail
