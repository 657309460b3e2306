#include "config_file.hpp"
#include "run_options.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace scripthost {

Result<std::optional<DebuggerAgentOptions>> RunOptions::debuggerAgent() const {
    if (debugPort && !debugConnect.empty())
        return fail("--debug and --debug-connect exclude each other");
    if (debugPort)
        return DebuggerAgentOptions::listenOn(*debugPort);
    if (!debugConnect.empty())
        return DebuggerAgentOptions::connectTo(debugConnect);
    return std::nullopt;
}

CLI::App* addRunCommand(CLI::App& app, RunOptions& o) {
    CLI::App* run = app.add_subcommand(
        "run", "Compile the scripts and run them in the game loop, reloading them live");
    addProjectOptions(*run, o, "Stop script code that runs longer than this in one go (0: never)");
    auto* gameBuild = run->add_option(
        "--game-build", o.gameBuild,
        "Command that rebuilds the game module (run with sh -c) when a --game-sources file is "
        "saved; the new build is then swapped in");
    run->add_option("--game-sources", o.gameSources,
                    "Folder of the game module's C/C++ sources (repeatable; for --game-build)")
        ->check(CLI::ExistingDirectory)
        ->type_name(kPathOption);
    gameBuild->needs("--game");
    gameBuild->needs("--game-sources");
    run->add_flag("--headless", o.headless, "Run without a terminal or renderer");
    run->add_option("--frames", o.frames, "Stop after N frames (0: run until stopped)")
        ->check(CLI::NonNegativeNumber);
    run->add_option("--fps", o.fps, "Target frame rate; 0 runs unpaced")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    run->add_option("--control", o.control,
                    "Control socket (default: $XDG_RUNTIME_DIR/scripthost/control.sock, else "
                    "/tmp/scripthost-$UID/control.sock)")
        ->type_name(kPathOption);
    auto* noControl = run->add_flag("--no-control", o.noControl, "Serve no control socket");
    run->add_option("--state", o.state,
                    "State file: loaded on start, saved after each reload, every "
                    "--state-interval s and on stop (default: the project's own, in "
                    ".scripthost/ beside scripthost.toml or under $XDG_STATE_HOME/scripthost, "
                    "loaded only by --resume and after a crash)")
        ->type_name(kPathOption);
    run->add_option("--state-interval", o.stateInterval,
                    "Seconds between state saves (0: only after reloads and on stop)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    run->add_flag("--resume", o.resume,
                  "Start from the project's state file (what the last run saved) instead of "
                  "the scene");
    run->add_flag("!--no-supervise", o.supervise,
                  "Do not restart the host when it crashes (by default a small parent process "
                  "that never runs Mono restarts it with its last saved state; 3 crashes "
                  "within 60 s stop it)");
    run->add_option("--crash-limit", o.crashLimit,
                    "Crashes within 60 s after which the supervisor stops restarting the host")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    run->add_option("--input", o.input, "Input replay file (JSON lines), for headless runs")
        ->check(CLI::ExistingFile)
        ->type_name(kPathOption);
    run->add_option("--disable-after", o.disableAfter,
                    "Disable a script after N consecutive failures (0: never)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    run->add_option("--watchdog-grace-ms", o.watchdogGraceMs,
                    "A stopped script still holding the main thread after this long ends the "
                    "host (exit code 70)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    run->add_option("--stop-grace-ms", o.stopGraceMs,
                    "A host still running this long after SIGTERM or SIGINT exits with code "
                    "128+signal without saving its state; a second signal ends it at once")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    run->add_flag("!--no-watch", o.watch, "Do not watch the scripts (reload only on request)");
    run->add_flag("!--no-prepared-domain", o.prepareDomains,
                  "Do not make the next reload's app domain ahead between reloads (ScriptCore "
                  "loaded and compiled before a save; costs one more app domain in memory)");
    run->add_option("--build-dir", o.buildDir,
                    "Where to put compiled scripts (default: a temp folder)")
        ->type_name(kPathOption);
    auto* debug =
        run->add_option("--debug", o.debugPort,
                        "Start Mono's soft debugger agent listening on 127.0.0.1:PORT for an "
                        "IDE to attach (VS Code Mono Debug, Rider's Mono Remote)")
            ->expected(0, 1)
            ->default_str(std::to_string(DebuggerAgentOptions::kDefaultPort))
            ->check(CLI::Range(1, 65535));
    run->add_option("--debug-connect", o.debugConnect,
                    "Start Mono's soft debugger agent connecting to a client waiting on "
                    "HOST:PORT (sdb: `listen 127.0.0.1 PORT`)")
        ->check([](const std::string& text) -> std::string {
            auto parsed = DebuggerAgentOptions::connectTo(text);
            return parsed ? std::string() : parsed.error().message;
        })
        ->excludes(debug);
    run->add_option("--inspect", o.inspectPort,
                    "Serve the browser inspector on 127.0.0.1:PORT (default: a free port) and "
                    "print its URL, which carries the access token (docs/INSPECTOR.md)")
        ->expected(0, 1)
        ->default_str("0")
        ->check(CLI::Range(0, 65535))
        ->excludes(noControl);
    run->add_option("--log-format", o.logFormat, "text, or json (one object per line)")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();
    return run;
}

} // namespace scripthost
