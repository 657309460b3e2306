#include "compiler_bridge/assembly_set_build.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace scripthost::compiler {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

/// Every assembly `assembly` references, directly or not (names).
std::set<std::string> referencedClosure(const AssemblyLayout& layout,
                                        const ScriptAssembly& assembly) {
    std::set<std::string> found;
    std::vector<const ScriptAssembly*> pending{&assembly};
    while (!pending.empty()) {
        const ScriptAssembly* next = pending.back();
        pending.pop_back();
        for (const std::string& name : next->references) {
            const ScriptAssembly* referenced = layout.find(name);
            if (referenced != nullptr && found.insert(name).second) {
                pending.push_back(referenced);
            }
        }
    }
    return found;
}

/// Whether `previous` names a .dll on disk for `name`.
bool hasPrevious(const AssemblySetRequest& request, const std::string& name) {
    const auto found = request.previous.find(name);
    std::error_code ec;
    return found != request.previous.end() && !found->second.empty() &&
           fs::is_regular_file(found->second, ec);
}

/// Why the request cannot be built, or empty.
std::string problemWith(const AssemblySetRequest& request) {
    if (request.outputFolder.empty()) {
        return "no output folder given for the assembly set";
    }
    std::string problem;
    for (const std::string& name : request.rebuild) {
        if (request.layout.find(name) == nullptr) {
            problem +=
                (problem.empty() ? "" : "\n") +
                ("cannot rebuild assembly " + name + ": the layout has no assembly of that name");
        }
    }
    return problem;
}

std::chrono::milliseconds since(Clock::time_point started) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
}

} // namespace

const AssemblyBuild* AssemblySetResult::find(std::string_view name) const {
    const auto found = std::ranges::find(assemblies, name, &AssemblyBuild::name);
    return found == assemblies.end() ? nullptr : &*found;
}

const AssemblyBuild* AssemblySetResult::failed() const {
    const auto found =
        std::ranges::find(assemblies, AssemblyOutcome::Failed, &AssemblyBuild::outcome);
    return found == assemblies.end() ? nullptr : &*found;
}

const AssemblyBuild* AssemblySetResult::lastCompiled() const {
    if (const AssemblyBuild* failure = failed())
        return failure; // (two compilers: one after it in order may have been built meanwhile)
    const AssemblyBuild* last = nullptr;
    for (const AssemblyBuild& assembly : assemblies) {
        if (assembly.result) {
            last = &assembly;
        }
    }
    return last;
}

std::map<std::string, fs::path> AssemblySetResult::outputs() const {
    std::map<std::string, fs::path> found;
    for (const AssemblyBuild& assembly : assemblies) {
        if (assembly.outcome == AssemblyOutcome::Built ||
            assembly.outcome == AssemblyOutcome::Reused) {
            found.emplace(assembly.name, assembly.output);
        }
    }
    return found;
}

std::vector<std::string> assembliesToBuild(const AssemblySetRequest& request) {
    std::set<std::string> building;
    std::vector<std::string> ordered;
    for (const ScriptAssembly& assembly : request.layout.assemblies) {
        // The layout is in dependency order: whatever it references was decided before it.
        const bool asked =
            std::ranges::find(request.rebuild, assembly.name) != request.rebuild.end();
        const bool referencesOne = std::ranges::any_of(
            assembly.references, [&](const std::string& name) { return building.contains(name); });
        if (asked || referencesOne || !hasPrevious(request, assembly.name)) {
            building.insert(assembly.name);
            ordered.push_back(assembly.name);
        }
    }
    return ordered;
}

