#pragma once
// InspectorServer: the browser inspector's web server. It serves the page's files and
// carries the control protocol over a WebSocket: each browser tab gets a connection of its
// own to the host's control socket, and every WebSocket message is one control request line
// (and every line from the host one message back), so the page speaks exactly what scriptctl
// speaks. When the host goes away (a crash, a restart) the tab is told and the server
// connects again by itself. See docs/INSPECTOR.md.
//
// Safe by default: it listens on 127.0.0.1 only and every request must pass AccessPolicy
// (Host, Origin, token). It never touches Mono and runs in a process of its own, so nothing
// a browser sends reaches the game loop except as a control request.

#include "posix/unique_fd.hpp"
#include "scripthost/game/error.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace scripthost::inspector {

struct InspectorOptions {
    posix::UniqueFd listener;            ///< a listening loopback socket (LoopbackListener)
    std::uint16_t port = 0;              ///< its port (for the URL and the Host check)
    std::string token;                   ///< the access token (makeAccessToken())
    std::filesystem::path controlSocket; ///< the host's control socket
    std::filesystem::path pageFolder;    ///< the page's files
    std::size_t maxMessageBytes =
        1024 * 1024;              ///< a WebSocket message or /api body; as a control line
    std::size_t maxSessions = 64; ///< open HTTP and WebSocket connections
    std::chrono::milliseconds reconnectInterval{250}; ///< between tries to reach the host
};

class InspectorServer {
public:
    [[nodiscard]] static Result<std::unique_ptr<InspectorServer>> open(InspectorOptions options);
    ~InspectorServer();
    InspectorServer(const InspectorServer&) = delete;
    InspectorServer& operator=(const InspectorServer&) = delete;

    /// http://127.0.0.1:PORT/?token=TOKEN: what a user opens.
    [[nodiscard]] std::string url() const;
    [[nodiscard]] std::uint16_t port() const noexcept;

    /// Serves on the calling thread until stop().
    void run();
    /// Makes run() return; closes every connection. Thread-safe.
    void stop();

private:
    struct State;
    explicit InspectorServer(std::unique_ptr<State> state) noexcept;
    std::unique_ptr<State> state_;
};

/// The page's folder beside the running binary (`<dir of /proc/self/exe>/inspector`: the
/// build's bin/ and an installation's lib/scripthost/ alike).
[[nodiscard]] std::filesystem::path pageFolderBesideExecutable();

/// The URL a user opens for an inspector on `port` with `token`.
[[nodiscard]] std::string inspectorUrl(std::uint16_t port, const std::string& token);

} // namespace scripthost::inspector
