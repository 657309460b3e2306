#pragma once

#include "unique_fd.hpp"

namespace scripthost::watcher::detail {

// An eventfd that another thread writes to wake the watcher thread out of poll(2).
class WakeSignal {
public:
    // Creates the eventfd; check valid() afterwards.
    WakeSignal();

    [[nodiscard]] bool valid() const noexcept { return static_cast<bool>(fd_); }
    // Descriptor to poll for POLLIN.
    [[nodiscard]] int fd() const noexcept { return fd_.get(); }
    // Wakes the waiting thread (safe from any thread).
    void notify() const noexcept;
    // Consumes pending wake-ups so the next poll blocks again.
    void drain() const noexcept;

private:
    UniqueFd fd_;
};

} // namespace scripthost::watcher::detail