CompileRequest assemblyCompileRequest(const AssemblySetRequest& request,
                                      const ScriptAssembly& assembly,
                                      const std::map<std::string, fs::path>& outputs) {
    CompileRequest compile;
    compile.sources = assembly.sources;
    compile.references = request.references;
    const std::set<std::string> referenced = referencedClosure(request.layout, assembly);
    // The precompiled assemblies it and those it references see (mcs needs a base class's
    // assembly too), in the layout's order.
    std::set<std::string> plugins(assembly.precompiledReferences.begin(),
                                  assembly.precompiledReferences.end());
    for (const std::string& name : referenced) {
        if (const ScriptAssembly* other = request.layout.find(name); other != nullptr)
            plugins.insert(other->precompiledReferences.begin(),
                           other->precompiledReferences.end());
    }
    for (const PrecompiledAssembly& plugin : request.layout.precompiled) {
        if (plugins.contains(plugin.name))
            compile.references.push_back(plugin.file);
    }
    for (const ScriptAssembly& other : request.layout.assemblies) {
        if (referenced.contains(other.name)) {
            const auto output = outputs.find(other.name);
            if (output != outputs.end()) {
                compile.references.push_back(output->second);
            }
        }
    }
    compile.defines = request.defines;
    compile.output = request.outputFolder / (assembly.name + ".dll");
    compile.debugSymbols = request.debugSymbols;
    compile.allowUnsafeCode = assembly.allowUnsafeCode;
    compile.timeout = request.timeout;
    return compile;
}

namespace {

// Whether the new build of an assembly shows others what its previous build showed.
bool interfaceKept(Compiler& compiler, const fs::path& built, const fs::path& previous) {
    const std::optional<std::string> now = compiler.interfaceOf(built);
    if (!now)
        return false;
    const std::optional<std::string> before = compiler.interfaceOf(previous);
    return before && *before == *now;
}

// The assemblies of a set still to compile and what the compiles found so far, shared by the
// one or two compilers building it (buildAssemblySet). Guarded by `mutex`.
struct SetSchedule {
    const AssemblySetRequest& request;
    const std::function<bool()>& stopRequested;
    AssemblySetResult& result;
    std::vector<std::size_t> pending{};        // layout indices, in dependency order
    std::set<std::string> mustBuild{};         // asked, or no previous .dll: never reused
    std::map<std::string, fs::path> outputs{}; // built or reused so far
    std::map<std::string, bool> built{};       // built so far: whether it kept its interface
    std::mutex mutex{};
    std::condition_variable changed{}; // a compile ended
    std::size_t running = 0;
    bool going = true; // no failure and no stop yet
    bool compiledOne = false;

    const ScriptAssembly& assemblyAt(std::size_t index) const {
        return request.layout.assemblies[index];
    }

    // Whether every assembly the one at `index` references (directly or not) has its .dll.
    bool ready(std::size_t index) const {
        const std::set<std::string> needed = referencedClosure(request.layout, assemblyAt(index));
        return std::ranges::all_of(needed, [&](const std::string& name) {
            return outputs.contains(name) || request.layout.find(name) == nullptr;
        });
    }

    // Whether the assembly at `index` (ready) is pending only because assemblies it references
    // were rebuilt, and each of those kept its interface: its last build is still good.
    bool reusable(std::size_t index) const {
        const ScriptAssembly& assembly = assemblyAt(index);
        if (!request.reuseWhenInterfaceKept || mustBuild.contains(assembly.name))
            return false;
        const std::set<std::string> referenced = referencedClosure(request.layout, assembly);
        return std::ranges::all_of(referenced, [&](const std::string& name) {
            const auto rebuilt = built.find(name);
            return rebuilt == built.end() || rebuilt->second;
        });
    }

    // Whether a pending assembly that references `name` (directly or not) is to be built only
    // for its references: then the compile of `name` asks whether it kept its interface.
    bool dependentsMayBeReused(const std::string& name) const {
        if (!request.reuseWhenInterfaceKept || !hasPrevious(request, name))
            return false;
        return std::ranges::any_of(pending, [&](std::size_t i) {
            return !mustBuild.contains(assemblyAt(i).name) &&
                   referencedClosure(request.layout, assemblyAt(i)).contains(name);
        });
    }

