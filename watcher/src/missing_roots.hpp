#pragma once

#include <filesystem>
#include <mutex>
#include <vector>

namespace scripthost::watcher::detail {

// The watch roots that do not exist right now: written by the backend on the watcher thread
// (and by start()), read by SourceWatcher::missingRoots() on any thread. Each change is
// logged once, so both backends say the same thing when a root goes and comes back.
class MissingRoots {
public:
    // The root does not exist (or is not a folder). Logs a warning when it was there before.
    void markMissing(const std::filesystem::path& root);
    // The root exists and is watched again. Logs when it was missing before; returns whether
    // it was (whether the root has just come back).
    bool markPresent(const std::filesystem::path& root);

    // Is the root marked missing?
    [[nodiscard]] bool contains(const std::filesystem::path& root) const;
    // The missing roots, sorted.
    [[nodiscard]] std::vector<std::filesystem::path> list() const;

private:
    mutable std::mutex mutex_;
    std::vector<std::filesystem::path> roots_; // sorted, unique
};

} // namespace scripthost::watcher::detail
