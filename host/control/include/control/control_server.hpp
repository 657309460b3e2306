#pragma once
// ControlServer: the daemon's end of the JSON-lines control protocol (PROTOCOL.md).

#include "control/protocol_error.hpp"
#include "control/request.hpp"
#include "scripthost/game/error.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::control {

/// Limits of one server.
struct ControlServerOptions {
    std::size_t maxLineBytes = 1024 * 1024;       ///< longer request lines: line_too_long, closed
    std::size_t maxOutboxBytes = 8 * 1024 * 1024; ///< more unsent bytes: client dropped
    std::size_t maxClients = 64;                  ///< more connections: too_many_clients, closed
};

/// Serves a Unix stream socket on one background thread (poll() over the listener, every
/// client and a wake eventfd). It parses lines, answers malformed ones itself and queues
/// valid requests; the main thread takes them between frames and replies when it likes —
/// no call here blocks on a client. Every member function is thread-safe; publish() and
/// reply() may come from any thread. The server never logs while holding its lock, so a log
/// sink may publish() log lines.
class ControlServer {
public:
    /// Binds `socketPath` (see PROTOCOL.md "The socket file") and starts the thread.
    /// Fails when another server answers there, the path is too long for a Unix socket, or
    /// the folder or socket cannot be made private.
    [[nodiscard]] static Result<std::unique_ptr<ControlServer>>
    open(const std::filesystem::path& socketPath, ControlServerOptions options = {});

    /// Stops the thread, closes every connection and removes the socket file if it is still
    /// the one this server bound.
    ~ControlServer();
    ControlServer(const ControlServer&) = delete;
    ControlServer& operator=(const ControlServer&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const noexcept;

    /// Every request queued since the last call, oldest first. Never blocks on I/O.
    [[nodiscard]] std::vector<Request> takeRequests();
    /// Waits until a request is queued (true) or `timeout` passes (false). For tests and for
    /// a host that has nothing else to do.
    [[nodiscard]] bool waitForRequest(std::chrono::milliseconds timeout);

    /// Answers `request` with its result or error. Deferred replies are fine; a reply to a
    /// client that has gone is dropped silently.
    void reply(const Request& request, const CommandResult& result);
    /// {"id":id,"ok":true,"result":result} to `client`.
    void replyOk(ClientId client, const nlohmann::json& id, nlohmann::json result);
    /// The same with `result` serialised already (valid JSON, one line): for large results
    /// written as text, without a JSON tree in between.
    void replySerializedOk(ClientId client, const nlohmann::json& id, std::string_view result);
    /// {"id":id,"ok":false,"error":{"code":code,"message":message,<details>}} to `client`.
    void replyError(ClientId client, const nlohmann::json& id, std::string_view code,
                    std::string_view message, nlohmann::json details = nlohmann::json::object());

    /// Adds `topics` to what `client` receives from publish().
    void subscribe(ClientId client, const std::vector<std::string>& topics);
    /// Sends {"event":topic,"data":data} to every client subscribed to `topic`.
    void publish(std::string_view topic, const nlohmann::json& data);
    /// Sends {"event":topic,"data":data} to `client` alone, subscribed or not (the events a
    /// request asked for, such as a `watch`'s field values); a no-op once it has gone.
    void sendEvent(ClientId client, std::string_view topic, const nlohmann::json& data);
    /// The same with `data` serialised already (valid JSON, one line): for large events built
    /// as text, without a JSON tree in between.
    void sendSerializedEvent(ClientId client, std::string_view topic, std::string_view data);
    /// The bytes queued for `client` that it has not read yet; nullopt once it has gone or
    /// is being dropped. Lets a sender hold back rather than fill a slow reader's outbox.
    [[nodiscard]] std::optional<std::size_t> unsentBytes(ClientId client) const;

    /// Connected clients (including ones whose subscription or reply is pending).
    [[nodiscard]] std::size_t clientCount() const;
    /// Waits until clientCount() == count (true) or `timeout` passes (false).
    [[nodiscard]] bool waitForClientCount(std::size_t count, std::chrono::milliseconds timeout);
    /// Whether `client` is still connected.
    [[nodiscard]] bool isConnected(ClientId client) const;

private:
    struct State;
    explicit ControlServer(std::unique_ptr<State> state) noexcept;
    void serve();
    void acceptClients();
    void readFrom(ClientId client);
    void flushAndCloseFinished();

    std::unique_ptr<State> state_;
};

} // namespace scripthost::control
