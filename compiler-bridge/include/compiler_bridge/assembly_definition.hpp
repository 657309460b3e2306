#pragma once
// One Unity assembly definition (`.asmdef`) or assembly definition reference (`.asmref`), as
// read from its file; the rules that put them together are assembly_layout.hpp's.

#include "scripthost/game/error.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::compiler {

/// An `.asmdef`: Unity's JSON, the fields the build uses, and `rootNamespace` (for editors).
/// Fields the build has no use for (`excludePlatforms`, `noEngineReferences`) are accepted
/// without a word; `versionDefines` (non-empty) and any field Unity does not write are
/// accepted with one warning each.
struct AssemblyDefinition {
    std::filesystem::path file;          ///< the .asmdef, as given
    std::string name;                    ///< `name`: required, not empty
    std::vector<std::string> references; ///< `references`, as written: names or "GUID:<hex>"
    bool editorOnly = false;             ///< `includePlatforms` is exactly ["Editor"]
    /// `defineConstraints`, as written (define_constraints.hpp): the layout leaves the assembly
    /// out unless every one holds with the build's symbols (one that cannot be evaluated never
    /// does, and the layout's warning says so).
    std::vector<std::string> defineConstraints;
    bool allowUnsafeCode = false; ///< `allowUnsafeCode`: the build passes -unsafe
    bool autoReferenced = true;   ///< `autoReferenced`: the default assembly sees it
    /// `overrideReferences`: the assembly sees only the precompiled assemblies (plugin .dll
    /// files) `precompiledReferences` names; otherwise every auto-referenced one.
    bool overrideReferences = false;
    /// `precompiledReferences`, as written: file names such as "Newtonsoft.Json.dll" (used
    /// only with `overrideReferences`, as in Unity).
    std::vector<std::string> precompiledReferences;
    std::string rootNamespace;         ///< `rootNamespace`: new files' namespace in editors
    std::string guid;                  ///< from `<file>.meta` (its top-level `guid`); empty if none
    std::vector<std::string> warnings; ///< "<file>: \"<field>\" is not supported, ignored"
};

/// An `.asmref`: the sources of its folder join the assembly it names.
struct AssemblyDefinitionReference {
    std::filesystem::path file;        ///< the .asmref, as given
    std::string reference;             ///< `reference`: a name or "GUID:<hex>"
    std::vector<std::string> warnings; ///< one per field other than `reference`
};

/// Parses the text of the .asmdef `file` (named in every message). An error, naming the file
/// and the field, for a missing or empty `name` and for a known field of the wrong type
/// (`references` not an array of strings, `allowUnsafeCode` not a bool, a `GUID:` reference
/// that is not 32 hex digits...); an error naming the file, line and column for malformed
/// JSON or a top level that is not an object. `guid` is left empty.
[[nodiscard]] Result<AssemblyDefinition> parseAssemblyDefinition(const std::filesystem::path& file,
                                                                 std::string_view text);

/// Reads and parses the .asmdef `file`, and its GUID from `<file>.meta` when there is one.
[[nodiscard]] Result<AssemblyDefinition> readAssemblyDefinition(const std::filesystem::path& file);

/// Parses the text of the .asmref `file`: `{"reference": "<name or GUID:hex>"}`, required.
[[nodiscard]] Result<AssemblyDefinitionReference>
parseAssemblyDefinitionReference(const std::filesystem::path& file, std::string_view text);

/// Reads and parses the .asmref `file`.
[[nodiscard]] Result<AssemblyDefinitionReference>
readAssemblyDefinitionReference(const std::filesystem::path& file);

/// The GUID of a reference written `GUID:<32 hex digits>`, lower-case; nullopt for a name.
[[nodiscard]] std::optional<std::string> referencedGuid(std::string_view reference);

} // namespace scripthost::compiler
