#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace scripthost::watcher {

// Decides which files under a root are reported and which folders are descended into.
// Paths given to it are relative to the watched root.
//
// PathFilter::scriptSources() (what WatchOptions uses unless told otherwise) is the
// script-source rule of script_source_rule.hpp, the one the compiler's source collector uses.
//
// A filter built from extensions and ignore globs watches anything else. Its rules:
//  - extensions: a file is kept only if its extension is listed (ASCII case-insensitive,
//    with or without the leading dot); an empty list keeps every extension.
//  - ignore patterns, fnmatch(3) globs:
//      "name/"      (trailing slash)  matches any *folder* component, at any depth ("bin/");
//      "name"       (no slash)        matches any component, folder or file ("*.g.cs");
//      "a/b", "a/*/" (inner slash)    anchored at the root, matched with FNM_PATHNAME against
//                                     the leading components (trailing slash: folders only).
//  - editor artefacts are never reported when ignoreEditorArtifacts is set: whatever
//    isEditorTempFile() says (emacs lock links and autosaves, "~" backups, vim swap files and
//    vim's "4913" write probe).
class PathFilter {
public:
    // The script sources: accepts exactly the files isScriptSource(), isAssemblyDefinitionFile()
    // and isPrecompiledAssemblyFile() accept and descends only into folders isScriptFolder()
    // accepts.
    [[nodiscard]] static PathFilter scriptSources();

    // Builds a filter; extensions like "cs" and ".cs" are equivalent.
    PathFilter(std::vector<std::string> extensions, std::vector<std::string> ignore,
               bool ignoreEditorArtifacts = true);

    // Should a file at this root-relative path be reported?
    [[nodiscard]] bool acceptsFile(const std::filesystem::path& relative) const;

    // Should the folder at this root-relative path be watched / scanned?
    [[nodiscard]] bool acceptsDirectory(const std::filesystem::path& relative) const;

private:
    struct Pattern {
        std::string glob;   // without the trailing slash
        bool directoryOnly; // written with a trailing slash
        bool anchored;      // contains an inner slash: matched against leading components
    };

    [[nodiscard]] bool ignoredComponents(const std::filesystem::path& relative,
                                         bool lastIsFile) const;
    [[nodiscard]] bool extensionAccepted(const std::string& fileName) const;

    PathFilter() = default; // for scriptSources()

    bool scriptSourceRule_ = false;       // scriptSources(): the fields below are unused
    std::vector<std::string> extensions_; // lower-case, each with a leading dot
    std::vector<Pattern> patterns_;
    bool ignoreEditorArtifacts_ = true;
};

} // namespace scripthost::watcher
