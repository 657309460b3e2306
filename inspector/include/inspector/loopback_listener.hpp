#pragma once
// LoopbackListener: the inspector's TCP socket, bound to 127.0.0.1 only.
// `scripthost run --inspect` binds it before the supervisor forks, so the port (and the URL
// built from it) is known before anything starts and stays the same across the host's
// restarts: the socket belongs to the inspector's process, not to the host.

#include "posix/unique_fd.hpp"
#include "scripthost/game/error.hpp"

#include <cstdint>

namespace scripthost::inspector {

class LoopbackListener {
public:
    /// Binds 127.0.0.1:`port` (0: a free port the kernel picks) and listens. Fails with a
    /// message naming the port (e.g. when it is taken).
    [[nodiscard]] static Result<LoopbackListener> bind(std::uint16_t port);

    /// The port it is bound to (the kernel's pick when 0 was asked for).
    [[nodiscard]] std::uint16_t port() const noexcept { return port_; }
    /// Hands the socket over (to the server that accepts on it).
    [[nodiscard]] posix::UniqueFd release() noexcept { return std::move(fd_); }

private:
    LoopbackListener(posix::UniqueFd fd, std::uint16_t port) noexcept
        : fd_(std::move(fd)), port_(port) {}
    posix::UniqueFd fd_;
    std::uint16_t port_ = 0;
};

} // namespace scripthost::inspector
