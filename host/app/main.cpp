// scripthost: runs C# game scripts in a game loop.
#include "host/game_loop.hpp"
#include "host/mono_runtime.hpp"
#include "host/reload_coordinator.hpp"
#include "host/script_host.hpp"
#include "host/script_sources.hpp"
#include "smoke_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace scripthost;

namespace {

std::atomic<bool> g_stop{false};

extern "C" void onStopSignal(int) {
    g_stop.store(true);
}

struct RunOptions {
    std::vector<fs::path> scriptDirs;
    fs::path scene;
    bool headless = false;
    std::int64_t frames = 0;
    double fps = 60.0;
    int disableAfter = 10;
    fs::path scriptCore;
    fs::path buildDir;
    std::string logLevel = "info";
    bool watch = true;
    bool coldCompiler = false;
};

fs::path executableDir() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::current_path() : self.parent_path();
}

/// A private folder for this run's build output, removed when the run ends.
class BuildFolder {
public:
    explicit BuildFolder(fs::path path) : path_(std::move(path)) { fs::create_directories(path_); }
    ~BuildFolder() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    BuildFolder(const BuildFolder&) = delete;
    BuildFolder& operator=(const BuildFolder&) = delete;
    [[nodiscard]] const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

int run(const RunOptions& options) {
    if (auto sources = collectScriptSources(options.scriptDirs); !sources) {
        spdlog::error("{}", sources.error().message);
        return 1;
    }
    const fs::path scriptCore =
        options.scriptCore.empty() ? executableDir() / "ScriptCore.dll" : options.scriptCore;
    if (!fs::exists(scriptCore)) {
        spdlog::error("ScriptCore.dll not found at {} (use --scriptcore)", scriptCore.string());
        return 1;
    }

    BuildFolder build(options.buildDir.empty() ? fs::temp_directory_path() /
                                                     ("scripthost-" + std::to_string(::getuid())) /
                                                     ("run-" + std::to_string(::getpid()))
                                               : options.buildDir);
    ScriptHostOptions hostOptions;
    hostOptions.scriptCore = scriptCore;
    hostOptions.disableAfterFailures = options.disableAfter;
    auto host = ScriptHost::create(hostOptions);
    if (!host) {
        spdlog::error("{}", host.error().message);
        return 1;
    }
    ReloadCoordinatorOptions reloadOptions;
    reloadOptions.scriptDirs = options.scriptDirs;
    reloadOptions.scriptCore = scriptCore;
    reloadOptions.buildDir = build.path();
    reloadOptions.coldCompiler = options.coldCompiler;
    auto coordinator = ReloadCoordinator::start(**host, reloadOptions);
    if (!coordinator) {
        spdlog::error("{}", coordinator.error().message);
        return 1;
    }
    auto firstBuild = (*coordinator)->buildNow();
    if (!firstBuild) {
        std::string_view text = firstBuild.error().message;
        for (std::size_t at = 0; at <= text.size();) {
            const std::size_t end = std::min(text.find('\n', at), text.size());
            spdlog::error("{}", text.substr(at, end - at));
            at = end + 1;
        }
        spdlog::error("compilation failed; nothing was run");
        return 1;
    }
    auto scripts = AssemblyFile::read(*firstBuild);
    if (!scripts) {
        spdlog::error("{}", scripts.error().message);
        return 1;
    }
    if (auto loaded = (*host)->loadScripts(*scripts); !loaded) {
        spdlog::error("{}", loaded.error().message);
        return 1;
    }
    Scene scene;
    if (!options.scene.empty()) {
        auto loadedScene = Scene::load(options.scene);
        if (!loadedScene) {
            spdlog::error("{}", loadedScene.error().message);
            return 1;
        }
        scene = std::move(*loadedScene);
    } else {
        scene = (*host)->defaultScene();
        spdlog::info("no --scene: one entity per script class ({})", scene.entities.size());
    }
    if (auto made = (*host)->instantiate(scene); !made) {
        spdlog::error("{}", made.error().message);
        return 1;
    }
    spdlog::info("running {} entities, {} scripts{}", (*host)->world().entityCount(),
                 (*host)->world().scriptCount(),
                 options.frames > 0 ? fmt::format(" for {} frames", options.frames) : "");
    if (!options.headless) {
        spdlog::info("no renderer is attached yet: status lines stand in for frames");
    }

    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    GameLoop loop(GameLoopOptions{options.fps, options.frames});
    auto lastStatus = std::chrono::steady_clock::now();
    if (options.watch) {
        spdlog::info("watching {} for changes: save a script to reload it",
                     options.scriptDirs.front().string());
    }
    const std::int64_t frames = loop.run(**host, g_stop, [&] {
        if (options.watch) {
            (*coordinator)->update();
        }
        if (options.headless) {
            return;
        }
        const auto now = std::chrono::steady_clock::now();
        if (now - lastStatus >= std::chrono::seconds(1)) {
            lastStatus = now;
            const auto s = (*host)->stats().summary();
            spdlog::info("frame {} | {:.1f} fps | scripts {:.3f} ms/frame | failures {}",
                         (*host)->frame(), s.fps, s.meanScriptMs, (*host)->scriptFailureCount());
        }
    });
    spdlog::info("stopped after {} frames{}", frames, g_stop.load() ? " (signal)" : "");
    spdlog::info("frame statistics: {}", (*host)->stats().describe());
    if ((*host)->scriptFailureCount() > 0) {
        spdlog::warn("{} script failure(s) during the run", (*host)->scriptFailureCount());
    }
    if (auto down = (*host)->shutdown(); !down) {
        spdlog::error("{}", down.error().message);
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"scripthost: runs C# game scripts in a game loop and reloads them live"};
    app.require_subcommand(0, 1);
    bool showVersion = false;
    app.add_flag("--version", showVersion, "Print the host, Mono and mcs versions");

    RunOptions options;
    CLI::App* runCommand =
        app.add_subcommand("run", "Compile the scripts and run them in the game loop");
    runCommand->add_option("--scripts", options.scriptDirs, "Folder of C# scripts (repeatable)")
        ->required();
    runCommand
        ->add_option("--scene", options.scene,
                     "Scene file (JSON); default: one entity per script class")
        ->check(CLI::ExistingFile);
    runCommand->add_flag("--headless", options.headless, "Run without a renderer");
    runCommand->add_option("--frames", options.frames, "Stop after N frames (0: run until stopped)")
        ->check(CLI::NonNegativeNumber);
    runCommand->add_option("--fps", options.fps, "Target frame rate; 0 runs unpaced")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    runCommand
        ->add_option("--disable-after", options.disableAfter,
                     "Disable a script after N consecutive failures (0: never)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    runCommand->add_flag("!--no-watch", options.watch,
                         "Do not watch the scripts for changes (no hot reload)");
    runCommand->add_flag("--cold-compiler", options.coldCompiler,
                         "Run mcs once per build instead of the resident compile server");
    runCommand->add_option("--scriptcore", options.scriptCore,
                           "ScriptCore.dll (default: beside scripthost)");
    runCommand->add_option("--build-dir", options.buildDir,
                           "Where to put compiled scripts (default: a temp folder)");
    runCommand->add_option("--log-level", options.logLevel, "trace, debug, info, warn, error")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}))
        ->capture_default_str();

    SmokeOptions smokeOptions;
    CLI::App* smokeCommand = addSmokeCommand(app, smokeOptions);

    CLI11_PARSE(app, argc, argv);
    if (showVersion) {
        auto runtime = MonoRuntime::start();
        std::printf("scripthost %s\nMono %s\n", SCRIPTHOST_VERSION,
                    runtime ? (*runtime)->version().c_str() : "unavailable");
        std::fflush(stdout);
        return std::system("mcs --version") == 0 ? 0 : 1;
    }
    if (app.get_subcommands().empty()) {
        std::fputs(app.help().c_str(), stderr);
        return 2;
    }
    spdlog::set_level(spdlog::level::from_str(options.logLevel));
    spdlog::set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
    if (runCommand->parsed()) {
        const int code = run(options);
        MonoRuntime::shutdown();
        return code;
    }
    if (smokeCommand->parsed()) {
        const int code = runSmoke(smokeOptions);
        MonoRuntime::shutdown();
        return code;
    }
    return 0;
}
