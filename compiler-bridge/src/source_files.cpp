#include "compiler_bridge/source_files.hpp"

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
        const std::string name = path.filename().string();
        std::error_code typeError;
        if (it->is_directory(typeError)) {
            if (name == "bin" || name == "obj" || name.starts_with(".")) {
                it.disable_recursion_pending();
            }
            continue;
        }
        if (path.extension() == ".cs" && !name.starts_with(".") && it->is_regular_file(typeError)) {
            sources.push_back(path);
        }
    }
    std::sort(sources.begin(), sources.end());
    return sources;
}

} // namespace scripthost::compiler
