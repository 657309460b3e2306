#include "control/control_client.hpp"

#include "control/protocol_messages.hpp"
#include "unix_address.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <vector>

namespace scripthost::control {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

/// Replies can be big (inline snapshots); the client only guards against a runaway host.
constexpr std::size_t kMaxReplyBytes = std::size_t{1} << 30;

double seconds(std::chrono::milliseconds duration) {
    return duration.count() / 1000.0;
}

/// Milliseconds until `deadline`, rounded up, for poll(); 0 when it has passed.
int pollTimeout(Clock::time_point deadline) {
    const auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero())
        return 0;
    return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
}

std::string closedMessage(const fs::path& path) {
    return fmt::format("the host at {} closed the connection", path.string());
}

} // namespace

ControlClient::ControlClient(posix::UniqueFd fd, fs::path path) noexcept
    : fd_(std::move(fd)), path_(std::move(path)), splitter_(kMaxReplyBytes) {}

Result<ControlClient> ControlClient::connect(const fs::path& socketPath,
                                             std::chrono::milliseconds timeout) {
    auto address = unixAddress(socketPath);
    if (!address)
        return std::unexpected(address.error());
    posix::UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd)
        return fail(fmt::format("cannot create a socket: {}", std::strerror(errno)));
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&*address), sizeof(*address)) ==
            0)
            return ControlClient(std::move(fd), socketPath);
        const int error = errno;
        if (error == EINTR)
            continue;
        if (error == EAGAIN && Clock::now() < deadline) { // the host's backlog is full
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            continue;
        }
        switch (error) {
        case ENOENT:
        case ECONNREFUSED:
        case ENOTDIR:
            return fail(fmt::format("no host at {} (is scripthost running? start it with "
                                    "`scripthost run ...`){}",
                                    socketPath.string(),
                                    error == ECONNREFUSED ? "; the socket file is stale" : ""));
        case EACCES:
        case EPERM:
            return fail(fmt::format("permission denied connecting to {} (the host belongs to "
                                    "another user?)",
                                    socketPath.string()));
        case EAGAIN:
            return fail(fmt::format("timed out after {}s connecting to {} (the host is not "
                                    "accepting connections)",
                                    seconds(timeout), socketPath.string()));
        default:
            return fail(
                fmt::format("cannot connect to {}: {}", socketPath.string(), std::strerror(error)));
        }
    }
}

