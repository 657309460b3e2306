#pragma once
// Script assemblies by folder, as Unity's assembly definitions lay them out: which assemblies
// the script roots hold, the sources and references of each, in dependency order, and which
// must be rebuilt after a change. The rules: compiler-bridge/README.md, "Assemblies by folder".

#include "scripthost/game/error.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::compiler {

/// A managed .dll in the script folders: Unity's precompiled assembly (a plugin), referenced
/// by the assemblies that are built and loaded with them, never built itself.
struct PrecompiledAssembly {
    std::string name;           ///< the file's name without ".dll": its assembly's name
    std::filesystem::path file; ///< the .dll, absolute and normal
    /// Seen by every assembly that does not override its references (Unity's "Auto
    /// Reference"); false when its `<file>.meta` says `isExplicitlyReferenced: 1`.
    bool autoReferenced = true;

    bool operator==(const PrecompiledAssembly&) const = default;
};

/// One assembly to build.
struct ScriptAssembly {
    std::string name;
    std::filesystem::path definition;           ///< the .asmdef; empty for the default assembly
    std::vector<std::filesystem::path> sources; ///< sorted, absolute, never empty
    /// Direct references, by name (GUIDs resolved), as the .asmdef lists them without
    /// duplicates; for the default assembly every auto-referenced assembly, by name. Only
    /// assemblies in the layout: a reference to a definition without sources (not built) is
    /// valid and left out.
    std::vector<std::string> references;
    /// The precompiled assemblies it references, by name, sorted: every auto-referenced one,
    /// or, when its .asmdef overrides its references, those `precompiledReferences` names.
    std::vector<std::string> precompiledReferences;
    std::vector<std::filesystem::path> asmrefs; ///< .asmref files whose folders joined it, sorted
    bool allowUnsafeCode = false;
    bool autoReferenced = true;
    /// The .asmdef's `rootNamespace`: the namespace editors give new files (empty: none given).
    std::string rootNamespace;

    bool operator==(const ScriptAssembly&) const = default;
};

struct AssemblyLayout {
    /// Dependency order: every assembly after those it references; ties broken by name.
    std::vector<ScriptAssembly> assemblies;
    /// The precompiled assemblies (.dll files outside `Editor/` folders), sorted by name: the
    /// built assemblies are loaded after them.
    std::vector<PrecompiledAssembly> precompiled;
    std::vector<std::string> warnings;          ///< each names its file
    std::vector<std::filesystem::path> skipped; ///< sources left out (Editor/, editor-only), sorted

    /// The assembly called `name`, or null.
    [[nodiscard]] const ScriptAssembly* find(std::string_view name) const;
    /// The assembly that builds `source` (made absolute and normal), or null.
    [[nodiscard]] const ScriptAssembly* assemblyOf(const std::filesystem::path& source) const;
    /// The assemblies that reference `name`, directly or not, in dependency order.
    [[nodiscard]] std::vector<std::string> dependentsOf(std::string_view name) const;
    /// The precompiled assembly called `name`, or null.
    [[nodiscard]] const PrecompiledAssembly* findPrecompiled(std::string_view name) const;
};

struct AssemblyLayoutOptions {
    /// The assembly of sources under no definition (Unity's Assembly-CSharp).
    std::string defaultAssembly = "Scripts";
    /// The conditional symbols the builds define (AssemblySetRequest::defines): a definition
    /// whose `defineConstraints` do not all hold with them is left out like an editor-only one
    /// (its sources skipped, its references not checked), with a warning; a reference to it is
    /// valid and left out of the referrer's, with a warning (its types are not there).
    std::vector<std::string> defines;
};

/// Reads the assembly definitions and finds the precompiled assemblies under `roots`, and
/// assigns every source (collectSources) to its assembly. An error lists every problem found,
/// one per line, each naming its files: a file that cannot be parsed, two definition files in
/// one folder, two definitions of a name, a definition named as the default assembly, a
/// reference to no definition (by name or GUID), a runtime assembly referencing an editor-only
/// one, an .asmref to no definition, a reference cycle, two precompiled assemblies of one name
/// or one named as a definition or the default assembly, a `precompiledReferences` entry that
/// names no precompiled assembly.
[[nodiscard]] Result<AssemblyLayout>
readAssemblyLayout(const std::vector<std::filesystem::path>& roots,
                   const AssemblyLayoutOptions& options = {});

/// The assemblies of `next` changed by `changedFiles` (absolute, as the watcher reports
/// them; sources, .asmdef, .asmref, .asmdef.meta, .dll or .dll.meta files, existing or
/// deleted), in dependency order: all of them without a `previous` layout; otherwise those
/// that are new or differ from `previous` (definition, sources, references, flags, asmrefs),
/// hold a changed source, are defined or joined by a changed file, or are built against a
/// precompiled assembly whose .dll (or its .meta) changed (they reference it, or reference,
/// directly or not, an assembly that does). (An AssemblySetRequest's `rebuild`: the set build
/// decides which of the assemblies that reference them must be built too.)
[[nodiscard]] std::vector<std::string>
assembliesChanged(const AssemblyLayout* previous, const AssemblyLayout& next,
                  const std::vector<std::filesystem::path>& changedFiles);

/// assembliesChanged and every assembly that references one of them, directly or not: what a
/// build compiles at most.
[[nodiscard]] std::vector<std::string>
assembliesToRebuild(const AssemblyLayout* previous, const AssemblyLayout& next,
                    const std::vector<std::filesystem::path>& changedFiles);

} // namespace scripthost::compiler
