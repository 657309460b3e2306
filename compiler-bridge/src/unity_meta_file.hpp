#pragma once
// The `.meta` files Unity writes beside every asset: YAML, of which scripthost reads an
// asset's GUID (an `.asmdef`'s, which `GUID:` references name) and a plugin's import settings
// (a `.dll`'s: "Auto Reference", its define constraints, the platforms it is enabled for).
// Parsed with yaml-cpp; the rules: compiler-bridge/README.md, "Precompiled assemblies" and
// "GUIDs".

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::compiler {

/// One entry of a plugin's `platformData`: a platform it may be enabled for. Unity writes
/// `first: {Editor: Editor}`, `first: {Standalone: Linux64}`, and for "Any Platform" either
/// `first: {Any: }` (older versions) or `first: {: Any}` (newer ones, whose settings hold the
/// "Exclude <platform>" checkboxes).
struct PluginPlatform {
    std::string group; ///< `Editor`, `Standalone`, `Any`; empty in `{: Any}`
    std::string name;  ///< `Editor`, `Linux64`, `Win64`, `Any`; empty in `{Any: }`
    bool enabled = false;
    /// The platforms whose `Exclude <platform>` setting is 1 (meaningful under "Any").
    std::set<std::string> excluded;

    /// Whether this is the "Any Platform" entry (`Any` as its group or its name).
    [[nodiscard]] bool isAny() const { return group == "Any" || name == "Any"; }

    bool operator==(const PluginPlatform&) const = default;
};

/// The `PluginImporter` settings of a plugin's `.meta`.
struct PluginImportSettings {
    /// `isExplicitlyReferenced: 1`: Unity's "Auto Reference" off.
    bool explicitlyReferenced = false;
    /// `defineConstraints`, as an `.asmdef`'s (define_constraints.hpp).
    std::vector<std::string> defineConstraints;
    /// `platformData`, in the file's order; empty when the file has none.
    std::vector<PluginPlatform> platforms;

    bool operator==(const PluginImportSettings&) const = default;
};

/// What scripthost reads of one `.meta` file.
struct UnityMetaFile {
    /// `guid:` at the top level when it is 32 hex digits, in lower case; empty otherwise.
    std::string guid;
    /// The `PluginImporter` mapping's settings, when the file has one.
    std::optional<PluginImportSettings> plugin;
    /// Why the file, or a part of it, was not read, naming the file (and for a YAML error the
    /// line and column where the parser stopped); empty when all of it was. What could not be
    /// read keeps its default (no GUID, Auto Reference on, no constraints, every platform).
    std::vector<std::string> warnings;
};

/// Parses `text`, the contents of `file` (named in the warnings). Never throws: a file that is
/// not YAML, or whose values have other types than Unity writes, gives warnings.
[[nodiscard]] UnityMetaFile parseUnityMeta(const std::filesystem::path& file,
                                           std::string_view text);

/// parseUnityMeta of `file`'s contents: nothing and no warning when there is no such file (an
/// asset without its `.meta` has Unity's defaults), a warning when it cannot be read or is
/// larger than 1 MiB (Unity's are under 2 KiB).
[[nodiscard]] UnityMetaFile readUnityMeta(const std::filesystem::path& file);

} // namespace scripthost::compiler
