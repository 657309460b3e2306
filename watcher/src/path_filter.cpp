#include "watcher/path_filter.hpp"

#include "watcher/script_source_rule.hpp"

#include <algorithm>
#include <cctype>
#include <fnmatch.h>

namespace scripthost::watcher {

namespace fs = std::filesystem;

namespace {

std::string asciiLower(std::string text) {
    std::ranges::transform(text, text.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

bool globMatches(const std::string& glob, const std::string& text, int flags) {
    return ::fnmatch(glob.c_str(), text.c_str(), flags) == 0;
}

} // namespace

PathFilter PathFilter::scriptSources() {
    PathFilter filter;
    filter.scriptSourceRule_ = true;
    return filter;
}

PathFilter::PathFilter(std::vector<std::string> extensions, std::vector<std::string> ignore,
                       bool ignoreEditorArtifacts)
    : ignoreEditorArtifacts_(ignoreEditorArtifacts) {
    for (std::string& extension : extensions) {
        if (extension.empty()) {
            continue;
        }
        if (extension.front() != '.') {
            extension.insert(extension.begin(), '.');
        }
        extensions_.push_back(asciiLower(std::move(extension)));
    }
    for (std::string& glob : ignore) {
        while (glob.starts_with("./")) {
            glob.erase(0, 2);
        }
        const bool directoryOnly = glob.ends_with('/');
        while (glob.ends_with('/')) {
            glob.pop_back();
        }
        if (glob.empty()) {
            continue;
        }
        const bool anchored = glob.find('/') != std::string::npos;
        patterns_.push_back(Pattern{std::move(glob), directoryOnly, anchored});
    }
}

bool PathFilter::acceptsFile(const fs::path& relative) const {
    if (scriptSourceRule_) {
        return isScriptSource(relative) || isAssemblyDefinitionFile(relative) ||
               isPrecompiledAssemblyFile(relative);
    }
    const std::string name = relative.filename().string();
    if (name.empty() || (ignoreEditorArtifacts_ && isEditorTempFile(name))) {
        return false;
    }
    return extensionAccepted(name) && !ignoredComponents(relative, /*lastIsFile=*/true);
}

bool PathFilter::acceptsDirectory(const fs::path& relative) const {
    if (scriptSourceRule_) {
        return isScriptFolder(relative);
    }
    return !ignoredComponents(relative, /*lastIsFile=*/false);
}

bool PathFilter::extensionAccepted(const std::string& fileName) const {
    if (extensions_.empty()) {
        return true;
    }
    const std::string lower = asciiLower(fileName);
    return std::ranges::any_of(extensions_, [&](const std::string& extension) {
        // "x.cs" matches ".cs"; a bare ".cs" (hidden file, no stem) does not.
        return lower.size() > extension.size() && lower.ends_with(extension);
    });
}

bool PathFilter::ignoredComponents(const fs::path& relative, bool lastIsFile) const {
    std::vector<std::string> components;
    for (const fs::path& part : relative) {
        const std::string text = part.string();
        if (!text.empty() && text != ".") {
            components.push_back(text);
        }
    }
    std::string prefix; // leading components joined with '/', for anchored patterns
    for (std::size_t i = 0; i < components.size(); ++i) {
        const bool isFolder = !(lastIsFile && i + 1 == components.size());
        prefix += (i == 0 ? "" : "/") + components[i];
        for (const Pattern& pattern : patterns_) {
            if (pattern.directoryOnly && !isFolder) {
                continue;
            }
            const bool hit = pattern.anchored ? globMatches(pattern.glob, prefix, FNM_PATHNAME)
                                              : globMatches(pattern.glob, components[i], 0);
            if (hit) {
                return true;
            }
        }
    }
    return false;
}

} // namespace scripthost::watcher
