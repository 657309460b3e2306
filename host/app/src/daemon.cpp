#include "daemon.hpp"

#include "build_diagnostics.hpp"
#include "compiler_bridge/compile_failure.hpp"
#include "control/control_path.hpp"
#include "editor_projects.hpp"
#include "host/engine/script_sources.hpp"
#include "host/runtime/mono_runtime.hpp"
#include "log_setup.hpp"
#include "project_state_location.hpp"
#include "saved_scripts.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace scripthost {

namespace {

using Clock = std::chrono::steady_clock;

void logLines(spdlog::level::level_enum level, std::string_view text) {
    for (std::string_view line : nonEmptyLines(text))
        spdlog::log(level, "{}", line);
}

constexpr auto kDrawPeriod = std::chrono::milliseconds(33);

} // namespace

Daemon::Daemon(const RunOptions& options, LogSetup& logs) : options_(options), logs_(logs) {}

Daemon::~Daemon() {
    debuggerPause_.reset(); // it answers through control_
    watches_.reset();       // so does its encoder thread
    terminal_.reset();
    coordinator_ = nullptr;
    if (project_)
        (void)project_->shutdown();
    host_ = nullptr;
    game_ = nullptr;
    project_.reset();
    control_.reset();
}

Result<std::unique_ptr<Daemon>> Daemon::start(const RunOptions& options, LogSetup& logs) {
    std::unique_ptr<Daemon> daemon(new Daemon(options, logs));
    if (auto ready = daemon->setUp(); !ready)
        return std::unexpected(ready.error());
    return daemon;
}

Result<void> Daemon::setUp() {
    // Cheap checks first, then the control socket: a second host on the same socket stops
    // there, before it compiles anything or touches the state file.
    // (A restarted host may run the code saved with its state while a folder is away.)
    resuming_ = options_.restart.restarts > 0 || options_.resume;
    if (auto sources = collectScriptSources(options_.scriptDirs); !sources && !resuming_)
        return std::unexpected(sources.error());
    if (auto core = ScriptProject::findScriptCore(options_.scriptCore); !core)
        return std::unexpected(core.error());
    auto debugger = options_.debuggerAgent();
    if (!debugger)
        return std::unexpected(debugger.error());
    if (options_.debugPort)
        spdlog::warn("--debug: Mono's debugger agent listens on 127.0.0.1:{} without any "
                     "authentication; any local user who finds the port can run code in this "
                     "host. Prefer --debug-connect HOST:PORT (the agent dials out to a debugger "
                     "that is already listening).",
                     *options_.debugPort);
    if (auto opened = openControlSocket(); !opened)
        return opened;
    if (!options_.input.empty()) {
        auto replay = InputReplay::load(options_.input);
        if (!replay)
            return std::unexpected(replay.error());
        replay_ = std::move(*replay);
    }
    if (auto opened = openStateFile(); !opened)
        return opened;

    // The debugger agent can only come with the runtime's start, so the runtime starts here
    // (ScriptProject then finds it running).
    if (auto runtime = MonoRuntime::start({.debugger = *debugger}); !runtime)
        return std::unexpected(runtime.error());
    if (control_ && *debugger)
        debuggerPause_ =
            std::make_unique<DebuggerPauseResponder>(*control_, (*debugger)->describe());

    if (auto started = startProject(); !started)
        return started;
    if (auto started = startModuleBuilder(); !started)
        return started;
    auto scene = startingScene();
    if (!scene)
        return std::unexpected(scene.error());
    coordinator_->onReport = [this](const ReloadReport& report) { onReport(report); };
    openTerminal();
    spdlog::info("running {} entities, {} scripts{}{}", host_->world().entityCount(),
                 host_->world().scriptCount(),
                 options_.frames > 0 ? fmt::format(" for {} frames", options_.frames) : "",
                 options_.watch ? "; save a script to reload it" : "");
    return {};
}

Result<void> Daemon::openControlSocket() {
    if (options_.noControl)
        return {};
    const fs::path path =
        options_.control.empty() ? control::defaultControlPath() : options_.control;
    auto server = control::ControlServer::open(path);
    if (!server)
        return std::unexpected(server.error());
    control_ = std::move(*server);
    watches_ = std::make_unique<FieldWatchService>(*control_);
    spdlog::info("control socket {} (scriptctl --control {} status)", path.string(), path.string());
    return {};
}

