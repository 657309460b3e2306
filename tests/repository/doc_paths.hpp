#pragma once
// The paths the documentation cites, and which of them do not exist.

#include <filesystem>
#include <string>
#include <vector>

namespace scripthost::repository {

/// A path a document cites that names nothing in the tree.
struct MissingPath {
    std::string document; ///< relative to the root
    int line = 0;
    std::string path;
};

/// Every path `document` cites that does not exist below `root`: text in backticks that
/// starts with one of the root's top-level folders (not build outputs: build*/) ("host/engine/src/script_host.cpp",
/// "sdk/include/", "host/app/src/supervisor.*"; a '*' matches within one name), and the
/// targets of relative Markdown links (resolved against the document's folder). Placeholders
/// ("tests/<folder>/") and anything after a space or a ':' are left out.
[[nodiscard]] std::vector<MissingPath> missingDocPaths(const std::filesystem::path& root,
                                                       const std::filesystem::path& document);

} // namespace scripthost::repository
