#pragma once
// InspectorProcess: the browser inspector in a process of its own, forked by `scripthost run
// --inspect` before the supervisor forks (so before any thread or Mono). It outlives the host's
// crashes and restarts: the port and the token, both chosen here, stay the same for the whole
// run, and the page reconnects to each new host through the same control socket path.

#include "scripthost/game/error.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <sys/types.h>
#include <unistd.h>

namespace scripthost {

struct InspectorProcessOptions {
    std::uint16_t port = 0;              ///< 0: a free port the kernel picks
    std::filesystem::path controlSocket; ///< the host's control socket
    std::filesystem::path pageFolder;    ///< empty: the page beside the binary
};

class InspectorProcess {
public:
    /// Binds 127.0.0.1:port, makes the token, and forks the server. Fails (nothing started)
    /// when the port is taken or the page's files are missing.
    [[nodiscard]] static Result<InspectorProcess> start(const InspectorProcessOptions& options);

    /// Stops the server (SIGTERM) and waits for it.
    ~InspectorProcess();
    InspectorProcess(InspectorProcess&& other) noexcept;
    InspectorProcess& operator=(InspectorProcess&&) = delete;
    InspectorProcess(const InspectorProcess&) = delete;
    InspectorProcess& operator=(const InspectorProcess&) = delete;

    /// http://127.0.0.1:PORT/?token=TOKEN
    [[nodiscard]] const std::string& url() const noexcept { return url_; }
    [[nodiscard]] pid_t pid() const noexcept { return pid_; }

private:
    InspectorProcess(pid_t pid, std::string url) noexcept
        : pid_(pid), owner_(::getpid()), url_(std::move(url)) {}
    pid_t pid_ = -1;
    pid_t owner_ = -1; ///< the process that started it: a forked copy of this object stops nothing
    std::string url_;
};

/// Serves the inspector on the calling thread until SIGINT or SIGTERM: what the forked
/// child and `scripthost inspect` run. Returns the exit code.
int serveInspector(const InspectorProcessOptions& options, int listenerFd, std::uint16_t port,
                   const std::string& token);

} // namespace scripthost