Result<void> Daemon::openStateFile() {
    // The state file: --state, else the project's own (project_state_location.hpp), kept
    // current so that a host restarted after a crash resumes where it was. A plain start
    // begins from the scene unless told otherwise (--state, --resume).
    const bool explicitState = !options_.state.empty();
    const fs::path statePath =
        explicitState
            ? options_.state
            : ProjectStateLocation::of(options_.configFolder, options_.scriptDirs).stateFile;
    state_ = std::make_unique<StateSaver>(StateFile(statePath));
    loadState_ = explicitState || resuming_;
    if (options_.restart.restarts > 0) {
        spdlog::warn("restarted after a crash ({}; restart {}): resuming from {}",
                     options_.restart.lastCrash, options_.restart.restarts, statePath.string());
    }
    return {};
}

Result<void> Daemon::startProject() {
    ScriptProjectOptions project;
    project.scriptDirs = options_.scriptDirs;
    project.scriptCore = options_.scriptCore;
    project.gameModule = options_.game;
    project.disableAfterFailures = options_.disableAfter;
    project.watchdogBudget = std::chrono::milliseconds(options_.watchdogMs);
    project.watchdogGrace = std::chrono::milliseconds(options_.watchdogGraceMs);
    project.coldCompiler = options_.coldCompiler;
    project.prepareDomains = options_.prepareDomains;
    project.watch = options_.watch;
    project.buildDir = options_.buildDir;
    if (!options_.configFolder.empty()) {
        // Editor projects `scripthost new` wrote follow the assembly definitions.
        project.editorSolution = generatedSolutionIn(options_.configFolder);
        if (!project.editorSolution.empty())
            project.editorProjectsFolder = options_.configFolder;
    }
    if (resuming_) {
        // The code that made the saved values runs first; the folders are rebuilt after.
        if (auto saved = savedScriptsFiles(state_->file().path()); saved)
            project.resumeScripts = std::move(*saved);
        else
            spdlog::warn("the code that ran before the crash cannot be found ({}); building the "
                         "scripts instead",
                         saved.error().message);
    }
    auto started = ScriptProject::start(project);
    if (!started) {
        if (started.error().build)
            logLines(spdlog::level::err, compiler::failureText(*started.error().build));
        return fail(started.error().message);
    }
    project_ = std::move(*started);
    host_ = &project_->host();
    game_ = project_->game();
    coordinator_ = &project_->reloads();
    return {};
}

Result<void> Daemon::startModuleBuilder() {
    if (options_.gameBuild.empty() || !options_.watch)
        return {};
    ModuleBuilderOptions build;
    build.command = options_.gameBuild;
    build.sources = options_.gameSources;
    build.log = options_.buildDir.empty()
                    ? std::filesystem::temp_directory_path() /
                          fmt::format("scripthost-module-build-{}.log", ::getpid())
                    : options_.buildDir / "module-build.log";
    auto builder = ModuleBuilder::start(std::move(build));
    if (!builder)
        return std::unexpected(builder.error());
    moduleBuilder_ = std::move(*builder);
    return {};
}

void Daemon::openTerminal() {
    if (options_.headless)
        return;
    auto terminal = Terminal::open();
    if (!terminal) {
        spdlog::warn("{}: running headless", terminal.error().message);
        return;
    }
    terminal_ = std::move(*terminal);
    keyboard_.emplace(game_ ? game_->keyBindings() : std::vector<KeyBinding>{});
    logs_.showOnScreen(true);
}

Result<Scene> Daemon::startingScene() {
    if (loadState_) {
        const StateFile& file = state_->file();
        auto loaded = file.load();
        if (!loaded)
            return std::unexpected(loaded.error());
        for (const std::filesystem::path& stale : loaded->staleRemoved)
            spdlog::info("removed {}, a save a host that is gone never finished", stale.string());
        if (!loaded->movedAsideTo.empty()) {
            spdlog::error("state file {} is corrupt ({}); moved it to {} and started without it",
                          file.path().string(), loaded->problem, loaded->movedAsideTo.string());
        }
        if (loaded->scene) {
            if (auto made = host_->instantiate(*loaded->scene); made) {
                host_->setActiveScenePath(options_.scene); // LoadScene looks beside it
                spdlog::info("restored {} entities from {}", loaded->scene->entities.size(),
                             file.path().string());
                return std::move(*loaded->scene);
            } else {
                // Keep the file: the next save must not overwrite state we could not load.
                std::filesystem::path aside = file.path();
                aside += ".rejected";
                std::error_code ec;
                std::filesystem::rename(file.path(), aside, ec);
                spdlog::error("state file {} does not fit these scripts ({}); moved it to {} "
                              "and started from the scene",
                              file.path().string(), made.error().message, aside.string());
            }
        }
    }
    Scene scene;
    if (!options_.scene.empty()) {
        auto loaded = Scene::load(options_.scene);
        if (!loaded)
            return std::unexpected(loaded.error());
        scene = std::move(*loaded);
    } else {
        scene = host_->defaultScene();
        spdlog::info("no --scene: one entity per script class ({})", scene.entities.size());
    }
    if (auto made = host_->instantiate(scene); !made)
        return std::unexpected(made.error());
    host_->setActiveScenePath(options_.scene);
    return scene;
}

