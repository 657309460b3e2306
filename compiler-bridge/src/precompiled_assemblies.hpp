#pragma once
// Precompiled assemblies: the managed .dll files (plugins) in the script folders, as Unity
// treats those in a project's Assets: each is an assembly of its own name that the built
// assemblies reference and that is loaded with them. The rules: compiler-bridge/README.md,
// "Precompiled assemblies".

#include "compiler_bridge/assembly_definition.hpp"
#include "compiler_bridge/assembly_layout.hpp"
#include "unity_meta_file.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::compiler {

/// A plugin file as read, before the layout decides whether it is used.
struct PluginFile {
    /// Named after its file without the extension; auto-referenced unless its `.meta` says
    /// `isExplicitlyReferenced: 1`.
    PrecompiledAssembly assembly;
    /// The `PluginImporter` settings of `<file>.meta` (unity_meta_file.hpp); Unity's defaults
    /// (every platform, no constraint) without one.
    PluginImportSettings settings;
    std::vector<std::string> warnings; ///< the `.meta`'s, each naming it
};

/// The plugin `file` (absolute and normal) and its `<file>.meta`.
[[nodiscard]] PluginFile readPluginFile(const std::filesystem::path& file);

/// Why the layout does not use a plugin: its platforms (plugin_platforms.hpp) or its
/// `.meta`'s define constraints.
struct PluginLeftOut {
    PrecompiledAssembly assembly;
    /// Left out as one in an `Editor/` folder is, without a warning of its own.
    bool editorOnly = false;
    /// "for the Editor only"; "not for the Editor: its .meta enables it for Win64 only";
    /// "its defineConstraints \"X\" do not hold with no symbol defined".
    std::string reason;
};

/// Whether `plugin` is left out when the symbols defined are `defines`; nullopt when it is used.
/// Its platforms are looked at first.
[[nodiscard]] std::optional<PluginLeftOut> pluginLeftOut(const PluginFile& plugin,
                                                         const std::vector<std::string>& defines);

/// The plugins of a layout, as readPlugins finds them.
struct FoundPlugins {
    std::vector<PrecompiledAssembly> used; ///< sorted by name (stable: a name twice stays twice)
    std::vector<PluginLeftOut> leftOut;    ///< in the order of the files
    /// Each naming its file: a native plugin ("not a managed assembly (a native plugin?): not
    /// used"), a `.meta`'s warnings, a plugin left out other than as editor-only.
    std::vector<std::string> warnings;
};

/// The plugins among `files` (absolute and normal .dll files, sorted) when the symbols defined
/// are `defines`.
[[nodiscard]] FoundPlugins readPlugins(const std::vector<std::filesystem::path>& files,
                                       const std::vector<std::string>& defines);

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
    /// `precompiledReferences` entries that name no .dll of `found` or `leftOut` (a build error).
    std::vector<std::string> missing;
    /// Entries that name only a plugin of `leftOut`: not referenced, a warning each
    /// ("Tools.dll, which is not used: for the Editor only").
    std::vector<std::string> leftOut;
};

/// What `definition` references of `found`: with `overrideReferences`, the ones whose file
/// names its `precompiledReferences` lists (compared without case, as Unity's are written by
/// hand: "newtonsoft.json.dll" names Newtonsoft.Json.dll); otherwise every auto-referenced one.
/// An entry that names no plugin of `found` but one of `leftOut` is not missing: its plugin is
/// not for here (Unity's platform-specific builds of one plugin share its file name).
[[nodiscard]] PrecompiledReferences
precompiledReferencesOf(const AssemblyDefinition& definition,
                        const std::vector<PrecompiledAssembly>& found,
                        const std::vector<PluginLeftOut>& leftOut = {});

/// The names of the auto-referenced ones of `found`, sorted: what the default assembly and every
/// definition that does not override its references see.
[[nodiscard]] std::vector<std::string>
autoReferencedPrecompiled(const std::vector<PrecompiledAssembly>& found);

} // namespace scripthost::compiler
