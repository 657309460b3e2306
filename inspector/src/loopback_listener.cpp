#include "inspector/loopback_listener.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace scripthost::inspector {

Result<LoopbackListener> LoopbackListener::bind(std::uint16_t port) {
    posix::UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd)
        return fail(fmt::format("inspector: socket: {}", std::strerror(errno)));
    // A restarted inspector may bind the port while the last one's connections linger.
    const int yes = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
        return fail(fmt::format("inspector: cannot listen on 127.0.0.1:{}: {}", port,
                                std::strerror(errno)));
    if (::listen(fd.get(), 64) != 0)
        return fail(fmt::format("inspector: listen: {}", std::strerror(errno)));
    socklen_t length = sizeof address;
    if (::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &length) != 0)
        return fail(fmt::format("inspector: getsockname: {}", std::strerror(errno)));
    return LoopbackListener(std::move(fd), ntohs(address.sin_port));
}

} // namespace scripthost::inspector
