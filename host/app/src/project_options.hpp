#pragma once
// ProjectOptions: what `run` and `smoke` are both told about the project they start — the
// script folders, the scene, the game module, ScriptCore, the compiler, the watchdog, the
// log level — and the one place their command-line options are declared.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace scripthost {

struct ProjectOptions {
    std::vector<std::filesystem::path> scriptDirs; ///< C# folders, compiled (and watched by run)
    std::filesystem::path scene;                   ///< scene file; empty: one entity per class
    std::filesystem::path game;                    ///< game module (.so); empty: none
    std::filesystem::path scriptCore;              ///< ScriptCore.dll; empty: beside the binary
    bool coldCompiler = false;      ///< mcs per build instead of the resident compile server
    std::int64_t watchdogMs = 1000; ///< script code budget; 0: no watchdog
    std::string logLevel = "info";
};

/// Declares --scripts, --scene, --game, --scriptcore, --cold-compiler, --watchdog-ms and
/// --log-level on `command`, bound to `options`; `watchdogHelp` says what a stopped script
/// means to this command.
void addProjectOptions(CLI::App& command, ProjectOptions& options, std::string_view watchdogHelp);

} // namespace scripthost