    // Takes the first pending assembly that is ready and records that one more compile runs;
    // none once the set is to end, or when nothing can be ready any more. Ready ones that
    // are reusable are reused on the way.
    std::optional<std::size_t> take(std::unique_lock<std::mutex>& lock, bool primary) {
        for (;;) {
            if (!going || pending.empty())
                return std::nullopt;
            const auto found =
                std::ranges::find_if(pending, [&](std::size_t i) { return ready(i); });
            if (found != pending.end() && reusable(*found)) {
                AssemblyBuild& entry = result.assemblies[*found];
                entry.outcome = AssemblyOutcome::Reused;
                entry.output = request.previous.at(entry.name);
                entry.reusedWithNewReferences = true;
                outputs.emplace(entry.name, entry.output);
                pending.erase(found);
                changed.notify_all();
                continue;
            }
            // The first compile is the primary compiler's: its server prepares the next set's
            // first compile (prepareNext), which reuses these references.
            if ((primary || compiledOne) && found != pending.end()) {
                if (stopRequested && stopRequested()) {
                    result.stopped = true;
                    going = false;
                    return std::nullopt;
                }
                const std::size_t index = *found;
                pending.erase(found);
                ++running;
                return index;
            }
            if (running == 0 && (primary || compiledOne))
                return std::nullopt; // nothing can become ready (dependency order: never)
            changed.wait(lock);
        }
    }

    // One compiler's share: assemblies as they become ready, until the set ends.
    void work(Compiler& compiler, bool primary) {
        std::unique_lock lock(mutex);
        while (const auto index = take(lock, primary)) {
            AssemblyBuild& entry = result.assemblies[*index];
            entry.request = assemblyCompileRequest(request, assemblyAt(*index), outputs);
            entry.request->prepareNext = !compiledOne;
            compiledOne = true;
            const bool askInterface = dependentsMayBeReused(entry.name);
            lock.unlock();
            CompileResult compiled = compiler.compile(*entry.request);
            const bool kept =
                compiled.success && askInterface &&
                interfaceKept(compiler, compiled.output, request.previous.at(entry.name));
            lock.lock();
            --running;
            entry.result = std::move(compiled);
            if (entry.result->success) {
                entry.outcome = AssemblyOutcome::Built;
                entry.output = entry.result->output;
                entry.interfaceKept = kept;
                built.emplace(entry.name, kept);
                outputs.emplace(entry.name, entry.output);
            } else {
                entry.outcome = AssemblyOutcome::Failed;
                if (result.failedAssembly.empty())
                    result.failedAssembly = entry.name;
                going = false;
            }
            changed.notify_all();
        }
        changed.notify_all(); // the other compiler may be waiting for a state this ended
    }
};

} // namespace

AssemblySetResult buildAssemblySet(Compiler& compiler, const AssemblySetRequest& request,
                                   const std::function<bool()>& stopRequested) {
    return buildAssemblySet(compiler, nullptr, request, stopRequested);
}

AssemblySetResult buildAssemblySet(Compiler& compiler, Compiler* second,
                                   const AssemblySetRequest& request,
                                   const std::function<bool()>& stopRequested) {
    const auto started = Clock::now();
    AssemblySetResult result;
    result.error = problemWith(request);
    if (!result.error.empty()) {
        result.duration = since(started);
        return result;
    }
    const std::vector<std::string> toBuild = assembliesToBuild(request);
    SetSchedule schedule{request, stopRequested, result};
    for (std::size_t i = 0; i < request.layout.assemblies.size(); ++i) {
        const ScriptAssembly& assembly = request.layout.assemblies[i];
        AssemblyBuild& entry = result.assemblies.emplace_back();
        entry.name = assembly.name;
        if (std::ranges::find(toBuild, assembly.name) == toBuild.end()) {
            entry.outcome = AssemblyOutcome::Reused;
            entry.output = request.previous.at(assembly.name);
            schedule.outputs.emplace(assembly.name, entry.output);
        } else {
            schedule.pending.push_back(i);
            if (std::ranges::find(request.rebuild, assembly.name) != request.rebuild.end() ||
                !hasPrevious(request, assembly.name))
                schedule.mustBuild.insert(assembly.name);
        }
    }
    // A second compiler takes assemblies whose references are built while the first compiles
    // another (a core's edit: its 19 leaves, two at a time).
    std::thread helper;
    if (second != nullptr && schedule.pending.size() > 1)
        helper = std::thread([&] { schedule.work(*second, false); });
    schedule.work(compiler, true);
    if (helper.joinable())
        helper.join();
    result.success = schedule.going && schedule.pending.empty() && schedule.running == 0;
    result.duration = since(started);
    return result;
}

} // namespace scripthost::compiler
