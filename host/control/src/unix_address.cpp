#include "unix_address.hpp"

#include <cstring>
#include <fmt/format.h>

namespace scripthost::control {

Result<sockaddr_un> unixAddress(const std::filesystem::path& path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string& text = path.native();
    if (text.empty())
        return fail("the control socket path is empty");
    if (text.size() >= sizeof(address.sun_path)) {
        return fail(fmt::format("the control socket path is too long ({} bytes; a Unix socket "
                                "path must be under {}): {}",
                                text.size(), sizeof(address.sun_path), text));
    }
    std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
    return address;
}

std::optional<pid_t> peerPid(int socketFd) noexcept {
    ucred credentials{};
    socklen_t size = sizeof(credentials);
    if (::getsockopt(socketFd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0 ||
        credentials.pid <= 0)
        return std::nullopt;
    return credentials.pid;
}

} // namespace scripthost::control
