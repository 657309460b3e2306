#include "support/socket_peer.hpp"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>

namespace scripthost::control::test {

using Clock = std::chrono::steady_clock;

SocketPeer::SocketPeer(const std::filesystem::path& path)
    : fd_(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    if (!fd_)
        throw std::runtime_error("socket() failed");
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
    if (::connect(fd_.get(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0)
        throw std::runtime_error("cannot connect to " + path.string() + ": " +
                                 std::strerror(errno));
}

bool SocketPeer::send(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t sent = ::send(fd_.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(sent));
    }
    return true;
}

void SocketPeer::shutdownWrite() {
    ::shutdown(fd_.get(), SHUT_WR);
}

long SocketPeer::receiveSome(Clock::time_point deadline) {
    for (;;) {
        const auto left =
            std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0)
            return -1;
        pollfd readable{fd_.get(), POLLIN, 0};
        const int ready = ::poll(&readable, 1, static_cast<int>(left));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return -1;
        char chunk[64 * 1024];
        const ssize_t received = ::recv(fd_.get(), chunk, sizeof(chunk), 0);
        if (received < 0) {
            if (errno == EINTR)
                continue;
            return 0; // ECONNRESET and friends: the server is gone, like EOF
        }
        buffer_.append(chunk, static_cast<std::size_t>(received));
        return received;
    }
}

std::optional<std::string> SocketPeer::readLine(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        if (const auto newline = buffer_.find('\n'); newline != std::string::npos) {
            std::string line = buffer_.substr(0, newline);
            buffer_.erase(0, newline + 1);
            return line;
        }
        if (receiveSome(deadline) <= 0)
            return std::nullopt;
    }
}

std::optional<nlohmann::json> SocketPeer::readJson(std::chrono::milliseconds timeout) {
    auto line = readLine(timeout);
    if (!line)
        return std::nullopt;
    return nlohmann::json::parse(*line, nullptr, false);
}

bool SocketPeer::waitForEof(std::chrono::milliseconds timeout, std::size_t* bytesRead) {
    const auto deadline = Clock::now() + timeout;
    std::size_t total = buffer_.size();
    buffer_.clear();
    for (;;) {
        const long received = receiveSome(deadline);
        if (received > 0) {
            total += static_cast<std::size_t>(received);
            buffer_.clear();
            continue;
        }
        if (bytesRead)
            *bytesRead = total;
        return received == 0;
    }
}

} // namespace scripthost::control::test
