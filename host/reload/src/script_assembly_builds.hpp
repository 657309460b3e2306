#pragma once
// ScriptAssemblyBuilds: what a change to the scripts builds. A project without assembly
// definitions or plugins builds every source into one Scripts.dll, as it always has; a project
// with `.asmdef` files or plugin `.dll` files builds assemblies by folder (compiler-bridge/
// README.md, "Assemblies by folder"): the assemblies the changes since the running build
// touched and every assembly that references one of them, reusing the running build's output of
// the rest. The plugins are loaded first, as they are on disk.

#include "compiler_bridge/assembly_layout.hpp"
#include "compiler_bridge/build_queue.hpp"
#include "compiler_bridge/output_generations.hpp"
#include "host/model/assembly_file.hpp"
#include "host/model/reload_report.hpp"
#include "scripthost/game/error.hpp"

#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace scripthost {

struct ScriptAssemblyBuildOptions {
    std::vector<std::filesystem::path> scriptDirs;
    /// Sources the host writes (the native scripts' proxies), built with every build; missing
    /// ones are skipped. With assemblies by folder they are an assembly of their own,
    /// `generatedAssembly`, that every other assembly references: any script may name them.
    std::vector<std::filesystem::path> generatedSources;
    /// Generated sources built on the scripts' classes (proxies whose native class implements
    /// a C# class of the scripts): with assemblies by folder, part of the default assembly,
    /// which references every auto-referenced one (made for them without loose scripts).
    std::vector<std::filesystem::path> generatedSourcesOnScripts;
    std::filesystem::path scriptCore;
    std::chrono::milliseconds timeout{60000}; ///< each assembly's build
    /// With the layout editors are to show (ReloadCoordinatorOptions::onLayoutWalked): after
    /// each new walk of the folders, and when the generated sources came, went or changed.
    std::function<void(const compiler::AssemblyLayout&)> onWalk;
    /// The generated sources' assembly; no assembly definition may take its name while there
    /// are generated sources.
    std::string generatedAssembly = "NativeScripts";
};

/// Main thread only (it is the reload coordinator's).
class ScriptAssemblyBuilds {
public:
    explicit ScriptAssemblyBuilds(ScriptAssemblyBuildOptions options,
                                  const std::filesystem::path& buildDir);

    /// Submits to `queue` the build for `changed` (paths as the watcher reports them) and
    /// every change since the running build, a generated source whose text is not the one the
    /// running build compiled among them; `everything`: rebuild every assembly (a forced
    /// reload, a rescan). An error when the sources or the assembly definitions cannot be
    /// read (a definition's error names its file), or when a definition takes the generated
    /// sources' assembly's name.
    [[nodiscard]] Result<void> submit(compiler::BuildQueue& queue,
                                      const std::vector<std::filesystem::path>& changed,
                                      bool everything);

    /// The assemblies a successful build produced, read into memory, in dependency order.
    [[nodiscard]] static Result<std::vector<AssemblyFile>>
    read(const compiler::FinishedBuild& finished);
    /// The .dll files of a successful build, in dependency order: the precompiled assemblies
    /// (plugins, by name), then the built and reused ones.
    [[nodiscard]] static std::vector<std::filesystem::path>
    outputs(const compiler::FinishedBuild& finished);
    /// The assemblies `finished` compiled, by name (empty for a project of one assembly).
    [[nodiscard]] static std::vector<std::string> compiled(const compiler::FinishedBuild& finished);

    /// The report's assembliesBuilt (compiled()) and assembliesKept.
    static void describe(const compiler::FinishedBuild& finished, ReloadReport& report);

