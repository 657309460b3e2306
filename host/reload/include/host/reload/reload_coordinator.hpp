#pragma once
// ReloadCoordinator: from a saved .cs file to a swapped generation, between frames.

#include "compiler_bridge/compile_request.hpp"
#include "host/model/reload_report.hpp"
#include "host/reload/reload_transaction.hpp"
#include "scripthost/game/error.hpp"

#include <chrono>
#include <deque>
#include <expected>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scripthost::compiler {
struct FinishedBuild;
}

namespace scripthost::compiler {
struct AssemblyLayout;
} // namespace scripthost::compiler

namespace scripthost {

class ScriptHost;

struct ReloadCoordinatorOptions {
    std::vector<std::filesystem::path> scriptDirs; ///< watched and compiled
    /// Compiled with every build, not watched: files the host writes itself (the native
    /// scripts' proxies), which it rebuilds for with requestReload(). Missing ones are skipped.
    /// With assemblies by folder they are an assembly of their own, NativeScripts, that every
    /// other references; in a project of one assembly, part of it.
    std::vector<std::filesystem::path> generatedSources;
    /// The same for generated sources built on the scripts' classes (the proxies of native
    /// classes that implement a C# class of the scripts): with assemblies by folder, part of
    /// the default assembly, which references every other.
    std::vector<std::filesystem::path> generatedSourcesOnScripts;
    std::filesystem::path scriptCore;          ///< referenced by every build
    std::filesystem::path buildDir;            ///< gen<N>/Scripts.dll land here
    bool coldCompiler = false;                 ///< mcs per build instead of the compile server
    std::filesystem::path compileServer;       ///< default: beside the executable
    std::chrono::milliseconds quietWindow{30}; ///< watcher debounce
    bool pollingWatcher = false;               ///< force the polling backend
    bool watch = true; ///< watch the folders; false: reload only on requestReload()
    /// A script folder missing at start is watched for (and built once it appears) instead of
    /// failing the start: a host restarted after a crash runs the code it ran before.
    bool waitForMissingFolders = false;
    std::chrono::milliseconds buildTimeout{60000};
    /// Make the next reload's app domain ahead, in the loop's idle time, or at a frame
    /// boundary in a loop that has none (ScriptCore loaded and compiled while nothing is being
    /// reloaded): a reload then only loads the scripts. Costs one more app domain in memory
    /// between reloads.
    bool prepareDomains = true;
    /// Assemblies by folder: build two assemblies at a time where their references allow, on a
    /// second compiler (a second compile server, started when first needed; machines with one
    /// CPU never do).
    bool parallelBuilds = true;
    /// Called on the main thread with the assemblies editors are to show (the generated
    /// sources' among them) after each walk of the script folders that found them anew (at
    /// the first build, then after a file was added or removed or a definition changed) and
    /// when generated sources came, went or changed: what follows the layout (the editor
    /// projects) follows it here.
    std::function<void(const compiler::AssemblyLayout&)> onLayoutWalked;
};

/// Main-thread driver of hot reload. The watcher thread and the build worker do the slow
/// parts; update(), called between frames, only looks at their queues: a change set
/// submits a build (a newer one supersedes it). A finished build becomes a
/// ReloadTransaction whose stages run one per frame boundary (the warm stage in slices),
/// so no single frame carries the whole cost. The loop never waits for a compile.
class ReloadCoordinator {
public:
    /// Starts watching and the compiler (warm unless options.coldCompiler).
    [[nodiscard]] static Result<std::unique_ptr<ReloadCoordinator>>
    start(ScriptHost& host, ReloadCoordinatorOptions options);
    ~ReloadCoordinator();
    ReloadCoordinator(const ReloadCoordinator&) = delete;
    ReloadCoordinator& operator=(const ReloadCoordinator&) = delete;

    /// Builds the scripts now and waits for the result (start-up: the first generation): the
    /// assemblies to load, in dependency order (one Scripts.dll without assembly definitions).
    /// A failed build comes back whole (diagnostics, log), for the caller to present.
    [[nodiscard]] std::expected<std::vector<std::filesystem::path>, compiler::CompileResult>
    buildNow();

