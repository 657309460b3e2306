#include "compiler_bridge/assembly_set_build.hpp"

#include <algorithm>
#include <set>

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
    if (!request.generated.sources.empty() &&
        request.layout.find(request.generated.assembly) == nullptr) {
        problem += (problem.empty() ? "" : "\n") +
                   ("the generated sources go into assembly '" + request.generated.assembly +
                    "', which the layout does not have");
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
    if (request.generated.assembly == assembly.name) {
        compile.sources.insert(compile.sources.end(), request.generated.sources.begin(),
                               request.generated.sources.end());
    }
    compile.references = request.references;
    const std::set<std::string> referenced = referencedClosure(request.layout, assembly);
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

AssemblySetResult buildAssemblySet(Compiler& compiler, const AssemblySetRequest& request,
                                   const std::function<bool()>& stopRequested) {
    const auto started = Clock::now();
    AssemblySetResult result;
    result.error = problemWith(request);
    if (!result.error.empty()) {
        result.duration = since(started);
        return result;
    }
    const std::vector<std::string> toBuild = assembliesToBuild(request);
    std::map<std::string, fs::path> outputs;
    bool going = true; // no failure and no stop yet
    bool compiledOne = false;
    for (const ScriptAssembly& assembly : request.layout.assemblies) {
        AssemblyBuild& entry = result.assemblies.emplace_back();
        entry.name = assembly.name;
        if (std::ranges::find(toBuild, assembly.name) == toBuild.end()) {
            entry.outcome = AssemblyOutcome::Reused;
            entry.output = request.previous.at(assembly.name);
            outputs.emplace(assembly.name, entry.output);
            continue;
        }
        if (going && stopRequested && stopRequested()) {
            result.stopped = true;
            going = false;
        }
        if (!going) {
            entry.outcome = AssemblyOutcome::NotBuilt;
            continue;
        }
        entry.request = assemblyCompileRequest(request, assembly, outputs);
        // Only the first compile's references are all reused ones, which the next set may
        // reuse as well: the compile server is to prepare for that one.
        entry.request->prepareNext = !compiledOne;
        compiledOne = true;
        entry.result = compiler.compile(*entry.request);
        if (entry.result->success) {
            entry.outcome = AssemblyOutcome::Built;
            entry.output = entry.result->output;
            outputs.emplace(assembly.name, entry.output);
        } else {
            entry.outcome = AssemblyOutcome::Failed;
            result.failedAssembly = assembly.name;
            going = false;
        }
    }
    result.success = going;
    result.duration = since(started);
    return result;
}

} // namespace scripthost::compiler
