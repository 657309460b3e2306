#include "host/engine/script_sources.hpp"

#include "compiler_bridge/source_files.hpp"

#include <algorithm>

namespace scripthost {

namespace fs = std::filesystem;

Result<std::vector<fs::path>> collectScriptSources(const std::vector<fs::path>& folders) {
    if (folders.empty()) {
        return fail("no script folder given");
    }
    std::vector<fs::path> sources;
    for (const fs::path& folder : folders) {
        std::error_code ec;
        if (!fs::exists(folder, ec)) {
            return fail("script folder " + folder.string() + " does not exist");
        }
        if (!fs::is_directory(folder, ec)) {
            return fail(folder.string() + " is not a folder");
        }
        auto found = compiler::collectSources(fs::absolute(folder, ec));
        if (found.empty()) {
            return fail("no .cs files under " + folder.string());
        }
        sources.insert(sources.end(), found.begin(), found.end());
    }
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    return sources;
}

} // namespace scripthost