    /// Between frames: takes changes, submits builds, runs the next stage of the reload in
    /// progress or starts one from a finished build. Returns the report of a reload that
    /// ended in this call (a failed build is a report too). With `waitForBuild`, and no
    /// reload in progress, waits until then for a build in flight instead of looking once
    /// (smoke mode: reproducible, frames do not run while mcs does).
    std::optional<ReloadReport>
    update(std::optional<std::chrono::steady_clock::time_point> waitForBuild = std::nullopt);

    /// In the time a paced loop would sleep, until `until` (when the next frame is due): runs
    /// further stages of the reload in progress, and starts a reload from a build that
    /// finishes meanwhile, as long as each stage is expected to end before `until` (by what
    /// the same stage took in recent reloads, with a margin). update() at the next frame
    /// boundary still runs a stage whatever the time, so a reload never waits on this.
    /// Returns true when the loop should start its next frame at once (FrameHooks::idle):
    /// the reload in progress has a stage ready that does not fit before `until` (so it
    /// need not wait out the rest of the period), or the swap has just run here (so the new
    /// code's first frame need not either).
    bool useIdleTime(std::chrono::steady_clock::time_point until);

    /// The loop is paused (no frame runs until it resumes or steps): then every update() is a
    /// frame boundary, so a reload saved or in progress goes on stage by stage and lands while
    /// paused, its report published at once (frameStallMs 0: no frame ran).
    void setPaused(bool paused) noexcept;

    /// What requestReload() rebuilds, broadest first (two requests before a build: the
    /// broader one).
    enum class Rebuild {
        Everything, ///< every assembly (a reload asked for by the user)
        /// The assemblies of the generated sources whose text is not the running build's, and
        /// those that reference them (the game module's native classes changed); the others
        /// are reused
        Generated,
        /// Nothing the running build has: the same code into a new generation (a new game
        /// module whose native classes are the same: its internal calls bind again)
        Nothing,
    };
    /// Reloads even though no watched file changed. (A project of one assembly always
    /// rebuilds it.)
    void requestReload(Rebuild rebuild = Rebuild::Everything);

    /// Called with every report (once its frame-stall figure is known: a frame after the
    /// last stage). update() returns a report as soon as its reload is decided.
    std::function<void(const ReloadReport&)> onReport;

    /// Reports so far (the most recent 64), oldest first.
    [[nodiscard]] const std::deque<ReloadReport>& reports() const noexcept { return reports_; }

    /// True while a build is waiting or running.
    [[nodiscard]] bool busy() const;
    /// The assemblies of the generation running now, in dependency order (the first build's,
    /// then each reload's that succeeded); empty before the first. What a host restarted after
    /// a crash runs first.
    [[nodiscard]] const std::vector<AssemblyFile>& runningScripts() const noexcept;
    /// Bumped each time runningScripts() changes.
    [[nodiscard]] std::uint64_t runningScriptsVersion() const noexcept;
    /// The first generation's assemblies (ScriptProject, at start).
    void setRunningScripts(std::vector<AssemblyFile> scripts);
    /// Script folders that do not exist right now (deleted, or moved away): the watcher
    /// watches for their return and rebuilds once they are back. Empty without watching.
    [[nodiscard]] std::vector<std::filesystem::path> missingFolders() const;
    /// Whether the next reload's domain is made and waiting (ReloadCoordinatorOptions::
    /// prepareDomains).
    [[nodiscard]] bool hasPreparedDomain() const noexcept;

    /// Passed to every reload's ReloadTransaction::beforeStage / afterStage.
    std::function<void(ReloadStage)> beforeStage;
    std::function<void(ReloadStage)> afterStage;

    struct Impl;

private:
    /// Submits a build for the changes noted so far (a newer one supersedes a build in
    /// flight); the report when the sources cannot even be collected.
    std::optional<ReloadReport> submitChanges();
    /// A finished build becomes the reload in progress (its first stage not run yet); the
    /// report when it failed or its assembly cannot be read.
    std::optional<ReloadReport> startReload(compiler::FinishedBuild finished);
    explicit ReloadCoordinator(std::unique_ptr<Impl> impl);
    void publish(ReloadReport report);
    /// The next stage of the reload in progress (the warm stage: one slice of `warmSlice`).
    std::optional<ReloadReport> advance(std::chrono::microseconds warmSlice);
    std::unique_ptr<Impl> impl_;
    std::deque<ReloadReport> reports_;
};

} // namespace scripthost
