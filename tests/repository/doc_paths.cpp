#include "doc_paths.hpp"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace scripthost::repository {
namespace fs = std::filesystem;

namespace {

std::set<std::string> topLevelFolders(const fs::path& root) {
    std::set<std::string> out;
    for (const auto& entry : fs::directory_iterator(root)) {
        const std::string name = entry.path().filename().string();
        // Build folders (build/, build-sanitize/) are outputs: a path into one is not checked.
        if (entry.is_directory() && name.rfind("build", 0) != 0 && name[0] != '.' &&
            name != "node_modules")
            out.insert(name);
    }
    return out;
}

/// `pattern` with '*' matching any characters but '/'.
bool exists(const fs::path& root, const std::string& pattern) {
    if (pattern.find('*') == std::string::npos)
        return fs::exists(root / pattern);
    const std::size_t slash = pattern.rfind('/');
    const fs::path folder = root / pattern.substr(0, slash == std::string::npos ? 0 : slash);
    const std::string name = slash == std::string::npos ? pattern : pattern.substr(slash + 1);
    std::string expression;
    for (char c : name) {
        if (c == '*')
            expression += "[^/]*";
        else if (std::string_view(".+?()[]{}^$|\\").find(c) != std::string_view::npos)
            expression += std::string("\\") + c;
        else
            expression += c;
    }
    const std::regex matcher(expression);
    if (!fs::is_directory(folder))
        return false;
    for (const auto& entry : fs::directory_iterator(folder))
        if (std::regex_match(entry.path().filename().string(), matcher))
            return true;
    return false;
}

/// The path part of a cited text: up to a space, a ':' (a line number, a description) or
/// a '#' (an anchor).
std::string pathPart(std::string text) {
    const std::size_t cut = text.find_first_of(" :#(");
    if (cut != std::string::npos)
        text.resize(cut);
    while (!text.empty() && (text.back() == ',' || text.back() == '.' || text.back() == ')'))
        text.pop_back();
    return text;
}

} // namespace

std::vector<MissingPath> missingDocPaths(const fs::path& root, const fs::path& document) {
    const std::set<std::string> tops = topLevelFolders(root);
    const std::string relativeDoc = fs::relative(document, root).generic_string();
    std::ifstream in(document);
    std::vector<MissingPath> missing;
    static const std::regex code("`([^`\\n]+)`");
    static const std::regex link(R"(\]\(([^)\s]+)\))");
    std::string line;
    int number = 0;
    bool inFence = false;
    while (std::getline(in, line)) {
        ++number;
        if (line.rfind("```", 0) == 0) {
            inFence = !inFence;
            continue;
        }
        if (inFence)
            continue;
        for (std::sregex_iterator it(line.begin(), line.end(), code), end; it != end; ++it) {
            const std::string path = pathPart((*it)[1]);
            const std::size_t slash = path.find('/');
            if (slash == std::string::npos || !tops.contains(path.substr(0, slash)) ||
                path.find_first_of("<{…$") != std::string::npos)
                continue;
            if (!exists(root, path))
                missing.push_back({relativeDoc, number, path});
        }
        for (std::sregex_iterator it(line.begin(), line.end(), link), end; it != end; ++it) {
            const std::string target = pathPart((*it)[1]);
            if (target.empty() || target.find("://") != std::string::npos ||
                target.rfind("mailto", 0) == 0)
                continue;
            const fs::path resolved = document.parent_path() / target;
            if (!fs::exists(resolved))
                missing.push_back({relativeDoc, number, target});
        }
    }
    return missing;
}

} // namespace scripthost::repository