int Daemon::run(const std::atomic<bool>& stop) {
    externalStop_ = &stop;
    started_ = lastStateSave_ = lastDraw_ = Clock::now();
    // At once, so that a crash in the first seconds resumes this run, not an older one.
    saveState("on start");
    GameLoop loop(GameLoopOptions{options_.fps, options_.frames});
    const std::int64_t frames = loop.run(
        *host_, stopLoop_,
        FrameHooks{
            [this](double delta) { return beforeTick(delta); }, [this] { afterFrame(); },
            [this](Clock::time_point nextFrame) { return coordinator_->useIdleTime(nextFrame); }});

    terminal_.reset(); // give the terminal back before the last lines
    logs_.showOnScreen(false);
    const char* why = stop.load() ? " (signal)" : stopRequested_ ? " (stop request)" : "";
    spdlog::info("stopped after {} frames{}", frames, why);
    spdlog::info("frame statistics: {}", host_->stats().describe());
    if (reloadsOk_ + reloadsFailed_ > 0)
        spdlog::info("reloads: {} ok, {} rolled back", reloadsOk_, reloadsFailed_);
    if (host_->scriptFailureCount() > 0)
        spdlog::warn("{} script failure(s) during the run", host_->scriptFailureCount());
    saveState("on stop");
    state_->flush();
    for (const control::Request& request : pendingReloads_) {
        control_->replyError(request.client, request.id, control::error_code::busy,
                             "the host stopped before the reload finished");
    }
    pendingReloads_.clear();
    coordinator_ = nullptr;
    if (auto down = project_->shutdown(); !down) {
        spdlog::error("{}", down.error().message);
        return 1;
    }
    return 0;
}

bool Daemon::beforeTick(double deltaSeconds) {
    const double now = std::chrono::duration<double>(Clock::now() - started_).count();
    if (terminal_) {
        for (const std::string& key : terminal_->readKeys()) {
            if (keyboard_->press(key, now))
                continue;
            if (key == "q" || key == "Escape") {
                stopRequested_ = true;
            } else if (key == "p") {
                paused_ = !paused_;
                stepsLeft_ = 0;
                spdlog::info(paused_ ? "paused" : "resumed");
            } else if (key == "r") {
                spdlog::info("reload requested from the keyboard");
                coordinator_->requestReload();
            }
        }
        keyboard_->apply(host_->input(), now);
    }
    if (replay_)
        replay_->apply(host_->frame(), host_->input());
    serveControl();
    if (moduleBuilder_) {
        if (auto built = moduleBuilder_->update()) {
            if (control_)
                control_->publish("moduleBuild", moduleBuildJson(*built));
            lastModuleBuild_ = std::move(built);
        }
    }
    if (ModuleReloader* modules = project_->modules()) {
        if (auto report = modules->update(host_->frame()))
            onModuleReport(*report);
    }
    // The reload's next stage runs here, right before the tick: when it is the swap, this
    // very frame already runs the new code (after the tick, it would wait a whole frame).
    coordinator_->setPaused(paused_ && stepsLeft_ == 0);
    coordinator_->update();
    if (debuggerPause_) // the generation the tick (and a breakpoint in it) runs
        debuggerPause_->mainThreadServing(host_->domain() ? host_->domain()->generation() : 0,
                                          host_->frame());
    ticked_ = false;
    if (stopRequested_ || (paused_ && stepsLeft_ == 0))
        return false;
    if (stepsLeft_ > 0)
        --stepsLeft_;
    if (game_) {
        game_->runSystems(game::SystemPhase::BeforeScripts,
                          game::FrameTime{host_->time(), deltaSeconds, host_->frame()});
    }
    ticked_ = true;
    return true;
}

