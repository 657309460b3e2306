#include "daemon.hpp"

#include "build_diagnostics.hpp"
#include "compiler_bridge/compile_failure.hpp"
#include "control/control_path.hpp"
#include "host/mono_runtime.hpp"
#include "host/script_sources.hpp"
#include "log_setup.hpp"
#include "project_state_location.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace scripthost {

namespace {

using Clock = std::chrono::steady_clock;

/// The lines of `text` that are not empty.
std::vector<std::string_view> linesOf(std::string_view text) {
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        if (end > at)
            lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

void logLines(spdlog::level::level_enum level, std::string_view text) {
    for (std::string_view line : linesOf(text))
        spdlog::log(level, "{}", line);
}

constexpr int kScreenLogLines = 4;
constexpr std::size_t kScreenBuildErrors = 3; // the failed build's first errors, kept in sight
constexpr auto kDrawPeriod = std::chrono::milliseconds(33);

} // namespace

Daemon::Daemon(const RunOptions& options, LogSetup& logs) : options_(options), logs_(logs) {}

Daemon::~Daemon() {
    debuggerPause_.reset(); // it answers through control_
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
    const bool resuming = options_.restart.restarts > 0 || options_.resume;
    if (auto sources = collectScriptSources(options_.scriptDirs); !sources && !resuming)
        return std::unexpected(sources.error());
    if (auto core = ScriptProject::findScriptCore(options_.scriptCore); !core)
        return std::unexpected(core.error());
    auto debugger = options_.debuggerAgent();
    if (!debugger)
        return std::unexpected(debugger.error());
    if (!options_.noControl) {
        const fs::path path =
            options_.control.empty() ? control::defaultControlPath() : options_.control;
        auto server = control::ControlServer::open(path);
        if (!server)
            return std::unexpected(server.error());
        control_ = std::move(*server);
        spdlog::info("control socket {} (scriptctl --control {} status)", path.string(),
                     path.string());
    }
    if (!options_.input.empty()) {
        auto replay = InputReplay::load(options_.input);
        if (!replay)
            return std::unexpected(replay.error());
        replay_ = std::move(*replay);
    }
    // The state file: --state, else the project's own (project_state_location.hpp), kept
    // current so that a host restarted after a crash resumes where it was. A plain start
    // begins from the scene unless told otherwise (--state, --resume).
    const bool explicitState = !options_.state.empty();
    const fs::path statePath =
        explicitState ? options_.state
                      : ProjectStateLocation::of(options_.configFolder, options_.scriptDirs).stateFile;
    state_ = std::make_unique<StateSaver>(StateFile(statePath));
    loadState_ = explicitState || options_.resume || options_.restart.restarts > 0;
    if (options_.restart.restarts > 0) {
        spdlog::warn("restarted after a crash ({}; restart {}): resuming from {}",
                     options_.restart.lastCrash, options_.restart.restarts, statePath.string());
    }

    // The debugger agent can only come with the runtime's start, so the runtime starts here
    // (ScriptProject then finds it running).
    if (auto runtime = MonoRuntime::start({.debugger = *debugger}); !runtime)
        return std::unexpected(runtime.error());
    if (control_ && *debugger)
        debuggerPause_ =
            std::make_unique<DebuggerPauseResponder>(*control_, (*debugger)->describe());

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
    if (options_.restart.restarts > 0 || options_.resume) {
        // The code that made the saved values runs first; the folders are rebuilt after.
        const fs::path saved = StateSaver::scriptsPathFor(state_->file().path());
        std::error_code ec;
        if (fs::exists(saved, ec))
            project.resumeScripts = saved;
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
    if (!options_.gameBuild.empty() && options_.watch) {
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
    }

    auto scene = startingScene();
    if (!scene)
        return std::unexpected(scene.error());
    coordinator_->onReport = [this](const ReloadReport& report) { onReport(report); };

    if (!options_.headless) {
        auto terminal = Terminal::open();
        if (!terminal) {
            spdlog::warn("{}: running headless", terminal.error().message);
        } else {
            terminal_ = std::move(*terminal);
            keyboard_.emplace(game_ ? game_->keyBindings() : std::vector<KeyBinding>{});
            logs_.showOnScreen(true);
        }
    }
    spdlog::info("running {} entities, {} scripts{}{}", host_->world().entityCount(),
                 host_->world().scriptCount(),
                 options_.frames > 0 ? fmt::format(" for {} frames", options_.frames) : "",
                 options_.watch ? "; save a script to reload it" : "");
    return {};
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
    std::optional<AssemblyFile> scripts;
    if (coordinator_ != nullptr && coordinator_->runningScriptsVersion() != savedScriptsVersion_ &&
        coordinator_->runningScripts() != nullptr) {
        scripts = *coordinator_->runningScripts();
        savedScriptsVersion_ = coordinator_->runningScriptsVersion();
    }
    state_->save(std::move(*scene), why, std::move(scripts));
}

std::string Daemon::lastReloadSummary() const {
    if (!lastReport_)
        return "";
    const ReloadReport& r = *lastReport_;
    if (r.success)
        return fmt::format("reload {} ok, stall {:.1f} ms", r.sequence, r.frameStallMs);
    if (r.failedPhase == "build")
        return fmt::format("build failed ({} error(s)), old code running", r.errors.size());
    return fmt::format("reload {} rolled back ({}), old code running", r.sequence, r.failedPhase);
}

game::HostStatus Daemon::hostStatus() const {
    game::HostStatus status;
    status.fps = host_->stats().summary().fps;
    status.generation = host_->domain() ? host_->domain()->generation() : 0;
    status.frame = host_->frame();
    status.paused = paused_;
    status.lastReload = lastReloadSummary();
    return status;
}

void Daemon::draw() {
    const int columns = terminal_->columns();
    const int rows = terminal_->rows();
    // A failed build's errors stay between the status line and the log lines until a build
    // succeeds: the log scrolls, they do not. The game's view gives up the rows they take.
    const std::vector<std::string> errors =
        diagnosticScreenLines(buildErrors_, options_.scriptDirs, kScreenBuildErrors, columns);
    const int errorRows = static_cast<int>(errors.size());
    const int gameRows = std::max(rows - 1 - errorRows - kScreenLogLines, 1);
    const game::HostStatus status = hostStatus();

    TextCanvas view(columns, gameRows);
    if (game_ && game_->renderer()) {
        game_->draw(status, view);
    } else {
        // No renderer: a list of entities and their positions.
        int y = 0;
        for (ObjectId e : host_->world().entities()) {
            const Entity* entity = host_->world().entity(e);
            view.text(1, y++,
                      fmt::format("{:<20.20} {:7.2f} {:7.2f} {:7.2f}", entity->name,
                                  entity->transform.position.x, entity->transform.position.y,
                                  entity->transform.position.z));
        }
    }
    canvas_.resize(columns, rows);
    for (int y = 0; y < gameRows && y < rows; ++y) {
        for (int x = 0; x < columns; ++x) {
            const TextCell& cell = view.at(x, y);
            canvas_.put(x, y, cell.glyph, cell.color, cell.bold);
        }
    }
    const bool bad = lastReport_ && !lastReport_->success;
    std::string line =
        fmt::format(" scripthost | gen {} | {:.0f} fps | frame {} | {}{}", status.generation,
                    status.fps, status.frame, status.paused ? "PAUSED | " : "",
                    status.lastReload.empty() ? "no reload yet" : status.lastReload);
    // The keys, as much of them as fits; quitting always stays in sight (the status is
    // shortened for it when even "q quit" does not fit).
    const bool moves = keyboard_ && !keyboard_->bindings().empty();
    const std::size_t room = static_cast<std::size_t>(std::max(columns, 0));
    std::string_view keys = "q quit";
    for (std::string_view fuller :
         {moves ? "w/s a/d move, p pause, r reload, q quit" : "", "p pause, r reload, q quit"}) {
        if (!fuller.empty() && line.size() + 3 + fuller.size() <= room) {
            keys = fuller;
            break;
        }
    }
    if (line.size() + 3 + keys.size() > room && room > keys.size() + 6)
        line = line.substr(0, room - keys.size() - 6) + "...";
    line += fmt::format(" | {}", keys);
    canvas_.text(0, gameRows, line, bad ? TextColor::Red : TextColor::Green, true);
    for (int i = 0; i < errorRows; ++i)
        canvas_.text(0, gameRows + 1 + i, errors[static_cast<std::size_t>(i)], TextColor::Red,
                     true);
    // The newest log lines at the bottom, a message of several lines (a reload report) as
    // several rows: a line break drawn into the canvas would move the terminal's cursor.
    std::vector<std::pair<std::string, TextColor>> logRows;
    for (const std::string& message : logs_.recentLines(kScreenLogLines)) {
        const TextColor color =
            message.find(" E ") != std::string::npos || message.find(" C ") != std::string::npos
                ? TextColor::Red
            : message.find(" W ") != std::string::npos ? TextColor::Yellow
                                                       : TextColor::Default;
        for (std::string_view line : linesOf(message))
            logRows.emplace_back(std::string(line), color);
    }
    const std::size_t firstRow =
        logRows.size() - std::min<std::size_t>(logRows.size(), kScreenLogLines);
    for (std::size_t i = firstRow; i < logRows.size(); ++i) {
        canvas_.text(0, gameRows + 1 + errorRows + static_cast<int>(i - firstRow), logRows[i].first,
                     logRows[i].second);
    }
    terminal_->present(canvas_);
}

} // namespace scripthost
