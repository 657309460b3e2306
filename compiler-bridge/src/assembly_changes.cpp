// What a change to the script folders makes the set build rebuild (assembly_layout.hpp):
// the assemblies whose layout, sources, definition files or precompiled references changed,
// and at most every assembly that references one of those.
#include "compiler_bridge/assembly_layout.hpp"
#include "layout_text.hpp"

#include <algorithm>
#include <set>

namespace scripthost::compiler {

namespace fs = std::filesystem;

std::vector<std::string> assembliesChanged(const AssemblyLayout* previous,
                                           const AssemblyLayout& next,
                                           const std::vector<fs::path>& changedFiles) {
    std::set<std::string, std::less<>> dirty;
    for (const ScriptAssembly& assembly : next.assemblies) {
        const ScriptAssembly* before = previous ? previous->find(assembly.name) : nullptr;
        if (!before || !(*before == assembly)) {
            dirty.insert(assembly.name);
        }
    }
    for (const fs::path& changed : changedFiles) {
        fs::path file = normalPath(changed);
        // X.asmdef.meta changes X.asmdef's assembly; X.dll.meta, those built against X.dll.
        if (lowerExtension(file) == ".meta") {
            file.replace_extension();
        }
        for (const AssemblyLayout* layout : {previous, &next}) {
            if (!layout) {
                continue;
            }
            const auto plugin =
                std::ranges::find(layout->precompiled, file, &PrecompiledAssembly::file);
            for (const ScriptAssembly& assembly : layout->assemblies) {
                // A plugin is built against by the assemblies that see it and by every one that
                // references those (assemblyCompileRequest): all of them may use its types.
                if (plugin != layout->precompiled.end() &&
                    std::ranges::binary_search(assembly.precompiledReferences, plugin->name)) {
                    dirty.insert(assembly.name);
                    for (std::string& dependent : layout->dependentsOf(assembly.name))
                        dirty.insert(std::move(dependent));
                }
                if (assembly.definition == file ||
                    std::ranges::find(assembly.asmrefs, file) != assembly.asmrefs.end() ||
                    std::ranges::binary_search(assembly.sources, file)) {
                    dirty.insert(assembly.name);
                }
            }
        }
    }
    std::vector<std::string> out;
    for (const ScriptAssembly& assembly : next.assemblies) {
        if (dirty.contains(assembly.name))
            out.push_back(assembly.name);
    }
    return out;
}

std::vector<std::string> assembliesToRebuild(const AssemblyLayout* previous,
                                             const AssemblyLayout& next,
                                             const std::vector<fs::path>& changedFiles) {
    const std::vector<std::string> changed = assembliesChanged(previous, next, changedFiles);
    std::set<std::string, std::less<>> dirty(changed.begin(), changed.end());
    std::vector<std::string> out;
    for (const ScriptAssembly& assembly : next.assemblies) {
        const bool referencesDirty = std::ranges::any_of(
            assembly.references, [&](const std::string& ref) { return dirty.contains(ref); });
        if (dirty.contains(assembly.name) || referencesDirty) {
            dirty.insert(assembly.name);
            out.push_back(assembly.name);
        }
    }
    return out;
}

} // namespace scripthost::compiler
