#include "inspect_command.hpp"

#include "control/control_path.hpp"
#include "inspector/access_token.hpp"
#include "inspector/inspector_server.hpp"
#include "inspector/loopback_listener.hpp"
#include "inspector_process.hpp"

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <spdlog/spdlog.h>

namespace scripthost {

CLI::App* addInspectCommand(CLI::App& app, InspectOptions& o) {
    CLI::App* inspect = app.add_subcommand(
        "inspect", "Serve the browser inspector for a running host on 127.0.0.1 and print its "
                   "URL (it reconnects when the host restarts)");
    inspect->add_option("--control", o.control,
                        "The host's control socket (default: the one `run` uses by default)");
    inspect->add_option("--port", o.port, "Port on 127.0.0.1 (default: a free port)")
        ->check(CLI::Range(0, 65535));
    inspect->add_option("--page", o.page, "The page's files (default: beside scripthost)");
    return inspect;
}

int runInspect(const InspectOptions& options) {
    std::signal(SIGPIPE, SIG_IGN);
    const InspectorProcessOptions served{
        .port = static_cast<std::uint16_t>(options.port),
        .controlSocket = options.control.empty() ? control::defaultControlPath() : options.control,
        .pageFolder = options.page};
    auto listener = inspector::LoopbackListener::bind(served.port);
    if (!listener) {
        spdlog::error("{}", listener.error().message);
        return 1;
    }
    auto token = inspector::makeAccessToken();
    if (!token) {
        spdlog::error("{}", token.error().message);
        return 1;
    }
    const std::uint16_t port = listener->port();
    // The URL alone on stdout (for scripts), the rest in the log.
    std::printf("%s\n", inspector::inspectorUrl(port, *token).c_str());
    std::fflush(stdout);
    spdlog::info("inspector: serving the host at {} on 127.0.0.1:{}", served.controlSocket.string(),
                 port);
    return serveInspector(served, listener->release().release(), port, *token);
}

} // namespace scripthost
