#pragma once
// Daemon: `scripthost run` — the host, the game module, hot reload, the control socket,
// the state file and the screen, driven by one game loop on the main thread.

#include "compiler_bridge/diagnostic.hpp"
#include "control/control_server.hpp"
#include "debugger_pause_responder.hpp"
#include "field_watch_service.hpp"
#include "host/engine/game_loop.hpp"
#include "host/engine/script_host.hpp"
#include "host/model/reload_report.hpp"
#include "host/model/state_file.hpp"
#include "host/modules/game_module_host.hpp"
#include "host/reload/reload_coordinator.hpp"
#include "host/ui/input_replay.hpp"
#include "host/ui/keyboard_input.hpp"
#include "host/ui/terminal.hpp"
#include "module_builder.hpp"
#include "run_options.hpp"
#include "script_project.hpp"
#include "scripthost/game/error.hpp"
#include "state_saver.hpp"

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace scripthost {

class LogSetup;

class Daemon {
public:
    /// Everything up to the first frame: host, game module, control socket, first build,
    /// scene or saved state, terminal. Fails with a message for people.
    [[nodiscard]] static Result<std::unique_ptr<Daemon>> start(const RunOptions& options,
                                                               LogSetup& logs);
    ~Daemon();
    Daemon(const Daemon&) = delete;
    Daemon& operator=(const Daemon&) = delete;

    /// Runs frames until `stop`, a `stop` request or --frames; then saves the state and
    /// shuts down. Returns the process exit code.
    int run(const std::atomic<bool>& stop);

private:
    Daemon(const RunOptions& options, LogSetup& logs);
    [[nodiscard]] Result<void> setUp();
    // setUp's steps, in order.
    [[nodiscard]] Result<void> openControlSocket();
    [[nodiscard]] Result<void> openStateFile();
    [[nodiscard]] Result<void> startProject();
    [[nodiscard]] Result<void> startModuleBuilder();
    void openTerminal();
    [[nodiscard]] Result<Scene> startingScene();

    bool beforeTick(double deltaSeconds);
    void afterFrame();
    void publishFrames();
    void onReport(const ReloadReport& report);
    /// A game module reload happened: the module's build, its keys; published to clients.
    void onModuleReport(const ModuleReloadReport& report);
    [[nodiscard]] static nlohmann::json moduleReportJson(const ModuleReloadReport& report);
    [[nodiscard]] static nlohmann::json moduleBuildJson(const ModuleBuildReport& report);
    void saveState(const char* why);
    void draw();
    [[nodiscard]] game::HostStatus hostStatus() const;
    [[nodiscard]] std::string lastReloadSummary() const;

    // Control requests (daemon_commands.cpp).
    void serveControl();
    void handle(const control::Request& request);
    [[nodiscard]] control::CommandResult status() const;
    /// The supervisor's word on the crash before this run: {"description", "report", "restarts"}.
    [[nodiscard]] nlohmann::json crashJson() const;
    /// Watched folders that do not exist right now (scripts, game sources).
    [[nodiscard]] nlohmann::json missingFoldersJson() const;
    /// The `entities` result, written as JSON text (large worlds: no JSON tree).
    [[nodiscard]] std::string entitiesText() const;
    [[nodiscard]] control::CommandResult coroutines() const;
    [[nodiscard]] control::CommandResult getField(const nlohmann::json& body);
    [[nodiscard]] control::CommandResult setField(const nlohmann::json& body);
    [[nodiscard]] control::CommandResult snapshot(const nlohmann::json& body);
    [[nodiscard]] control::CommandResult setInput(const nlohmann::json& body);
    [[nodiscard]] control::CommandResult setEntityActive(const nlohmann::json& body);
    [[nodiscard]] control::CommandResult setEntityParent(const nlohmann::json& body);

    RunOptions options_;
    LogSetup& logs_;
    std::unique_ptr<ScriptProject> project_; // host, game module, reload pipeline
    ScriptHost* host_ = nullptr;             // the project's
    GameModuleHost* game_ = nullptr;         // the project's running build, or none
    std::optional<ModuleReloadReport> lastModuleReload_;
    std::unique_ptr<ModuleBuilder> moduleBuilder_; // with --game-build
    std::optional<ModuleBuildReport> lastModuleBuild_;
    ReloadCoordinator* coordinator_ = nullptr; // the project's; null once reloads stopped
    std::unique_ptr<control::ControlServer> control_;
    std::unique_ptr<FieldWatchService> watches_;            // with the control socket; `watch`
    std::unique_ptr<DebuggerPauseResponder> debuggerPause_; // with the debugger agent on
    std::unique_ptr<StateSaver> state_;     // the state file (--state, or the project's)
    bool loadState_ = false;                // start from it (--state, --resume, a restart)
    bool resuming_ = false;                 // --resume or a restart: the saved code runs first
    bool announcedRestart_ = false;         // the `crashed` event of a restarted host was sent
    std::uint64_t savedScriptsVersion_ = 0; // the running assembly last handed to state_
    std::optional<InputReplay> replay_;
    std::unique_ptr<Terminal> terminal_;
    std::optional<KeyboardInput> keyboard_;
    TextCanvas canvas_;

    std::chrono::steady_clock::time_point started_;
    std::chrono::steady_clock::time_point lastStateSave_;
    std::chrono::steady_clock::time_point lastFramesEvent_; ///< the `frames` event, once a second
    static constexpr std::chrono::seconds kFramesEventPeriod{1};
    std::chrono::steady_clock::time_point lastDraw_;
    bool paused_ = false;
    std::int64_t stepsLeft_ = 0;
    bool stopRequested_ = false;
    bool ticked_ = false;
    const std::atomic<bool>* externalStop_ = nullptr;
    std::atomic<bool> stopLoop_{false};
    std::vector<control::Request> pendingReloads_;
    std::optional<ReloadReport> lastReport_;
    /// The diagnostics of the build that failed last; empty once a build succeeds.
    std::vector<compiler::Diagnostic> buildErrors_;
    std::uint64_t reloadsOk_ = 0, reloadsFailed_ = 0;
};

} // namespace scripthost
