#pragma once
// The dependency rules of docs/ARCHITECTURE.md ("Where to look"), read from its table and
// checked against every #include of the folders it names.

#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::repository {

/// One row of the table: a folder (e.g. "host/engine/") and the folders its code may
/// include ("host/runtime/internal/" grants the runtime's Mono-typed internal headers).
struct FolderRule {
    std::string folder;
    std::set<std::string> mayInclude;
};

/// The rows of the first table after the heading that starts with `heading`: rows whose
/// first cell is a backticked folder ending in '/'; the last cell's backticked folders are
/// what it may include. Throws std::runtime_error when there is no such table.
[[nodiscard]] std::vector<FolderRule> parseFolderRules(std::string_view markdown,
                                                       std::string_view heading);

/// One #include that breaks a rule, or a public header that includes <mono/...>.
struct IncludeViolation {
    std::string file;     ///< relative to the root
    int line = 0;
    std::string included; ///< the text between the quotes or brackets
    std::string reason;
};

/// Checks every .cpp/.hpp/.h under each rule's folder (below `root`). A quoted include
/// resolves, in order, against the including file's folder, its folder's src/ (private
/// headers), then every folder's include/ and internal/; the folder that owns the file it
/// finds must be the includer's own or one of its `mayInclude` (an internal/ header needs
/// "<folder>internal/"). Includes that resolve to no file of the tree (the standard library,
/// packages) are not checked. A header under an include/ folder may not include <mono/...>.
[[nodiscard]] std::vector<IncludeViolation>
checkIncludes(const std::filesystem::path& root, const std::vector<FolderRule>& rules);

} // namespace scripthost::repository
