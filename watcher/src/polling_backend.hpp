#pragma once

#include "file_index.hpp"
#include "missing_roots.hpp"
#include "watch_loop.hpp"
#include "watcher/path_filter.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <vector>

namespace scripthost::watcher::detail {

// Finds changes by rescanning every root each interval and comparing file stamps.
//
// Differences are fed to the ChangeCoalescer, which is flushed only after a scan that found
// nothing new (and the quiet window has passed) or when the max latency is reached, so a
// save caught half-way (file renamed away, new one not yet written) still reads as one
// modification.
//
// A missing root is simply looked for again at each scan (its files read as removed). A root
// that comes back, or is replaced by another folder (deleted and re-created, or another
// folder renamed into its place), makes the next set a rescan, like the inotify backend's.
class PollingBackend {
public:
    // Looks at the roots (marking the missing ones in `missing`) and scans them: the state
    // the first scan of run() is compared with.
    PollingBackend(std::vector<std::filesystem::path> roots, const PathFilter& filter,
                   std::chrono::milliseconds interval, MissingRoots& missing);

    // The files found by the last scan.
    [[nodiscard]] const FileIndex& lastScan() const noexcept { return lastScan_; }

    // Scans until a stop is requested.
    void run(LoopContext& context);

private:
    // Looks at every root, updating `missing`; true when one came back or was replaced.
    bool lookAtRoots();
    // Scans the roots that were there when last looked at.
    [[nodiscard]] FileIndex scanPresentRoots() const;

    std::vector<std::filesystem::path> roots_;
    const PathFilter& filter_;
    std::chrono::milliseconds interval_;
    MissingRoots& missing_;
    std::vector<std::optional<FolderIdentity>> rootFolders_; // per root; none: missing
    FileIndex lastScan_;
};

} // namespace scripthost::watcher::detail
