// scripthost: the daemon's command line.

#include "config_file.hpp"
#include "control/control_path.hpp"
#include "daemon.hpp"
#include "host/runtime/mono_runtime.hpp"
#include "host/safety/last_resort.hpp"
#include "inspect_command.hpp"
#include "inspector_process.hpp"
#include "log_setup.hpp"
#include "new_project.hpp"
#include "project_state_location.hpp"
#include "run_options.hpp"
#include "smoke_command.hpp"
#include "supervisor.hpp"

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <spdlog/spdlog.h>

using namespace scripthost;

namespace {

std::atomic<bool> g_stop{false};

/// The last resort (host/safety/last_resort.hpp) before anything that can hang: the watchdog's exit
/// and a stop signal the main thread cannot obey end the process within a bounded time.
bool startLastResort(bool jsonLines) {
    if (auto started = LastResort::start(jsonLines); !started) {
        spdlog::error("{}", started.error().message);
        return false;
    }
    return true;
}

int printVersion() {
    auto runtime = MonoRuntime::start();
    std::printf("scripthost %s\nMono %s\n", SCRIPTHOST_VERSION,
                runtime ? (*runtime)->version().c_str() : "unavailable");
    std::fflush(stdout);
    const int mcs = std::system("mcs --version");
    MonoRuntime::shutdown();
    return mcs == 0 ? 0 : 1;
}

// One run of the host: in the supervisor's child, or in this process with --no-supervise.
int runHost(const RunOptions& options, LogSetup& logs) {
    if (!startLastResort(options.logFormat == "json"))
        return 1;
    // SIGINT/SIGTERM stop the loop; a host still running after the grace ends with 128+signal.
    if (auto handled =
            LastResort::handleStopSignals(g_stop, std::chrono::milliseconds(options.stopGraceMs));
        !handled) {
        spdlog::error("{}", handled.error().message);
        return 1;
    }
    int code = 1;
    {
        auto daemon = Daemon::start(options, logs);
        if (!daemon) {
            spdlog::error("{}", daemon.error().message);
        } else {
            code = (*daemon)->run(g_stop);
        }
    }
    MonoRuntime::shutdown();
    return code;
}

int runDaemon(RunOptions options, const CLI::App& app) {
    LogSetup logs(options.logFormat, options.logLevel);
    std::signal(SIGPIPE, SIG_IGN); // a vanished control client or terminal is not fatal
    // The project's folder for the state file and crash reports: the config file's, if one
    // was read.
    if (const CLI::Option* config = app.get_config_ptr(); config != nullptr) {
        std::error_code ec;
        const std::filesystem::path file = config->as<std::string>();
        if (!file.empty() && std::filesystem::is_regular_file(file, ec))
            options.configFolder = std::filesystem::absolute(file, ec).parent_path();
    }
    // The inspector's process comes first: it outlives the host's restarts (same port, same
    // token) and, like the supervisor, is forked before any thread or Mono.
    std::optional<InspectorProcess> inspector;
    if (options.inspectPort) {
        auto started = InspectorProcess::start(
            {.port = static_cast<std::uint16_t>(*options.inspectPort),
             .controlSocket =
                 options.control.empty() ? control::defaultControlPath() : options.control,
             .pageFolder = {}});
        if (!started) {
            spdlog::error("{}", started.error().message);
            return 1;
        }
        inspector.emplace(std::move(*started));
        options.inspectorUrl = inspector->url();
        spdlog::info("inspector: open {} (scriptctl inspect --url prints it again)",
                     options.inspectorUrl);
    }
    if (!options.supervise)
        return runHost(options, logs);
    // Forked before anything starts a thread or touches Mono (supervisor.hpp).
    SupervisorOptions supervisor;
    supervisor.jsonLog = options.logFormat == "json";
    supervisor.maxCrashes = options.crashLimit;
    supervisor.crashReportFolder =
        options.state.empty()
            ? ProjectStateLocation::of(options.configFolder, options.scriptDirs).folder
            : std::filesystem::absolute(options.state).parent_path();
    return supervise(supervisor, [&](const RestartInfo& restart) {
        options.restart = restart;
        return runHost(options, logs);
    });
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "scripthost: runs C# game scripts in a game loop and reloads them live.\n"
        "Settings may also come from a config file (TOML; default ./scripthost.toml, "
        "options of `run` under [run], relative paths relative to the file's folder); flags "
        "win."};
    useConfigFile(app);
    app.require_subcommand(0, 1);
    bool showVersion = false;
    app.add_flag("--version", showVersion, "Print the host, Mono and mcs versions");

    RunOptions options;
    CLI::App* runCommand = addRunCommand(app, options);

    SmokeOptions smokeOptions;
    CLI::App* smokeCommand = addSmokeCommand(app, smokeOptions);

    NewProjectOptions newOptions;
    CLI::App* newCommand = addNewCommand(app, newOptions);

    InspectOptions inspectOptions;
    CLI::App* inspectCommand = addInspectCommand(app, inspectOptions);

    CLI11_PARSE(app, argc, argv);
    if (showVersion)
        return printVersion();
    if (newCommand->parsed())
        return runNewProject(newOptions);
    if (runCommand->parsed())
        return runDaemon(options, app);
    if (inspectCommand->parsed()) {
        LogSetup logs("text", "info");
        return runInspect(inspectOptions);
    }
    if (smokeCommand->parsed()) {
        LogSetup logs("text", smokeOptions.logLevel);
        if (!startLastResort(false))
            return 1;
        const int code = runSmoke(smokeOptions);
        MonoRuntime::shutdown();
        return code;
    }
    std::fputs(app.help().c_str(), stderr);
    return 2;
}