    /// `finished` is what runs now: the next build reuses its outputs.
    void committed(const compiler::FinishedBuild& finished);
    /// The .dll files the next build is likely to reuse, in dependency order, for the next
    /// reload's domain to load ahead. While a build is in flight (submitted, not yet
    /// committed): what it reuses. Else, of the running build: after builds of some assemblies,
    /// those the last few did not build (edits tend to stay in a few places); after a build of
    /// every assembly (the first, a forced reload), all but the few whose sources were saved
    /// last, when the files' times set those apart (where the developer was working before the
    /// host started), else those another assembly references (libraries change less often
    /// than what uses them). Never one that references an assembly left out (its classes could
    /// not load). The precompiled assemblies always, first. Empty for a project of one assembly
    /// without plugins.
    [[nodiscard]] std::vector<std::filesystem::path> likelyReused();
    /// Removes old builds' folders, except the newest few and those a reused output is in.
    void prune();

private:
    /// The folders' sources as the last walk found them.
    struct Walk {
        compiler::AssemblyLayout layout;
        std::vector<std::filesystem::path> sources; ///< every source, sorted (Editor/ too)
        /// A project of one assembly: what it builds (collectScriptSources), once needed.
        std::optional<std::vector<std::filesystem::path>> singleAssembly;
    };
    /// The layout after `changed`: the last walk's when every change is an edit of a source it
    /// found (which moves nothing between assemblies), else a new walk of the folders (a
    /// file added, removed or renamed, a definition changed, `everything`).
    [[nodiscard]] Result<compiler::AssemblyLayout>
    layoutAfter(const std::vector<std::filesystem::path>& changed, bool everything);
    /// Every source of a project of one assembly, from the walk layoutAfter used.
    [[nodiscard]] Result<std::vector<std::filesystem::path>> singleAssemblySources();
    /// `layout` with the generated sources on disk: `own` an assembly of their own, first, that
    /// every other references; `onScripts` in the default assembly (made for them when the
    /// project has no loose scripts). An error when a definition takes the generated
    /// sources' assembly's name.
    [[nodiscard]] Result<compiler::AssemblyLayout>
    withGeneratedAssemblies(compiler::AssemblyLayout layout,
                            const std::vector<std::filesystem::path>& own,
                            const std::vector<std::filesystem::path>& onScripts) const;
    /// The text of each generated source (none: not on disk).
    using GeneratedTexts = std::map<std::filesystem::path, std::optional<std::string>>;
    /// After a build of every assembly, once: the assemblies whose sources were saved last
    /// (lastEditedAssemblies) become the oldest of recentlyBuilt_.
    void guessFromTimes();
    /// Tells onWalk the layout editors are to show, when it is new (`layout` is the walk's,
    /// `texts` the generated sources' now; their change is news: editors copy them).
    void showLayout(const compiler::AssemblyLayout& layout,
                    const std::vector<std::filesystem::path>& own,
                    const std::vector<std::filesystem::path>& onScripts,
                    const GeneratedTexts& texts);

    /// What a submission covered: committed() forgets those changes.
    struct Covered {
        std::set<std::filesystem::path> changes;
        GeneratedTexts generated; ///< the texts it compiled
    };

    ScriptAssemblyBuildOptions options_;
    std::optional<Walk> walk_;
    /// The last walk's layout warnings, logged when a walk first found them.
    std::vector<std::string> shownWarnings_;
    bool walkReused_ = false; // the last layoutAfter reused walk_
    compiler::OutputGenerations outputs_;
    /// The running build's layout and outputs (a project with assembly definitions only).
    std::optional<compiler::AssemblyLayout> runningLayout_;
    std::map<std::string, std::filesystem::path> runningOutputs_;
    /// The assemblies expected to be edited again, as sets, newest last: those each of the last
    /// few committed builds compiled, since the last that compiled all of them; after that one,
    /// the assemblies whose sources were saved last (lastEditedAssemblies), or nothing when the
    /// files' times do not set any apart.
    std::deque<std::set<std::string>> recentlyBuilt_;
    /// The last committed build compiled every assembly and the sources' times are not read yet
    /// (guessFromTimes: on the first likelyReused, in the loop's idle time, not in the frame
    /// that committed the build).
    bool guessByTimes_ = false;
    /// The newest submission of assemblies by folder and the .dll files it reuses, until it is
    /// committed.
    std::optional<std::pair<compiler::BuildId, std::vector<std::filesystem::path>>> inFlightReuse_;
    /// Files changed since the running build, submitted or not yet committed.
    std::set<std::filesystem::path> sinceRunning_;
    bool everythingSinceRunning_ = false;
    /// What each submission covered, by id.
    std::map<compiler::BuildId, Covered> covered_;
    /// The generated sources' texts the running build compiled.
    GeneratedTexts runningGenerated_;
    /// The generated sources' texts when onWalk was last told.
    std::optional<GeneratedTexts> shownGenerated_;
};

} // namespace scripthost
