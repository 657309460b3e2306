#include "include_rules.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace scripthost::repository {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> backticked(std::string_view cell) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while ((at = cell.find('`', at)) != std::string_view::npos) {
        const std::size_t end = cell.find('`', at + 1);
        if (end == std::string_view::npos)
            break;
        out.emplace_back(cell.substr(at + 1, end - at - 1));
        at = end + 1;
    }
    return out;
}

std::vector<std::string_view> cells(std::string_view row) {
    std::vector<std::string_view> out;
    std::size_t at = row.find('|');
    while (at != std::string_view::npos) {
        const std::size_t next = row.find('|', at + 1);
        if (next == std::string_view::npos)
            break;
        out.push_back(row.substr(at + 1, next - at - 1));
        at = next;
    }
    return out;
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool startsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

/// The rule folder that owns `relative` (the longest folder prefix), or null.
const FolderRule* ownerOf(const std::string& relative, const std::vector<FolderRule>& rules) {
    const FolderRule* best = nullptr;
    for (const FolderRule& rule : rules)
        if (startsWith(relative, rule.folder) &&
            (!best || rule.folder.size() > best->folder.size()))
            best = &rule;
    return best;
}

std::string relativeTo(const fs::path& root, const fs::path& file) {
    return fs::relative(file, root).generic_string();
}

} // namespace

std::vector<FolderRule> parseFolderRules(std::string_view markdown, std::string_view heading) {
    std::vector<FolderRule> rules;
    std::istringstream lines{std::string(markdown)};
    std::string line;
    bool inSection = false;
    bool inTable = false;
    while (std::getline(lines, line)) {
        if (startsWith(line, "#")) {
            if (inTable)
                break;
            inSection = line.find(heading) != std::string::npos && startsWith(line, "## ");
            continue;
        }
        if (!inSection)
            continue;
        if (!startsWith(line, "|")) {
            if (inTable)
                break;
            continue;
        }
        inTable = true;
        const auto row = cells(line);
        if (row.size() < 2)
            continue;
        const auto first = backticked(row.front());
        if (first.size() != 1 || first[0].empty() || first[0].back() != '/')
            continue; // the header or separator row
        FolderRule rule{first[0], {}};
        for (std::string& dep : backticked(row.back()))
            rule.mayInclude.insert(std::move(dep));
        rules.push_back(std::move(rule));
    }
    if (rules.empty())
        throw std::runtime_error("no folder table after the heading \"" + std::string(heading) +
                                 "\"");
    return rules;
}

std::vector<IncludeViolation> checkIncludes(const fs::path& root,
                                            const std::vector<FolderRule>& rules) {
    static const std::regex includeLine(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
    std::vector<IncludeViolation> violations;
    for (const FolderRule& rule : rules) {
        const fs::path folder = root / rule.folder;
        if (!fs::is_directory(folder)) {
            violations.push_back({rule.folder, 0, {}, "the folder does not exist"});
            continue;
        }
        for (const auto& entry : fs::recursive_directory_iterator(folder)) {
            const fs::path& file = entry.path();
            const std::string ext = file.extension().string();
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h"))
                continue;
            const std::string relative = relativeTo(root, file);
            const FolderRule* owner = ownerOf(relative, rules);
            if (owner != &rule)
                continue; // a nested folder with a row of its own checks it
            const bool publicHeader = relative.find("/include/") != std::string::npos;
            std::istringstream lines(readFile(file));
            std::string line;
            int number = 0;
            while (std::getline(lines, line)) {
                ++number;
                std::smatch match;
                if (!std::regex_search(line, match, includeLine))
                    continue;
                const std::string included = match[2];
                if (match[1] == "<") {
                    if (publicHeader && startsWith(included, "mono/"))
                        violations.push_back({relative, number, included,
                                              "a public header may not include Mono's headers"});
                    continue;
                }
                // Resolve the quoted include as the compiler would, within the tree.
                std::vector<fs::path> candidates{file.parent_path() / included,
                                                 root / owner->folder / "src" / included};
                for (const FolderRule& other : rules) {
                    candidates.push_back(root / other.folder / "include" / included);
                    candidates.push_back(root / other.folder / "internal" / included);
                }
                for (const fs::path& candidate : candidates) {
                    if (!fs::is_regular_file(candidate))
                        continue;
                    const std::string target = relativeTo(root, candidate);
                    const FolderRule* targetOwner = ownerOf(target, rules);
                    if (targetOwner == nullptr || targetOwner == owner)
                        break;
                    const bool internal =
                        startsWith(target, targetOwner->folder + "internal/");
                    const std::string needed =
                        targetOwner->folder + (internal ? "internal/" : "");
                    if (!owner->mayInclude.contains(needed))
                        violations.push_back(
                            {relative, number, included,
                             owner->folder + " may not include " + needed + " (" + target +
                                 "); docs/ARCHITECTURE.md lists what each folder may include"});
                    else if (!internal && targetOwner->folder != owner->folder &&
                             startsWith(target, targetOwner->folder + "src/"))
                        violations.push_back({relative, number, included,
                                              "a private header of " + targetOwner->folder});
                    break;
                }
            }
        }
    }
    std::sort(violations.begin(), violations.end(),
              [](const IncludeViolation& a, const IncludeViolation& b) {
                  return std::tie(a.file, a.line) < std::tie(b.file, b.line);
              });
    return violations;
}

} // namespace scripthost::repository
