#include "control/control_server.hpp"

#include "client_connection.hpp"
#include "control/protocol_messages.hpp"
#include "listening_socket.hpp"
#include "posix/wake_signal.hpp"
#include "request_parser.hpp"

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <thread>

namespace scripthost::control {

namespace {

/// At most this much is read from one client per poll round, so one busy client cannot
/// starve the others.
constexpr std::size_t kReadChunk = 64 * 1024;
constexpr int kReadChunksPerRound = 16;
/// Text that is not UTF-8 is written with U+FFFD, never refused.
constexpr auto kReplace = nlohmann::json::error_handler_t::replace;

} // namespace

struct ControlServer::State {
    State(ControlServerOptions opts, ListeningSocket socket, posix::WakeSignal signal)
        : options(opts), listener(std::move(socket)), wake(std::move(signal)) {}

    const ControlServerOptions options;
    ListeningSocket listener;
    posix::WakeSignal wake;
    std::vector<char> readBuffer = std::vector<char>(kReadChunk); ///< server thread only
    ClientId nextClient = 1;                                      ///< server thread only

    mutable std::mutex mutex;
    std::condition_variable changed; ///< a request was queued, or a client came or went
    std::map<ClientId, std::unique_ptr<ClientConnection>> clients;
    std::vector<Request> requests;
    bool stopping = false;

    std::thread thread; // last: started once everything above exists

    /// Queues `line` for `client` (mutex held). A client with unsent bytes that would exceed
    /// maxOutboxBytes is marked to be dropped; one message larger than the limit is still
    /// sent to a client that has kept up (a big snapshot is not a slow consumer).
    void enqueueLocked(ClientConnection& client, std::string_view line) {
        if (!client.dropReason.empty())
            return;
        const std::size_t before = client.outbox.pending();
        if (before > 0 && before + line.size() > options.maxOutboxBytes) {
            client.dropReason = fmt::format("slow consumer: {} bytes unsent, the limit is {}",
                                            before + line.size(), options.maxOutboxBytes);
            client.dropIsWarning = true;
            return;
        }
        client.outbox.append(line);
    }

