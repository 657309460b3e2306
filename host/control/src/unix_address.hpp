#pragma once
// Unix socket addresses and peer credentials.

#include "scripthost/game/error.hpp"

#include <filesystem>
#include <optional>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

namespace scripthost::control {

/// The sockaddr_un for `path`, or an error when it does not fit in sun_path.
[[nodiscard]] Result<sockaddr_un> unixAddress(const std::filesystem::path& path);

/// The pid of the process at the other end of a connected Unix socket (SO_PEERCRED).
[[nodiscard]] std::optional<pid_t> peerPid(int socketFd) noexcept;

} // namespace scripthost::control
