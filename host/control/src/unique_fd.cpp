#include "control/unique_fd.hpp"

#include <unistd.h>

namespace scripthost::control {

void UniqueFd::reset(int fd) noexcept {
    if (fd_ >= 0)
        ::close(fd_); // never retried on EINTR: on Linux the descriptor is gone either way
    fd_ = fd;
}

} // namespace scripthost::control
