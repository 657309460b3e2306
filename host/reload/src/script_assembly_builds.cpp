#include "script_assembly_builds.hpp"

#include "host/engine/script_sources.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace scripthost {

namespace fs = std::filesystem;

namespace {

/// Whether `layout` is a project of assembly definitions (not one default assembly).
bool byFolder(const compiler::AssemblyLayout& layout) {
    return layout.assemblies.size() > 1 ||
           (layout.assemblies.size() == 1 && !layout.assemblies[0].definition.empty());
}

/// Old builds kept besides the running one (what is loaded was read into memory).
constexpr std::size_t kKeepBuilds = 3;

/// The assembly the generated sources (the native proxies) go into: the default assembly,
/// which references every auto-referenced one, so proxies there may implement their classes;
/// without loose scripts, the last assembly in order.
std::string generatedHome(const compiler::AssemblyLayout& layout) {
    if (layout.assemblies.empty())
        return {};
    const compiler::ScriptAssembly* home =
        layout.find(compiler::AssemblyLayoutOptions{}.defaultAssembly);
    return home != nullptr ? home->name : layout.assemblies.back().name;
}

/// `names` with `name` and every assembly that references it, in dependency order.
std::vector<std::string> withDependents(const compiler::AssemblyLayout& layout,
                                        const std::vector<std::string>& names,
                                        const std::string& name) {
    std::set<std::string> wanted(names.begin(), names.end());
    wanted.insert(name);
    for (const std::string& dependent : layout.dependentsOf(name))
        wanted.insert(dependent);
    std::vector<std::string> ordered;
    for (const compiler::ScriptAssembly& assembly : layout.assemblies) {
        if (wanted.contains(assembly.name))
            ordered.push_back(assembly.name);
    }
    return ordered;
}

} // namespace

ScriptAssemblyBuilds::ScriptAssemblyBuilds(ScriptAssemblyBuildOptions options,
                                           const fs::path& buildDir)
    : options_(std::move(options)), outputs_(buildDir, "Scripts") {}

Result<void> ScriptAssemblyBuilds::submit(compiler::BuildQueue& queue,
                                          const std::vector<fs::path>& changed, bool everything) {
    sinceRunning_.insert(changed.begin(), changed.end());
    everythingSinceRunning_ = everythingSinceRunning_ || everything;
    auto layout = layoutAfter(changed, everything);
    if (!layout)
        return std::unexpected(layout.error());
    std::vector<fs::path> generated;
    for (const fs::path& file : options_.generatedSources) {
        if (fs::exists(file))
            generated.push_back(file);
    }
    if (!byFolder(*layout)) { // one Scripts.dll of every source, as without definitions
        auto sources = singleAssemblySources();
        if (!sources)
            return std::unexpected(sources.error());
        compiler::CompileRequest request;
        request.sources = std::move(*sources);
        request.sources.insert(request.sources.end(), generated.begin(), generated.end());
        request.references = {options_.scriptCore};
        request.output = outputs_.next();
        request.timeout = options_.timeout;
        runningLayout_.reset(); // the next set build builds every assembly
        runningOutputs_.clear();
        covered_.clear(); // only the newest submission is ever delivered
        covered_[queue.submit(std::move(request))] = sinceRunning_;
        return {};
    }
    compiler::AssemblySetRequest request;
    const std::vector<fs::path> since(sinceRunning_.begin(), sinceRunning_.end());
    request.rebuild = compiler::assembliesToRebuild(
        everythingSinceRunning_ ? nullptr : (runningLayout_ ? &*runningLayout_ : nullptr), *layout,
        since);
    const std::string home = generatedHome(*layout);
    if (!home.empty() && std::ranges::any_of(options_.generatedSources, [&](const fs::path& file) {
            return sinceRunning_.contains(file);
        }))
        request.rebuild = withDependents(*layout, request.rebuild, home);
    for (const compiler::ScriptAssembly& assembly : layout->assemblies) {
        if (auto found = runningOutputs_.find(assembly.name); found != runningOutputs_.end())
            request.previous.insert(*found);
    }
    request.references = {options_.scriptCore};
    request.timeout = options_.timeout;
    request.outputFolder = outputs_.nextFolder();
    if (!generated.empty())
        request.generated = {home, std::move(generated)};
    request.layout = std::move(*layout);
    covered_.clear(); // only the newest submission is ever delivered
    covered_[queue.submit(std::move(request))] = sinceRunning_;
    return {};
}

Result<compiler::AssemblyLayout>
ScriptAssemblyBuilds::layoutAfter(const std::vector<fs::path>& changed, bool everything) {
    auto edited = [this](const fs::path& file) {
        std::error_code ec;
        if (std::ranges::find(options_.generatedSources, file) != options_.generatedSources.end())
            return true; // not in the folders: their change moves nothing
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
    Walk walk{*layout, layout->skipped, std::nullopt};
    for (const compiler::ScriptAssembly& assembly : layout->assemblies)
        walk.sources.insert(walk.sources.end(), assembly.sources.begin(), assembly.sources.end());
    std::ranges::sort(walk.sources);
    walk_ = std::move(walk);
    if (options_.onWalk)
        options_.onWalk(*layout);
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
    std::vector<fs::path> dlls;
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

void ScriptAssemblyBuilds::committed(const compiler::FinishedBuild& finished) {
    if (auto covered = covered_.find(finished.id); covered != covered_.end()) {
        for (const fs::path& file : covered->second)
            sinceRunning_.erase(file);
    }
    covered_.clear();
    everythingSinceRunning_ = false;
    if (finished.set) {
        runningLayout_ = finished.set->request.layout;
        runningOutputs_ = finished.set->result.outputs();
        const std::vector<std::string> built = compiled(finished);
        runningBuilt_ = {built.begin(), built.end()};
        runningBuiltAll_ = built.size() >= runningLayout_->assemblies.size();
    } else {
        runningLayout_.reset();
        runningOutputs_.clear();
    }
}

std::vector<fs::path> ScriptAssemblyBuilds::likelyReused() const {
    std::vector<fs::path> reused;
    if (!runningLayout_)
        return reused;
    std::set<std::string> referenced;
    for (const compiler::ScriptAssembly& assembly : runningLayout_->assemblies)
        referenced.insert(assembly.references.begin(), assembly.references.end());
    for (const compiler::ScriptAssembly& assembly : runningLayout_->assemblies) {
        const bool expectEdit = runningBuiltAll_ ? !referenced.contains(assembly.name)
                                                 : runningBuilt_.contains(assembly.name);
        const auto output = runningOutputs_.find(assembly.name);
        if (!expectEdit && output != runningOutputs_.end())
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