    /// Sends a reply line to `client` if it is still connected; a no-op otherwise.
    void sendReply(ClientId client, const std::string& line) {
        {
            std::lock_guard lock(mutex);
            const auto found = clients.find(client);
            if (found == clients.end())
                return;
            ClientConnection& connection = *found->second;
            if (connection.outstanding > 0)
                --connection.outstanding;
            enqueueLocked(connection, line);
        }
        wake.notify();
    }
};

Result<std::unique_ptr<ControlServer>> ControlServer::open(const std::filesystem::path& socketPath,
                                                           ControlServerOptions options) {
    auto listener = ListeningSocket::bind(socketPath);
    if (!listener)
        return std::unexpected(listener.error());
    auto wake = posix::WakeSignal::create();
    if (!wake)
        return fail("cannot create an eventfd: " + wake.error().message());
    std::unique_ptr<ControlServer> server(new ControlServer(
        std::make_unique<State>(options, std::move(*listener), std::move(*wake))));
    server->state_->thread = std::thread([self = server.get()] { self->serve(); });
    spdlog::info("control: serving {}", socketPath.string());
    return server;
}

ControlServer::ControlServer(std::unique_ptr<State> state) noexcept : state_(std::move(state)) {}

ControlServer::~ControlServer() {
    {
        std::lock_guard lock(state_->mutex);
        state_->stopping = true;
    }
    state_->wake.notify();
    if (state_->thread.joinable())
        state_->thread.join();
    // The socket file goes before the connections close: a client that loses its connection
    // and finds no socket knows the host stopped (a crashed host leaves the file behind, and
    // `scriptctl watch` waits for its restart).
    state_->listener.removeFile();
    // state_ goes now: connections close.
}

const std::filesystem::path& ControlServer::path() const noexcept {
    return state_->listener.path();
}

std::vector<Request> ControlServer::takeRequests() {
    std::lock_guard lock(state_->mutex);
    return std::exchange(state_->requests, {});
}

bool ControlServer::waitForRequest(std::chrono::milliseconds timeout) {
    std::unique_lock lock(state_->mutex);
    return state_->changed.wait_for(lock, timeout, [&] { return !state_->requests.empty(); });
}

void ControlServer::reply(const Request& request, const CommandResult& result) {
    if (result)
        replyOk(request.client, request.id, *result);
    else
        state_->sendReply(request.client, toLine(errorReply(request.id, result.error())));
}

void ControlServer::replyOk(ClientId client, const nlohmann::json& id, nlohmann::json result) {
    state_->sendReply(client, toLine(okReply(id, std::move(result))));
}

void ControlServer::replySerializedOk(ClientId client, const nlohmann::json& id,
                                      std::string_view result) {
    state_->sendReply(client, fmt::format("{{\"id\":{},\"ok\":true,\"result\":{}}}\n",
                                          id.dump(-1, ' ', false, kReplace), result));
}

void ControlServer::replyError(ClientId client, const nlohmann::json& id, std::string_view code,
                               std::string_view message, nlohmann::json details) {
    state_->sendReply(client,
                      toLine(errorReply(id, CommandError{std::string(code), std::string(message),
                                                         std::move(details)})));
}

void ControlServer::subscribe(ClientId client, const std::vector<std::string>& topics) {
    std::lock_guard lock(state_->mutex);
    if (const auto found = state_->clients.find(client); found != state_->clients.end())
        found->second->topics.insert(topics.begin(), topics.end());
}

namespace {

/// {"event":topic,"data":data} and a line break; `data` serialised already.
std::string serializedEventLine(std::string_view topic, std::string_view data) {
    return fmt::format("{{\"event\":{},\"data\":{}}}\n",
                       nlohmann::json(std::string(topic)).dump(-1, ' ', false, kReplace), data);
}

/// {"event":topic,"data":data} and a line break, serialised without copying `data` into a
/// message object.
std::string eventLine(std::string_view topic, const nlohmann::json& data) {
    return serializedEventLine(topic, data.dump(-1, ' ', false, kReplace));
}

} // namespace

void ControlServer::publish(std::string_view topic, const nlohmann::json& data) {
    const std::string line = eventLine(topic, data); // once, outside the lock
    bool queued = false;
    {
        std::lock_guard lock(state_->mutex);
        for (auto& [id, client] : state_->clients) {
            if (client->topics.contains(topic)) {
                state_->enqueueLocked(*client, line);
                queued = true;
            }
        }
    }
    if (queued)
        state_->wake.notify();
}

void ControlServer::sendEvent(ClientId client, std::string_view topic, const nlohmann::json& data) {
    sendSerializedEvent(client, topic, data.dump(-1, ' ', false, kReplace));
}

void ControlServer::sendSerializedEvent(ClientId client, std::string_view topic,
                                        std::string_view data) {
    const std::string line = serializedEventLine(topic, data);
    {
        std::lock_guard lock(state_->mutex);
        const auto found = state_->clients.find(client);
        if (found == state_->clients.end())
            return;
        state_->enqueueLocked(*found->second, line);
    }
    state_->wake.notify();
}

std::optional<std::size_t> ControlServer::unsentBytes(ClientId client) const {
    std::lock_guard lock(state_->mutex);
    const auto found = state_->clients.find(client);
    if (found == state_->clients.end() || !found->second->dropReason.empty())
        return std::nullopt;
    return found->second->outbox.pending();
}

std::size_t ControlServer::clientCount() const {
    std::lock_guard lock(state_->mutex);
    return state_->clients.size();
}

bool ControlServer::waitForClientCount(std::size_t count, std::chrono::milliseconds timeout) {
    std::unique_lock lock(state_->mutex);
    return state_->changed.wait_for(lock, timeout, [&] { return state_->clients.size() == count; });
}

bool ControlServer::isConnected(ClientId client) const {
    std::lock_guard lock(state_->mutex);
    return state_->clients.contains(client);
}

// ---- the server thread -------------------------------------------------------------------

void ControlServer::serve() {
    State& s = *state_;
    std::vector<pollfd> polled;
    std::vector<ClientId> polledClients;
    try {
        for (;;) {
            polled.clear();
            polledClients.clear();
            polled.push_back({s.wake.fd(), POLLIN, 0});
            polled.push_back({s.listener.fd(), POLLIN, 0});
            {
                std::lock_guard lock(s.mutex);
                if (s.stopping)
                    return;
                for (const auto& [id, client] : s.clients) {
                    short events = 0; // POLLHUP and POLLERR are always reported
                    if (!client->readClosed && !client->closeWhenFlushed)
                        events |= POLLIN;
                    if (client->outbox.pending() > 0)
                        events |= POLLOUT;
                    polled.push_back({client->fd.get(), events, 0});
                    polledClients.push_back(id);
                }
            }
            if (::poll(polled.data(), polled.size(), -1) < 0) {
                if (errno == EINTR)
                    continue;
                spdlog::error("control: poll failed: {}", std::strerror(errno));
                std::this_thread::sleep_for(std::chrono::milliseconds(50)); // no busy spin
                continue;
            }
            if (polled[0].revents != 0)
                s.wake.drain();
            for (std::size_t i = 0; i < polledClients.size(); ++i) {
                if ((polled[i + 2].revents & (POLLIN | POLLHUP | POLLERR)) != 0)
                    readFrom(polledClients[i]);
            }
            // Closing before accepting: clients that left free their slots before anyone
            // new is refused for lack of one.
            flushAndCloseFinished();
            if ((polled[1].revents & POLLIN) != 0)
                acceptClients();
        }
    } catch (const std::exception& error) {
        spdlog::error("control: the server thread stopped: {}", error.what());
    }
}

void ControlServer::acceptClients() {
    State& s = *state_;
    bool acceptedAny = false;
    for (;;) {
        bool full = false;
        {
            std::lock_guard lock(s.mutex);
            full = s.clients.size() >= s.options.maxClients;
        }
        // Clients accepted in this round may have left already (connect, close): their EOF
        // is read next round. Refuse only when full of clients that had that chance.
        if (full && acceptedAny)
            return;
        posix::UniqueFd socket(
            ::accept4(s.listener.fd(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
        if (!socket) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                spdlog::warn("control: cannot accept a client: {}", std::strerror(errno));
                // e.g. EMFILE: the connection stays pending and poll() would spin.
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
            return;
        }
        if (!full) { // only this thread adds clients, so `full` still holds
            const ClientId id = s.nextClient++;
            {
                std::lock_guard lock(s.mutex);
                s.clients.emplace(id, std::make_unique<ClientConnection>(id, std::move(socket),
                                                                         s.options.maxLineBytes));
                s.changed.notify_all();
            }
            acceptedAny = true;
            spdlog::debug("control: client {} connected", id);
            continue;
        }
        const std::string line =
            toLine(errorReply(nullptr, {error_code::tooManyClients,
                                        fmt::format("the host already serves {} control clients",
                                                    s.options.maxClients)}));
        // Best effort: a fresh socket's buffer takes one short line.
        [[maybe_unused]] const auto sent =
            ::send(socket.get(), line.data(), line.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        spdlog::warn("control: refused a client: already {} connected", s.options.maxClients);
    }
}

void ControlServer::readFrom(ClientId clientId) {
    State& s = *state_;
    ClientConnection* client = nullptr;
    {
        std::lock_guard lock(s.mutex);
        const auto found = s.clients.find(clientId);
        if (found == s.clients.end())
            return;
        client = found->second.get(); // only this thread erases, so it stays valid
        if (client->readClosed || client->closeWhenFlushed) {
            // Nothing more to read; POLLHUP/POLLERR on such a client means it is gone.
            client->dropReason = "disconnected";
            return;
        }
    }

    std::vector<std::string> lines;
    bool endOfStream = false;
    bool broken = false;
    bool tooLong = false;
    for (int chunk = 0; chunk < kReadChunksPerRound; ++chunk) {
        const ssize_t received =
            ::recv(client->fd.get(), s.readBuffer.data(), s.readBuffer.size(), MSG_DONTWAIT);
        if (received > 0) {
            const std::string_view bytes(s.readBuffer.data(), static_cast<std::size_t>(received));
            if (client->input.feed(bytes, lines) == LineSplitter::Status::LineTooLong) {
                tooLong = true;
                break;
            }
            if (static_cast<std::size_t>(received) < s.readBuffer.size())
                break;
            continue;
        }
        if (received == 0) {
            endOfStream = true; // a half line left in `input` is dropped with the client
        } else if (errno == EINTR) {
            continue;
        } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
            broken = true;
        }
        break;
    }

    // JSON is parsed without the lock; only the queueing below takes it.
    std::vector<Request> parsed;
    std::vector<std::string> errorLines;
    for (const std::string& line : lines) {
        auto request = parseRequest(line, clientId);
        if (request)
            parsed.push_back(std::move(*request));
        else
            errorLines.push_back(toLine(request.error()));
    }
    if (tooLong) {
        errorLines.push_back(toLine(errorReply(
            nullptr, {error_code::lineTooLong,
                      fmt::format("a request line is longer than {} bytes; closing the connection",
                                  s.options.maxLineBytes)})));
    }

    {
        std::lock_guard lock(s.mutex);
        for (const std::string& line : errorLines)
            s.enqueueLocked(*client, line);
        client->outstanding += parsed.size();
        if (tooLong)
            client->closeWhenFlushed = true;
        if (endOfStream)
            client->readClosed = true; // kept until its outstanding replies are out
        if (broken)
            client->dropReason = "connection error";
        if (!parsed.empty()) {
            s.requests.insert(s.requests.end(), std::make_move_iterator(parsed.begin()),
                              std::make_move_iterator(parsed.end()));
            s.changed.notify_all();
        }
    }
    if (tooLong)
        spdlog::warn("control: client {} sent a line over {} bytes; closing it", clientId,
                     s.options.maxLineBytes);
}

void ControlServer::flushAndCloseFinished() {
    State& s = *state_;
    std::vector<std::unique_ptr<ClientConnection>> finished;
    {
        std::lock_guard lock(s.mutex);
        for (auto it = s.clients.begin(); it != s.clients.end();) {
            ClientConnection& client = *it->second;
            if (client.dropReason.empty() && client.outbox.pending() > 0 &&
                client.outbox.flushTo(client.fd.get()) == Outbox::FlushStatus::PeerGone)
                client.dropReason = "disconnected";
            const bool flushed = client.outbox.pending() == 0;
            const bool done = !client.dropReason.empty() || (client.closeWhenFlushed && flushed) ||
                              (client.readClosed && client.outstanding == 0 && flushed);
            if (done) {
                finished.push_back(std::move(it->second));
                it = s.clients.erase(it);
            } else {
                ++it;
            }
        }
        if (!finished.empty())
            s.changed.notify_all();
    }
    for (const auto& client : finished) { // logged without the lock (a sink may publish)
        const std::string& reason =
            client->dropReason.empty() ? std::string("closed") : client->dropReason;
        if (client->dropIsWarning)
            spdlog::warn("control: dropped client {}: {}", client->id, reason);
        else
            spdlog::debug("control: client {} {}", client->id, reason);
    }
}

} // namespace scripthost::control
