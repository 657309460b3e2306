#pragma once

#include "file_index.hpp"
#include "watch_loop.hpp"
#include "watcher/path_filter.hpp"

#include <chrono>
#include <filesystem>
#include <vector>

namespace scripthost::watcher::detail {

// Finds changes by rescanning every root each interval and comparing file stamps.
//
// Differences are fed to the ChangeCoalescer, which is flushed only after a scan that found
// nothing new (and the quiet window has passed) or when the max latency is reached, so a
// save caught half-way (file renamed away, new one not yet written) still reads as one
// modification.
class PollingBackend {
public:
    // `lastScan` is the state the first scan is compared with.
    PollingBackend(std::vector<std::filesystem::path> roots, const PathFilter& filter,
                   std::chrono::milliseconds interval, FileIndex lastScan);

    // Scans until a stop is requested.
    void run(LoopContext& context);

private:
    std::vector<std::filesystem::path> roots_;
    const PathFilter& filter_;
    std::chrono::milliseconds interval_;
    FileIndex lastScan_;
};

} // namespace scripthost::watcher::detail
