#pragma once
// Precompiled assemblies: the managed .dll files (plugins) in the script folders, as Unity
// treats those in a project's Assets: each is an assembly of its own name that the built
// assemblies reference and that is loaded with them. The rules: compiler-bridge/README.md,
// "Precompiled assemblies".

#include "compiler_bridge/assembly_definition.hpp"
#include "compiler_bridge/assembly_layout.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::compiler {

/// The precompiled assembly `file` (absolute and normal): named after its file without the
/// extension, auto-referenced unless its `<file>.meta` turns that off
/// (readMetaExplicitlyReferenced).
[[nodiscard]] PrecompiledAssembly readPrecompiledAssembly(const std::filesystem::path& file);

/// Whether the plugin importer settings Unity wrote into `metaFile` turn "Auto Reference" off:
/// a line `isExplicitlyReferenced: 1` (indented or not, spaces around the value and a trailing
/// '\r' allowed). False when the file cannot be read or has no such line. Not a YAML parser:
/// nothing else of the file is looked at (platform settings, define constraints).
[[nodiscard]] bool readMetaExplicitlyReferenced(const std::filesystem::path& metaFile);

/// Whether `headers` (a file's first bytes) are those of a managed assembly: a PE image whose
/// CLI header (ECMA-335 §II.25.3.3, the 15th data directory of its optional header) is present.
/// Unity's native plugins (a Windows `steam_api64.dll`) are PE images without one; bytes that
/// are not PE, or are cut short, are neither. No package in Debian reads PE headers for C++
/// (`pev` is a tool, `python3-pefile` Python): this checks four fields at fixed offsets.
[[nodiscard]] bool isManagedImage(std::string_view headers);

/// isManagedImage of the first 4 KiB of `file` (false when it cannot be read).
[[nodiscard]] bool isManagedAssembly(const std::filesystem::path& file);

/// Whether a folder between `relativeToRoot` and its root is named exactly `Editor`: Unity
/// builds such a plugin for the editor only.
[[nodiscard]] bool inEditorFolder(const std::filesystem::path& relativeToRoot);

/// The precompiled assemblies one assembly references, by name, sorted.
struct PrecompiledReferences {
    std::vector<std::string> names;
    /// `precompiledReferences` entries that name no .dll of `found` (a build error).
    std::vector<std::string> missing;
};

/// What `definition` references of `found`: with `overrideReferences`, the ones whose file
/// names its `precompiledReferences` lists (compared without case, as Unity's are written by
/// hand: "newtonsoft.json.dll" names Newtonsoft.Json.dll); otherwise every auto-referenced one.
[[nodiscard]] PrecompiledReferences
precompiledReferencesOf(const AssemblyDefinition& definition,
                        const std::vector<PrecompiledAssembly>& found);

/// The names of the auto-referenced ones of `found`, sorted: what the default assembly and every
/// definition that does not override its references see.
[[nodiscard]] std::vector<std::string>
autoReferencedPrecompiled(const std::vector<PrecompiledAssembly>& found);

} // namespace scripthost::compiler