void Daemon::afterFrame() {
    if (ticked_ && game_) {
        game_->runSystems(game::SystemPhase::AfterScripts,
                          game::FrameTime{host_->time(), 0.0, host_->frame()});
    }
    if (control_ && options_.restart.restarts > 0 && !announcedRestart_) {
        announcedRestart_ = true; // clients that were connected to the host before reconnect now
        control_->publish("crashed", crashJson());
    }
    if (control_) {
        for (nlohmann::json& line : logs_.controlQueue().take())
            control_->publish("log", line);
    } else {
        (void)logs_.controlQueue().take();
    }
    const auto now = Clock::now();
    if (control_ && now - lastFramesEvent_ >= kFramesEventPeriod) {
        lastFramesEvent_ = now;
        publishFrames();
    }
    if (watches_)
        watches_->afterFrame(*host_);
    if (options_.stateInterval > 0 &&
        now - lastStateSave_ >= std::chrono::duration<double>(options_.stateInterval)) {
        saveState("autosave");
    }
    if (terminal_ && now - lastDraw_ >= kDrawPeriod) {
        lastDraw_ = now;
        draw();
    }
    if (stopRequested_ || externalStop_->load())
        stopLoop_.store(true);
}

void Daemon::publishFrames() {
    // The frames since the last event, for the inspector's frame plot: the period the loop
    // kept and what the scripts cost, mean and worst.
    const FrameStats::Interval interval = host_->stats().takeInterval();
    control_->publish(
        "frames",
        nlohmann::json{
            {"frame", host_->frame()},
            {"time",
             std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
                 .count()},
            {"frames", interval.frames},
            {"frameMs", {{"mean", interval.meanFrameMs}, {"max", interval.maxFrameMs}}},
            {"scriptMs", {{"mean", interval.meanScriptMs}, {"max", interval.maxScriptMs}}},
            {"paused", paused_}});
}

void Daemon::onModuleReport(const ModuleReloadReport& report) {
    game_ = project_->game();
    if (keyboard_)
        keyboard_.emplace(game_ ? game_->keyBindings() : std::vector<KeyBinding>{});
    lastModuleReload_ = report;
    if (control_)
        control_->publish("module", moduleReportJson(report));
}

void Daemon::onReport(const ReloadReport& report) {
    lastReport_ = report;
    if (report.success)
        saveState("after a reload"); // a crash now resumes with the new code's values
    buildErrors_ = buildDiagnostics(report);
    (report.success ? reloadsOk_ : reloadsFailed_)++;
    nlohmann::json json = report.toJson();
    json["text"] = report.describe();
    if (control_) {
        control_->publish("reload", json);
        // Every build's compiler messages (a clean build: an empty list).
        control_->publish("diagnostics",
                          nlohmann::json{{"generation", report.success ? report.toGeneration
                                                                       : report.fromGeneration},
                                         {"trigger", report.trigger},
                                         {"diagnostics", diagnosticsJson(buildErrors_)}});
        for (const control::Request& request : pendingReloads_) {
            if (report.success) {
                control_->replyOk(request.client, request.id, json);
            } else {
                control_->replyError(request.client, request.id, control::error_code::reloadFailed,
                                     report.errors.empty() ? "the reload was rolled back"
                                                           : report.errors.front(),
                                     nlohmann::json{{"report", json}});
            }
        }
    }
    pendingReloads_.clear();
}

void Daemon::saveState(const char* why) {
    // The snapshot here, between frames; the text, the write and the fsync on the saver's
    // thread.
    lastStateSave_ = Clock::now();
    auto scene = host_->saveScene();
    if (!scene) {
        spdlog::error("state not saved ({}): {}", why, scene.error().message);
        return;
    }
    // The code that made these values goes with them when it changed (a restart runs it).
    std::optional<std::vector<AssemblyFile>> scripts;
    if (coordinator_ != nullptr && coordinator_->runningScriptsVersion() != savedScriptsVersion_ &&
        !coordinator_->runningScripts().empty()) {
        scripts = coordinator_->runningScripts();
        savedScriptsVersion_ = coordinator_->runningScriptsVersion();
    }
    state_->save(std::move(*scene), why, std::move(scripts));
}

} // namespace scripthost
