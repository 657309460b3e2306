#include "wake_signal.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <sys/eventfd.h>
#include <unistd.h>

namespace scripthost::control {

Result<WakeSignal> WakeSignal::create() {
    const int fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0)
        return fail(std::string("cannot create an eventfd: ") + std::strerror(errno));
    return WakeSignal(UniqueFd(fd));
}

void WakeSignal::notify() const noexcept {
    const std::uint64_t one = 1;
    // EAGAIN means the counter is saturated: the poller will wake anyway.
    [[maybe_unused]] const auto written = ::write(fd_.get(), &one, sizeof(one));
}

void WakeSignal::drain() const noexcept {
    std::uint64_t count = 0;
    [[maybe_unused]] const auto read = ::read(fd_.get(), &count, sizeof(count));
}

} // namespace scripthost::control
