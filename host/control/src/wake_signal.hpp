#pragma once
// WakeSignal: an eventfd that interrupts a poll() from another thread.

#include "control/unique_fd.hpp"
#include "host/error.hpp"

namespace scripthost::control {

/// Any thread calls notify(); the polling thread watches fd() for POLLIN and drain()s it.
class WakeSignal {
public:
    [[nodiscard]] static Result<WakeSignal> create();

    [[nodiscard]] int fd() const noexcept { return fd_.get(); }
    void notify() const noexcept;
    void drain() const noexcept;

private:
    explicit WakeSignal(UniqueFd fd) noexcept : fd_(std::move(fd)) {}
    UniqueFd fd_;
};

} // namespace scripthost::control
