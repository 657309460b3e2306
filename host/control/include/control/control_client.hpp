#pragma once
// ControlClient: a blocking client of the control protocol (scriptctl, tests, tools).

#include "control/line_splitter.hpp"
#include "posix/unique_fd.hpp"
#include "scripthost/game/error.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace scripthost::control {

/// One connection to a host's control socket. Calls block up to their timeout. Events that
/// arrive while waiting for a reply are kept for next(). Move-only. Errors are transport
/// failures (no host, timeout, connection lost); an error *reply* is a successful call.
class ControlClient {
public:
    /// Connects to `socketPath`, retrying while the host's backlog is full until `timeout`.
    [[nodiscard]] static Result<ControlClient> connect(const std::filesystem::path& socketPath,
                                                       std::chrono::milliseconds timeout);

    /// One request on a connection of its own, for polls ("is a host up, and what does its
    /// status say?"): connects (retrying up to `connectTimeout`), calls `cmd` and returns the
    /// reply's result. An error when there is no host, the call times out, or the host answers
    /// with an error (its message).
    [[nodiscard]] static Result<nlohmann::json>
    request(const std::filesystem::path& socketPath, std::string_view cmd,
            const nlohmann::json& args, std::chrono::milliseconds connectTimeout,
            std::chrono::milliseconds replyTimeout);

    /// Sends {"id":N,"cmd":cmd,...args} and returns the whole reply object with that id
    /// ({"id","ok","result"|"error"}). An id-less error reply (the host refusing the
    /// connection or the line) also answers the call.
    [[nodiscard]] Result<nlohmann::json> call(std::string_view cmd, const nlohmann::json& args,
                                              std::chrono::milliseconds timeout);

    /// Sends `line` as it is (a newline is added when missing) and returns the first message
    /// that is not an event. For debugging the protocol.
    [[nodiscard]] Result<nlohmann::json> sendRaw(std::string_view line,
                                                 std::chrono::milliseconds timeout);

    /// The next event ({"event","data"}), waiting up to `timeout`; nullopt on timeout or when
    /// a signal interrupted the wait. An error when the host closed the connection.
    [[nodiscard]] Result<std::optional<nlohmann::json>> next(std::chrono::milliseconds timeout);

    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

private:
    ControlClient(posix::UniqueFd fd, std::filesystem::path path) noexcept;

    using Deadline = std::chrono::steady_clock::time_point;
    /// Writes all of `bytes` (blocking with the deadline).
    [[nodiscard]] Result<void> sendAll(std::string_view bytes, Deadline deadline,
                                       std::string_view what);
    /// The next message from the socket; nullopt when the deadline passed or a signal came
    /// (`interrupted` tells which).
    [[nodiscard]] Result<std::optional<nlohmann::json>> receive(Deadline deadline,
                                                                bool& interrupted);

    posix::UniqueFd fd_;
    std::filesystem::path path_;
    LineSplitter splitter_;
    std::deque<std::string> lines_;     ///< received, not yet parsed
    std::deque<nlohmann::json> events_; ///< events that arrived during call()
    std::int64_t nextId_ = 1;
};

} // namespace scripthost::control