Result<void> ControlClient::sendAll(std::string_view bytes, Deadline deadline,
                                    std::string_view what) {
    while (!bytes.empty()) {
        const ssize_t sent = ::send(fd_.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (sent > 0) {
            bytes.remove_prefix(static_cast<std::size_t>(sent));
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            pollfd writable{fd_.get(), POLLOUT, 0};
            const int timeout = pollTimeout(deadline);
            if (timeout == 0 || (::poll(&writable, 1, timeout) == 0))
                return fail(
                    fmt::format("timed out sending {} to the host at {}", what, path_.string()));
            continue;
        }
        if (errno == EPIPE || errno == ECONNRESET)
            return fail(closedMessage(path_));
        return fail(
            fmt::format("cannot send to the host at {}: {}", path_.string(), std::strerror(errno)));
    }
    return {};
}

Result<std::optional<nlohmann::json>> ControlClient::receive(Deadline deadline, bool& interrupted) {
    interrupted = false;
    std::vector<std::string> complete;
    char buffer[64 * 1024];
    for (;;) {
        while (!lines_.empty()) {
            nlohmann::json message = nlohmann::json::parse(lines_.front(), nullptr, false);
            lines_.pop_front();
            if (message.is_object()) // anything else is not a protocol message: skipped
                return std::optional<nlohmann::json>(std::move(message));
        }
        const int timeout = pollTimeout(deadline);
        if (timeout == 0)
            return std::optional<nlohmann::json>();
        pollfd readable{fd_.get(), POLLIN, 0};
        const int ready = ::poll(&readable, 1, timeout);
        if (ready < 0) {
            if (errno == EINTR) {
                interrupted = true;
                return std::optional<nlohmann::json>();
            }
            return fail(fmt::format("cannot wait for the host: {}", std::strerror(errno)));
        }
        if (ready == 0)
            continue; // the deadline check above ends the loop
        const ssize_t received = ::recv(fd_.get(), buffer, sizeof(buffer), MSG_DONTWAIT);
        if (received == 0)
            return fail(closedMessage(path_));
        if (received < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
                continue;
            if (errno == ECONNRESET)
                return fail(closedMessage(path_));
            return fail(fmt::format("cannot read from the host at {}: {}", path_.string(),
                                    std::strerror(errno)));
        }
        complete.clear();
        if (splitter_.feed(std::string_view(buffer, static_cast<std::size_t>(received)),
                           complete) == LineSplitter::Status::LineTooLong)
            return fail(fmt::format("the host at {} sent a line over {} bytes", path_.string(),
                                    kMaxReplyBytes));
        for (std::string& line : complete)
            lines_.push_back(std::move(line));
    }
}

Result<nlohmann::json> ControlClient::request(const fs::path& socketPath, std::string_view cmd,
                                              const nlohmann::json& args,
                                              std::chrono::milliseconds connectTimeout,
                                              std::chrono::milliseconds replyTimeout) {
    auto client = connect(socketPath, connectTimeout);
    if (!client)
        return std::unexpected(client.error());
    auto reply = client->call(cmd, args, replyTimeout);
    if (!reply)
        return std::unexpected(reply.error());
    if (!reply->value("ok", false)) {
        const nlohmann::json* error = reply->contains("error") ? &(*reply)["error"] : nullptr;
        return fail(fmt::format("{} failed: {}", cmd,
                                error && error->contains("message")
                                    ? (*error)["message"].get<std::string>()
                                    : reply->dump()));
    }
    return reply->value("result", nlohmann::json());
}

Result<nlohmann::json> ControlClient::call(std::string_view cmd, const nlohmann::json& args,
                                           std::chrono::milliseconds timeout) {
    const std::int64_t id = nextId_++;
    nlohmann::json request = {{"id", id}, {"cmd", std::string(cmd)}};
    if (args.is_object()) {
        for (const auto& [key, value] : args.items()) {
            if (key != "id" && key != "cmd")
                request[key] = value;
        }
    }
    const auto deadline = Clock::now() + timeout;
    if (auto sent = sendAll(toLine(request), deadline, fmt::format("\"{}\"", cmd)); !sent)
        return std::unexpected(sent.error());
    for (;;) {
        bool interrupted = false;
        auto message = receive(deadline, interrupted);
        if (!message)
            return std::unexpected(message.error());
        if (!*message) {
            if (interrupted)
                continue;
            return fail(fmt::format("timed out after {}s waiting for the host at {} to answer "
                                    "\"{}\"",
                                    seconds(timeout), path_.string(), cmd));
        }
        nlohmann::json& reply = **message;
        if (isEvent(reply)) {
            events_.push_back(std::move(reply));
            continue;
        }
        const auto replyId = reply.find("id");
        if (replyId != reply.end() && *replyId == id)
            return std::move(reply);
        if (replyId == reply.end() && reply.contains("ok") && !isOkReply(reply))
            return std::move(reply); // the host refused the connection or the line
        // Otherwise a late answer to an earlier call that timed out: not ours.
    }
}

Result<nlohmann::json> ControlClient::sendRaw(std::string_view line,
                                              std::chrono::milliseconds timeout) {
    std::string bytes(line);
    if (bytes.empty() || bytes.back() != '\n')
        bytes.push_back('\n');
    const auto deadline = Clock::now() + timeout;
    if (auto sent = sendAll(bytes, deadline, "the request"); !sent)
        return std::unexpected(sent.error());
    for (;;) {
        bool interrupted = false;
        auto message = receive(deadline, interrupted);
        if (!message)
            return std::unexpected(message.error());
        if (!*message) {
            if (interrupted)
                continue;
            return fail(fmt::format("timed out after {}s waiting for the host at {} to answer",
                                    seconds(timeout), path_.string()));
        }
        if (!isEvent(**message))
            return std::move(**message);
        events_.push_back(std::move(**message));
    }
}

Result<std::optional<nlohmann::json>> ControlClient::next(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        if (!events_.empty()) {
            nlohmann::json event = std::move(events_.front());
            events_.pop_front();
            return std::optional<nlohmann::json>(std::move(event));
        }
        bool interrupted = false;
        auto message = receive(deadline, interrupted);
        if (!message || !*message)
            return message;
        nlohmann::json& received = **message;
        if (isEvent(received))
            return message;
        if (!received.contains("id") && received.contains("ok") && !isOkReply(received)) {
            return fail(fmt::format("the host at {} refused: {}: {}", path_.string(),
                                    replyErrorCode(received), replyErrorMessage(received)));
        }
        // A reply nobody waits for any more: skipped.
    }
}

} // namespace scripthost::control
