#include "host/script_sources.hpp"

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
        const std::size_t before = sources.size();
        fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied,
                                            ec);
        if (ec) {
            return fail("cannot read " + folder.string() + ": " + ec.message());
        }
        for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (ec) {
                return fail("cannot read " + folder.string() + ": " + ec.message());
            }
            const fs::path& path = it->path();
            const std::string name = path.filename().string();
            if (it->is_directory(ec)) {
                if (name == "bin" || name == "obj" || (!name.empty() && name[0] == '.')) {
                    it.disable_recursion_pending();
                }
                continue;
            }
            if (path.extension() == ".cs" && it->is_regular_file(ec)) {
                sources.push_back(fs::absolute(path));
            }
        }
        if (sources.size() == before) {
            return fail("no .cs files under " + folder.string());
        }
    }
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    return sources;
}

} // namespace scripthost
