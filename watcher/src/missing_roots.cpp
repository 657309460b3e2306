#include "missing_roots.hpp"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace scripthost::watcher::detail {

namespace fs = std::filesystem;

void MissingRoots::markMissing(const fs::path& root) {
    {
        const std::lock_guard lock(mutex_);
        const auto at = std::ranges::lower_bound(roots_, root);
        if (at != roots_.end() && *at == root) {
            return;
        }
        roots_.insert(at, root);
    }
    spdlog::warn("watcher: watch root {} is missing; it is watched again when it reappears",
                 root.string());
}

bool MissingRoots::markPresent(const fs::path& root) {
    {
        const std::lock_guard lock(mutex_);
        const auto at = std::ranges::lower_bound(roots_, root);
        if (at == roots_.end() || *at != root) {
            return false;
        }
        roots_.erase(at);
    }
    spdlog::info("watcher: watch root {} is back; rescanning", root.string());
    return true;
}

bool MissingRoots::contains(const fs::path& root) const {
    const std::lock_guard lock(mutex_);
    return std::ranges::binary_search(roots_, root);
}

std::vector<fs::path> MissingRoots::list() const {
    const std::lock_guard lock(mutex_);
    return roots_;
}

} // namespace scripthost::watcher::detail
