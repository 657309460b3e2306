#pragma once
// RunOptions: everything `scripthost run` is told, from flags or the config file.

#include "host/runtime/debugger_agent_options.hpp"
#include "project_options.hpp"
#include "scripthost/game/error.hpp"
#include "supervisor.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace scripthost {

/// `run`'s options: the project's (ProjectOptions) and the daemon's own.
struct RunOptions : ProjectOptions {
    std::string gameBuild; ///< --game-build: rebuilds the module when a --game-sources file changes
    std::vector<std::filesystem::path> gameSources; ///< the module's C++ source folders
    bool headless = false;                          ///< no terminal, no renderer
    std::int64_t frames = 0;                        ///< stop after N frames; 0: run until stopped
    double fps = 60.0;                              ///< target frame rate; 0: unpaced
    std::filesystem::path control;                  ///< control socket; empty: the default path
    bool noControl = false;                         ///< serve no control socket
    std::filesystem::path state; ///< state file; empty: the project's (project_state_location.hpp)
    double stateInterval = 5.0;  ///< seconds between state saves; 0: on stop and reloads only
    bool resume = false;         ///< start from the project's state file instead of the scene
    bool supervise = true;       ///< run under the supervisor (restarted after a crash)
    int crashLimit = 3;          ///< crashes within 60 s that stop the supervisor
    std::filesystem::path input; ///< input replay file (JSON lines)
    int disableAfter = 10;       ///< consecutive failures before disabling
    std::int64_t watchdogGraceMs = 2000; ///< after the abort, before giving up
    std::int64_t stopGraceMs = 3000;     ///< after SIGTERM/SIGINT, before _exit
    std::filesystem::path buildDir;      ///< compiled generations; empty: a temp folder
    std::string logFormat = "text";      ///< "text" or "json"
    bool watch = true;
    bool prepareDomains = true; ///< make the next reload's app domain ahead, in idle time
    std::optional<std::int64_t> debugPort; ///< --debug [PORT]: the agent listens on loopback
    std::string debugConnect;              ///< --debug-connect HOST:PORT: the agent connects out
    std::optional<std::int64_t>
        inspectPort; ///< --inspect [PORT]: the browser inspector; 0: a free port

    // Not options: set by main before the host starts.
    std::filesystem::path configFolder; ///< the folder of the config file read; empty: none
    RestartInfo restart;                ///< from the supervisor: the runs before this one
    std::string inspectorUrl;           ///< the inspector's URL (--inspect), for `status`

    /// The debugger agent these options ask for, if any (checked: port range, HOST:PORT).
    [[nodiscard]] Result<std::optional<DebuggerAgentOptions>> debuggerAgent() const;
};

/// Adds the `run` subcommand with every option bound to `options`.
CLI::App* addRunCommand(CLI::App& app, RunOptions& options);

} // namespace scripthost
