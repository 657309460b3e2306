#include "script_assembly_builds.hpp"

#include "host/engine/script_sources.hpp"
#include "last_edited_assemblies.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <spdlog/spdlog.h>
#include <utility>

namespace scripthost {

namespace fs = std::filesystem;

namespace {

/// Whether `layout` is built as a set: a project of assembly definitions or of precompiled
/// assemblies (plugins: the set build references and loads them), not one default assembly.
bool byFolder(const compiler::AssemblyLayout& layout) {
    return layout.assemblies.size() > 1 || !layout.precompiled.empty() ||
           (layout.assemblies.size() == 1 && !layout.assemblies[0].definition.empty());
}

/// The .dll files of `layout`'s precompiled assemblies, loaded before the built ones.
std::vector<fs::path> precompiledFiles(const compiler::AssemblyLayout& layout) {
    std::vector<fs::path> files;
    for (const compiler::PrecompiledAssembly& plugin : layout.precompiled)
        files.push_back(plugin.file);
    return files;
}

/// Old builds kept besides the running one (what is loaded was read into memory).
constexpr std::size_t kKeepBuilds = 3;

/// How many of the last builds' assemblies are expected to be edited again (not loaded ahead):
/// going back and forth between a few assemblies then costs the reload the load of the others
/// edited lately, not a fresh domain.
constexpr std::size_t kRecentBuilds = 3;

/// After a build of every assembly, as at the host's start, the last few assemblies whose
/// sources were saved this long before the rest's are expected to be edited again.
constexpr std::chrono::seconds kEditedApart{10};

/// Those of `files` on disk.
std::vector<fs::path> onDisk(const std::vector<fs::path>& files) {
    std::vector<fs::path> found;
    for (const fs::path& file : files) {
        std::error_code ec;
        if (fs::is_regular_file(file, ec))
            found.push_back(file);
    }
    return found;
}

std::optional<std::string> textOf(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return std::nullopt;
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace

ScriptAssemblyBuilds::ScriptAssemblyBuilds(ScriptAssemblyBuildOptions options,
                                           const fs::path& buildDir)
    : options_(std::move(options)), outputs_(buildDir, "Scripts") {
    // As a layout holds its sources (a change is matched against them): absolute and normal.
    for (auto* files : {&options_.generatedSources, &options_.generatedSourcesOnScripts}) {
        for (fs::path& file : *files) {
            std::error_code ec;
            file = fs::absolute(file, ec).lexically_normal();
        }
    }
}

Result<void> ScriptAssemblyBuilds::submit(compiler::BuildQueue& queue,
                                          const std::vector<fs::path>& changed, bool everything) {
    sinceRunning_.insert(changed.begin(), changed.end());
    everythingSinceRunning_ = everythingSinceRunning_ || everything;
    GeneratedTexts generatedTexts;
    for (const auto* files : {&options_.generatedSources, &options_.generatedSourcesOnScripts}) {
        for (const fs::path& file : *files) {
            generatedTexts[file] = textOf(file);
            const auto running = runningGenerated_.find(file);
            if (running == runningGenerated_.end() || running->second != generatedTexts[file])
                sinceRunning_.insert(file);
        }
    }
    auto walked = layoutAfter(changed, everything);
    if (!walked)
        return std::unexpected(walked.error());
    const std::vector<fs::path> own = onDisk(options_.generatedSources);
    const std::vector<fs::path> onScripts = onDisk(options_.generatedSourcesOnScripts);
    showLayout(*walked, own, onScripts, generatedTexts);
    if (!byFolder(*walked)) { // one Scripts.dll of every source, as without definitions
        auto sources = singleAssemblySources();
        if (!sources)
            return std::unexpected(sources.error());
        compiler::CompileRequest request;
        request.sources = std::move(*sources);
        request.sources.insert(request.sources.end(), own.begin(), own.end());
        request.sources.insert(request.sources.end(), onScripts.begin(), onScripts.end());
        request.references = {options_.scriptCore};
        request.output = outputs_.next();
        request.timeout = options_.timeout;
        runningLayout_.reset(); // the next set build builds every assembly
        runningOutputs_.clear();
        inFlightReuse_.reset();
        covered_.clear(); // only the newest submission is ever delivered
        covered_[queue.submit(std::move(request))] = {sinceRunning_, std::move(generatedTexts)};
        return {};
    }
    auto layout = withGeneratedAssemblies(std::move(*walked), own, onScripts);
    if (!layout)
        return std::unexpected(layout.error());
    compiler::AssemblySetRequest request;
    const std::vector<fs::path> since(sinceRunning_.begin(), sinceRunning_.end());
    request.rebuild = compiler::assembliesChanged(
        everythingSinceRunning_ ? nullptr : (runningLayout_ ? &*runningLayout_ : nullptr), *layout,
        since);
    for (const compiler::ScriptAssembly& assembly : layout->assemblies) {
        if (auto found = runningOutputs_.find(assembly.name); found != runningOutputs_.end())
            request.previous.insert(*found);
    }
    request.references = {options_.scriptCore};
    request.timeout = options_.timeout;
    request.outputFolder = outputs_.nextFolder();
    request.layout = std::move(*layout);
    std::vector<fs::path> reused = precompiledFiles(request.layout);
    const std::vector<std::string> toBuild = compiler::assembliesToBuild(request);
    for (const compiler::ScriptAssembly& assembly : request.layout.assemblies) {
        const auto previous = request.previous.find(assembly.name);
        if (std::ranges::find(toBuild, assembly.name) == toBuild.end() &&
            previous != request.previous.end())
            reused.push_back(previous->second);
    }
    covered_.clear(); // only the newest submission is ever delivered
    const compiler::BuildId id = queue.submit(std::move(request));
    covered_[id] = {sinceRunning_, std::move(generatedTexts)};
    inFlightReuse_.emplace(id, std::move(reused));
    return {};
}

Result<compiler::AssemblyLayout>
ScriptAssemblyBuilds::withGeneratedAssemblies(compiler::AssemblyLayout layout,
                                              const std::vector<fs::path>& own,
                                              const std::vector<fs::path>& onScripts) const {
    const std::string& name = options_.generatedAssembly;
    if (options_.generatedSources.empty() && options_.generatedSourcesOnScripts.empty())
        return layout;
    if (const compiler::ScriptAssembly* taken = layout.find(name); taken != nullptr)
        return fail(fmt::format("{}: the assembly name '{}' is the game module's native scripts' "
                                "(their C# proxies): name this assembly otherwise",
                                taken->definition.string(), name));
    if (const compiler::PrecompiledAssembly* taken = layout.findPrecompiled(name))
        return fail(fmt::format("{}: the assembly name '{}' is the game module's native scripts' "
                                "(their C# proxies): rename this .dll",
                                taken->file.string(), name));
    if (!onScripts.empty()) {
        // Into the default assembly, which references every auto-referenced one; a project
        // without loose scripts gets one of the generated sources alone, as Unity's
        // Assembly-CSharp (no definition may take its name).
        const std::string defaultName = compiler::AssemblyLayoutOptions{}.defaultAssembly;
        auto home =
            std::ranges::find(layout.assemblies, defaultName, &compiler::ScriptAssembly::name);
        if (home == layout.assemblies.end()) {
            compiler::ScriptAssembly generated;
            generated.name = defaultName;
            for (const compiler::ScriptAssembly& assembly : layout.assemblies) {
                if (assembly.autoReferenced)
                    generated.references.push_back(assembly.name);
            }
            for (const compiler::PrecompiledAssembly& plugin : layout.precompiled) {
                if (plugin.autoReferenced)
                    generated.precompiledReferences.push_back(plugin.name);
            }
            layout.assemblies.push_back(std::move(generated));
            home = std::prev(layout.assemblies.end());
        }
        home->sources.insert(home->sources.end(), onScripts.begin(), onScripts.end());
        std::ranges::sort(home->sources); // sorted, as every assembly's
    }
    if (!own.empty()) { // first, and referenced by every other
        for (compiler::ScriptAssembly& assembly : layout.assemblies)
            assembly.references.insert(assembly.references.begin(), name);
        compiler::ScriptAssembly generated;
        generated.name = name;
        generated.sources = own;
        std::ranges::sort(generated.sources);
        layout.assemblies.insert(layout.assemblies.begin(), std::move(generated));
    }
    return layout;
}

void ScriptAssemblyBuilds::showLayout(const compiler::AssemblyLayout& layout,
                                      const std::vector<fs::path>& own,
                                      const std::vector<fs::path>& onScripts,
                                      const GeneratedTexts& texts) {
    if (!options_.onWalk || (walkReused_ && shownGenerated_ == texts))
        return;
    shownGenerated_ = texts;
    if (auto shown = withGeneratedAssemblies(layout, own, onScripts))
        options_.onWalk(*shown);
    // else the build reports why
}

Result<compiler::AssemblyLayout>
ScriptAssemblyBuilds::layoutAfter(const std::vector<fs::path>& changed, bool everything) {
    auto edited = [this](const fs::path& file) {
        std::error_code ec;
        return file.extension() == ".cs" && std::ranges::binary_search(walk_->sources, file) &&
               fs::is_regular_file(file, ec);
    };
    walkReused_ = walk_ && !everything && std::ranges::all_of(changed, edited);
    if (walkReused_)
        return walk_->layout;
    walk_.reset();
    auto layout = compiler::readAssemblyLayout(options_.scriptDirs);
    if (!layout)
        return std::unexpected(layout.error());
    // What the definitions ask for that is not done (an unsupported field, an assembly left
    // out): said once, when the walk that finds it is the first to.
    for (const std::string& warning : layout->warnings) {
        if (std::ranges::find(shownWarnings_, warning) == shownWarnings_.end())
            spdlog::warn("{}", warning);
    }
    shownWarnings_ = layout->warnings;
    Walk walk{*layout, layout->skipped, std::nullopt};
    for (const compiler::ScriptAssembly& assembly : layout->assemblies)
        walk.sources.insert(walk.sources.end(), assembly.sources.begin(), assembly.sources.end());
    std::ranges::sort(walk.sources);
    walk_ = std::move(walk);
    return layout;
}

Result<std::vector<fs::path>> ScriptAssemblyBuilds::singleAssemblySources() {
    if (walkReused_ && walk_->singleAssembly)
        return *walk_->singleAssembly;
    auto sources = collectScriptSources(options_.scriptDirs);
    if (sources)
        walk_->singleAssembly = *sources;
    return sources;
}

std::vector<fs::path> ScriptAssemblyBuilds::outputs(const compiler::FinishedBuild& finished) {
    if (!finished.set)
        return {finished.result.output};
    std::vector<fs::path> dlls = precompiledFiles(finished.set->request.layout);
    for (const compiler::AssemblyBuild& assembly : finished.set->result.assemblies)
        dlls.push_back(assembly.output);
    return dlls;
}

Result<std::vector<AssemblyFile>>
ScriptAssemblyBuilds::read(const compiler::FinishedBuild& finished) {
    std::vector<AssemblyFile> files;
    for (const fs::path& dll : outputs(finished)) {
        auto file = AssemblyFile::read(dll);
        if (!file)
            return std::unexpected(file.error());
        files.push_back(std::move(*file));
    }
    return files;
}

std::vector<std::string> ScriptAssemblyBuilds::compiled(const compiler::FinishedBuild& finished) {
    std::vector<std::string> names;
    if (!finished.set)
        return names;
    for (const compiler::AssemblyBuild& assembly : finished.set->result.assemblies) {
        if (assembly.outcome == compiler::AssemblyOutcome::Built ||
            assembly.outcome == compiler::AssemblyOutcome::Failed)
            names.push_back(assembly.name);
    }
    return names;
}

void ScriptAssemblyBuilds::describe(const compiler::FinishedBuild& finished, ReloadReport& report) {
    report.assembliesBuilt = compiled(finished);
    report.assembliesKept.clear();
    if (!finished.set)
        return;
    for (const compiler::AssemblyBuild& assembly : finished.set->result.assemblies) {
        if (assembly.reusedWithNewReferences)
            report.assembliesKept.push_back(assembly.name);
    }
}

void ScriptAssemblyBuilds::committed(const compiler::FinishedBuild& finished) {
    if (auto covered = covered_.find(finished.id); covered != covered_.end()) {
        for (const fs::path& file : covered->second.changes)
            sinceRunning_.erase(file);
        runningGenerated_ = std::move(covered->second.generated);
    }
    covered_.clear();
    everythingSinceRunning_ = false;
    if (inFlightReuse_ && inFlightReuse_->first == finished.id)
        inFlightReuse_.reset();
    if (finished.set) {
        runningLayout_ = finished.set->request.layout;
        runningOutputs_ = finished.set->result.outputs();
        const std::vector<std::string> built = compiled(finished);
        if (built.size() >= runningLayout_->assemblies.size()) {
            recentlyBuilt_.clear();
            guessByTimes_ = true; // in idle time (likelyReused): a stat of every source
        } else {
            guessFromTimes(); // a build came before idle time did
            recentlyBuilt_.emplace_back(built.begin(), built.end());
            if (recentlyBuilt_.size() > kRecentBuilds)
                recentlyBuilt_.pop_front();
        }
    } else {
        runningLayout_.reset();
        runningOutputs_.clear();
        recentlyBuilt_.clear();
        guessByTimes_ = false;
    }
}

void ScriptAssemblyBuilds::guessFromTimes() {
    if (!std::exchange(guessByTimes_, false) || !runningLayout_)
        return;
    std::set<fs::path> generated(options_.generatedSources.begin(),
                                 options_.generatedSources.end());
    generated.insert(options_.generatedSourcesOnScripts.begin(),
                     options_.generatedSourcesOnScripts.end());
    std::set<std::string> edited =
        lastEditedAssemblies(*runningLayout_, generated, kRecentBuilds, kEditedApart);
    if (!edited.empty())
        recentlyBuilt_.push_front(std::move(edited));
}

std::vector<fs::path> ScriptAssemblyBuilds::likelyReused() {
    if (inFlightReuse_)
        return inFlightReuse_->second;
    guessFromTimes();
    if (!runningLayout_)
        return {};
    std::vector<fs::path> reused = precompiledFiles(*runningLayout_);
    std::set<std::string> referenced;
    for (const compiler::ScriptAssembly& assembly : runningLayout_->assemblies)
        referenced.insert(assembly.references.begin(), assembly.references.end());
    auto builtLately = [&](const std::string& name) {
        return std::ranges::any_of(recentlyBuilt_, [&](const std::set<std::string>& built) {
            return built.contains(name);
        });
    };
    // Nothing that references an assembly left out is loaded either: its classes could not
    // load without it (after a core's edit that kept its interface, only the core was built).
    std::set<std::string> leftOut;
    for (const compiler::ScriptAssembly& assembly : runningLayout_->assemblies) { // (in order)
        const bool expectEdit = recentlyBuilt_.empty() ? !referenced.contains(assembly.name)
                                                       : builtLately(assembly.name);
        const bool needsLeftOut = std::ranges::any_of(
            assembly.references, [&](const std::string& name) { return leftOut.contains(name); });
        const auto output = runningOutputs_.find(assembly.name);
        if (expectEdit || needsLeftOut || output == runningOutputs_.end())
            leftOut.insert(assembly.name);
        else
            reused.push_back(output->second);
    }
    return reused;
}

void ScriptAssemblyBuilds::prune() {
    std::vector<fs::path> inUse;
    for (const auto& [name, dll] : runningOutputs_)
        inUse.push_back(dll);
    (void)outputs_.prune(kKeepBuilds, inUse);
}

} // namespace scripthost
