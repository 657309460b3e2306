#pragma once
// ScriptProject: the start-up both `scripthost run` and `scripthost smoke` go through — the
// host, the game module, the reload pipeline and the first generation, in that order.

#include "compiler_bridge/compile_request.hpp"
#include "host/engine/script_host.hpp"
#include "host/modules/game_module_host.hpp"
#include "host/modules/module_reloader.hpp"
#include "host/reload/reload_coordinator.hpp"

#include <chrono>
#include <expected>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scripthost {

struct ScriptProjectOptions {
    std::vector<std::filesystem::path> scriptDirs; ///< compiled, and watched when `watch`
    std::filesystem::path scriptCore;              ///< empty: ScriptCore.dll beside the executable
    std::filesystem::path gameModule;              ///< empty: no game module
    int disableAfterFailures = 10;
    std::chrono::milliseconds watchdogBudget{1000};
    std::chrono::milliseconds watchdogGrace{2000};
    bool coldCompiler = false;
    bool prepareDomains = true; ///< ReloadCoordinatorOptions::prepareDomains
    bool watch = true;          ///< watch the script folders, and the game module's library
    /// Where builds go; empty: a private folder `<tempdir>/scripthost-<uid>/<purpose>-<pid>`,
    /// removed when the project ends.
    std::filesystem::path buildDir;
    std::string purpose = "run";
    /// A host restarted after a crash: the assemblies of the code it ran when it crashed (saved
    /// with its state, in dependency order). When they can be read and loaded, they are the
    /// first generation instead of
    /// a build of the folders, and the folders are rebuilt and reloaded right after through
    /// the usual pipeline — so scripts that do not build, or whose constructor throws, roll
    /// back to it as any reload would, instead of keeping the host from coming back.
    std::vector<std::filesystem::path> resumeScripts;
    /// A project folder whose editor projects scripthost wrote (editor_projects.hpp): they are
    /// rewritten when the scripts' layout changes. Empty: none. `editorSolution`: the .sln's
    /// name without the extension.
    std::filesystem::path editorProjectsFolder;
    std::string editorSolution;
};

/// Why a project did not start. `build` is set when the first build failed, so that each
/// command can present the compiler's diagnostics its own way.
struct ProjectStartFailure {
    std::string message;
    std::optional<compiler::CompileResult> build;
};

/// A script project running in this process: the game module (loaded before any script so
/// its internal calls are registered first), the ScriptHost with the first generation
/// loaded, and the ReloadCoordinator that rebuilds and reloads it. No scene yet: the caller
/// instantiates one. Main thread only.
class ScriptProject {
public:
    [[nodiscard]] static std::expected<std::unique_ptr<ScriptProject>, ProjectStartFailure>
    start(const ScriptProjectOptions& options);
    /// Stops reloading, shuts the host down (every script's Destroy), then lets the module go.
    ~ScriptProject();
    ScriptProject(const ScriptProject&) = delete;
    ScriptProject& operator=(const ScriptProject&) = delete;

    /// ScriptCore.dll as given, or found beside the executable; an error names the path.
    [[nodiscard]] static Result<std::filesystem::path>
    findScriptCore(const std::filesystem::path& given);

    [[nodiscard]] ScriptHost& host() noexcept { return *host_; }
    [[nodiscard]] ReloadCoordinator& reloads() noexcept { return *reloads_; }
    /// The game module's build running now, or nullptr.
    [[nodiscard]] GameModuleHost* game() noexcept {
        return modules_ ? &modules_->current() : nullptr;
    }
    /// The game module's live reload, or nullptr without a module.
    [[nodiscard]] ModuleReloader* modules() noexcept { return modules_.get(); }

    /// Drops the reload pipeline (builds, watcher, a reload in progress) and shuts the host
    /// down: every script's Destroy runs and the generation is unloaded. Idempotent.
    [[nodiscard]] Result<void> shutdown();

    /// Writes the C# proxies of the game module's native script classes (files in the build
    /// folder, compiled with the scripts) when they changed; true when they did. Two files:
    /// the classes of their own (NativeScripts.g.cs), and those implementing a C# class of the
    /// scripts (NativeScriptsOnScripts.g.cs); one without classes is removed.
    [[nodiscard]] Result<bool> writeNativeProxies();

private:
    ScriptProject() = default;
    [[nodiscard]] std::optional<ProjectStartFailure> startUp(const ScriptProjectOptions& options);
    // startUp's steps, in order.
    [[nodiscard]] Result<void> startHost(const ScriptProjectOptions& options,
                                         const std::filesystem::path& scriptCore);
    [[nodiscard]] Result<void> makeBuildDir(const ScriptProjectOptions& options);
    /// The game module, from a private copy; null without one.
    [[nodiscard]] Result<std::unique_ptr<GameModuleHost>>
    loadGameModule(const ScriptProjectOptions& options);
    [[nodiscard]] Result<void> startReloads(const ScriptProjectOptions& options,
                                            const std::filesystem::path& scriptCore, bool resuming,
                                            std::unique_ptr<GameModuleHost> game);
    /// The first generation: the code saved with the state when it loads, else a build.
    [[nodiscard]] std::optional<ProjectStartFailure>
    loadFirstGeneration(const ScriptProjectOptions& options, std::vector<AssemblyFile> resume);

    std::filesystem::path buildDir_;
    std::filesystem::path nativeProxies_;          // empty without a game module
    std::filesystem::path nativeProxiesOnScripts_; // those implementing a script's C# class
    bool ownsBuildDir_ = false;
    // The module (every build of it) outlives the host: scripts may call its internal calls
    // until the last generation is unloaded.
    std::unique_ptr<ModuleReloader> modules_;
    std::unique_ptr<ScriptHost> host_;
    std::unique_ptr<ReloadCoordinator> reloads_;
};

} // namespace scripthost
