#include "posix/unique_fd.hpp"

#include <unistd.h>

namespace scripthost::posix {

void UniqueFd::reset(int fd) noexcept {
    const int old = fd_;
    fd_ = fd < 0 ? -1 : fd;
    if (old >= 0 && old != fd_) {
        // Never retried on EINTR: on Linux the descriptor is released either way, and a retry
        // could close a descriptor another thread has just been given.
        ::close(old);
    }
}

} // namespace scripthost::posix
