#include "watcher/script_source_rule.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <span>
#include <string>
#include <vector>

namespace scripthost::watcher {

namespace fs = std::filesystem;

namespace {

/// Vim probes whether a folder is writable by creating and deleting "4913" (or, if that
/// exists, 4913 + 123, 4913 + 246, ...).
bool isVimWriteProbe(std::string_view name) {
    if (name.empty() || !std::ranges::all_of(name, [](char c) { return c >= '0' && c <= '9'; })) {
        return false;
    }
    unsigned long long value = 0;
    const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), value);
    return error == std::errc{} && end == name.data() + name.size() && value >= 4913 &&
           (value - 4913) % 123 == 0;
}

/// Vim's swap files end in ".swp", then ".swo", ".swn", ... when the earlier ones exist.
bool isVimSwapFile(std::string_view name) {
    const std::size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0) {
        return false;
    }
    const std::string_view extension = name.substr(dot);
    return extension.size() == 4 && extension.starts_with(".sw") && extension[3] >= 'a' &&
           extension[3] <= 'z';
}

/// ".cs" in any ASCII case.
bool hasCSharpExtension(std::string_view name) {
    if (name.size() < 3) {
        return false;
    }
    const std::string_view extension = name.substr(name.size() - 3);
    return extension[0] == '.' && (extension[1] == 'c' || extension[1] == 'C') &&
           (extension[2] == 's' || extension[2] == 'S');
}

bool isHidden(std::string_view component) {
    return component.starts_with('.');
}

bool isBuildOutputFolder(std::string_view component) {
    return component == "bin" || component == "obj";
}

/// The components of a root-relative path, without "." and empty ones (a trailing slash);
/// false when the path is absolute or leaves the root ("..").
bool splitBelowRoot(const fs::path& relativeToRoot, std::vector<std::string>& components) {
    if (relativeToRoot.has_root_path()) {
        return false;
    }
    for (const fs::path& part : relativeToRoot) {
        std::string text = part.string();
        if (text == "..") {
            return false;
        }
        if (!text.empty() && text != ".") {
            components.push_back(std::move(text));
        }
    }
    return true;
}

bool allAreScriptFolders(std::span<const std::string> folders) {
    return std::ranges::none_of(folders, [](const std::string& folder) {
        return isHidden(folder) || isBuildOutputFolder(folder);
    });
}

} // namespace

bool isEditorTempFile(std::string_view fileName) {
    return fileName.starts_with(".#") || // emacs lock
           (fileName.size() > 1 && fileName.front() == '#' && fileName.back() == '#') || // autosave
           fileName.ends_with('~') ||                                                    // backup
           isVimSwapFile(fileName) || isVimWriteProbe(fileName);
}

bool isScriptSource(const fs::path& relativeToRoot) {
    std::vector<std::string> components;
    if (!splitBelowRoot(relativeToRoot, components) || components.empty()) {
        return false;
    }
    const std::string& name = components.back();
    return !isHidden(name) && hasCSharpExtension(name) && name.size() > 3 &&
           !isEditorTempFile(name) &&
           allAreScriptFolders(std::span(components).first(components.size() - 1));
}

namespace {

/// Whether the file at `relativeToRoot` is below the root, in script folders, not hidden nor an
/// editor's temporary file, and its lower-case name ends with one of `suffixes`.
bool isLayoutFile(const fs::path& relativeToRoot,
                  std::initializer_list<std::string_view> suffixes) {
    std::vector<std::string> components;
    if (!splitBelowRoot(relativeToRoot, components) || components.empty()) {
        return false;
    }
    std::string name = components.back();
    for (char& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool matches = std::ranges::any_of(
        suffixes, [&](std::string_view suffix) { return name.ends_with(suffix); });
    return matches && !isHidden(name) && !isEditorTempFile(name) &&
           allAreScriptFolders(std::span(components).first(components.size() - 1));
}

} // namespace

bool isAssemblyDefinitionFile(const fs::path& relativeToRoot) {
    return isLayoutFile(relativeToRoot, {".asmdef", ".asmref", ".asmdef.meta"});
}

bool isPrecompiledAssemblyFile(const fs::path& relativeToRoot) {
    return isLayoutFile(relativeToRoot, {".dll", ".dll.meta"});
}

bool isScriptFolder(const fs::path& relativeToRoot) {
    std::vector<std::string> components;
    return splitBelowRoot(relativeToRoot, components) && allAreScriptFolders(components);
}

} // namespace scripthost::watcher
