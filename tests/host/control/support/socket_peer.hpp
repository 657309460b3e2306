#pragma once
// SocketPeer: a bare-bones test client that speaks bytes, not the protocol, so tests can send
// garbage, half lines and huge lines, and stop reading on purpose.

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <posix/unique_fd.hpp>
#include <string>
#include <string_view>

namespace scripthost::control::test {

/// A connected blocking Unix stream socket with deadline-bound reads.
class SocketPeer {
public:
    /// Connects to `path`; throws std::runtime_error when it cannot.
    explicit SocketPeer(const std::filesystem::path& path);

    /// Sends all of `bytes` (MSG_NOSIGNAL). False when the server has closed the connection.
    bool send(std::string_view bytes);
    /// The next line (without '\n'), or nullopt at EOF or when `timeout` passes.
    std::optional<std::string> readLine(std::chrono::milliseconds timeout = kDefaultTimeout);
    /// The next line parsed as JSON (discarded JSON when it does not parse), or nullopt.
    std::optional<nlohmann::json> readJson(std::chrono::milliseconds timeout = kDefaultTimeout);
    /// Reads and discards until EOF; true when EOF came before `timeout`. `bytesRead` counts
    /// what was discarded.
    bool waitForEof(std::chrono::milliseconds timeout, std::size_t* bytesRead = nullptr);
    /// Shuts down the sending side (the server reads EOF) but keeps reading.
    void shutdownWrite();
    /// Closes the connection now.
    void close() { fd_.reset(); }

    static constexpr std::chrono::milliseconds kDefaultTimeout{10'000};

private:
    /// One recv() into buffer_ within the deadline: >0 bytes, 0 EOF, -1 timeout/error.
    long receiveSome(std::chrono::steady_clock::time_point deadline);

    posix::UniqueFd fd_;
    std::string buffer_;
};

} // namespace scripthost::control::test
