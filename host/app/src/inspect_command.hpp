#pragma once
// `scripthost inspect`: the browser inspector for a host that is already running (or one
// that will be: it connects when the host comes), in the foreground. `scripthost run
// --inspect` starts the same server itself.

#include <cstdint>
#include <filesystem>

namespace CLI {
class App;
}

namespace scripthost {

struct InspectOptions {
    std::filesystem::path control; ///< the host's control socket; empty: the default path
    std::int64_t port = 0;         ///< 0: a free port
    std::filesystem::path page;    ///< the page's files; empty: beside the binary
};

CLI::App* addInspectCommand(CLI::App& app, InspectOptions& options);

/// Binds, prints the URL on stdout and serves until SIGINT/SIGTERM. Returns the exit code.
int runInspect(const InspectOptions& options);

} // namespace scripthost
