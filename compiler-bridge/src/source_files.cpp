#include "compiler_bridge/source_files.hpp"

#include "watcher/script_source_rule.hpp"

#include <algorithm>

namespace scripthost::compiler {

std::vector<std::filesystem::path> collectSources(const std::filesystem::path& root) {
    namespace fs = std::filesystem;
    std::vector<fs::path> sources;
    std::error_code ec;
    const fs::path base = fs::absolute(root, ec);
    if (ec) {
        return sources;
    }
    fs::recursive_directory_iterator it(base, fs::directory_options::skip_permission_denied, ec);
    for (const fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
        const fs::path& path = it->path();
        // The watcher judges the same root-relative paths with the same rule, so what it
        // reports and what is built never disagree.
        const fs::path relative = path.lexically_relative(base);
        std::error_code typeError;
        if (it->is_directory(typeError)) {
            if (!watcher::isScriptFolder(relative)) {
                it.disable_recursion_pending();
            }
            continue;
        }
        if (watcher::isScriptSource(relative) && it->is_regular_file(typeError)) {
            sources.push_back(path);
        }
    }
    std::sort(sources.begin(), sources.end());
    return sources;
}

} // namespace scripthost::compiler
