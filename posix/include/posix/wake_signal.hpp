#pragma once
// WakeSignal: an eventfd that interrupts another thread's poll(2).

#include "posix/unique_fd.hpp"

#include <expected>
#include <system_error>
#include <utility>

namespace scripthost::posix {

/// Lets any thread wake a thread blocked in poll(2): the polling thread includes fd() with
/// POLLIN in its set and calls drain() when it fires; other threads call notify(). Wake-ups
/// are counted, not queued, so many notify() calls before one drain() wake the poll once.
/// Move-only (it owns its eventfd).
class WakeSignal {
public:
    /// Creates the (non-blocking, close-on-exec) eventfd; the error is errno from eventfd(2),
    /// e.g. when the process is out of descriptors.
    [[nodiscard]] static std::expected<WakeSignal, std::error_code> create() noexcept;

    /// The descriptor to poll for POLLIN.
    [[nodiscard]] int fd() const noexcept { return fd_.get(); }
    /// Makes fd() readable until the next drain(). Safe from any thread, never blocks.
    void notify() const noexcept;
    /// Consumes every pending wake-up so the next poll blocks again; does nothing (and does
    /// not block) when none is pending.
    void drain() const noexcept;

private:
    explicit WakeSignal(UniqueFd fd) noexcept : fd_(std::move(fd)) {}

    UniqueFd fd_;
};

} // namespace scripthost::posix
