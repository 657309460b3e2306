#pragma once

#include "file_index.hpp"
#include "posix/unique_fd.hpp"
#include "watch_loop.hpp"
#include "watcher/path_filter.hpp"

#include <cstddef>
#include <expected>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

struct inotify_event;

namespace scripthost::watcher::detail {

// Recursive watching with Linux inotify: one watch per accepted folder.
//
// New folders get a watch and are then scanned (files created before the watch existed are
// reported as added); folders deleted or moved away report their files removed; IN_Q_OVERFLOW
// triggers a full rescan. Running out of watches (ENOSPC) ends run() so the owner can switch
// to polling.
class InotifyBackend {
public:
    // Why run() returned.
    enum class Outcome { Stopped, OutOfWatches, Failed };

    // Why create() failed; `error` is the errno value.
    struct SetupFailure {
        int error;
        std::string message;
    };

    // Opens inotify, watches every accepted folder below the roots, and scans the files.
    [[nodiscard]] static std::expected<std::unique_ptr<InotifyBackend>, SetupFailure>
    create(std::vector<std::filesystem::path> roots, const PathFilter& filter,
           std::size_t watchLimit);

    // Files found while setting up, for the coalescer's initial state.
    [[nodiscard]] FileIndex takeInitialIndex() { return std::move(initialIndex_); }

    // Processes events until a stop is requested or inotify can no longer be used.
    [[nodiscard]] Outcome run(LoopContext& context);

    // Only create() can make the key; it lets create() use std::make_unique.
    class ConstructionKey {
        friend class InotifyBackend;
        ConstructionKey() = default;
    };
    InotifyBackend(ConstructionKey key, posix::UniqueFd fd,
                   std::vector<std::filesystem::path> roots, const PathFilter& filter,
                   std::size_t watchLimit);
    InotifyBackend(const InotifyBackend&) = delete;
    InotifyBackend& operator=(const InotifyBackend&) = delete;

private:
    enum class AddResult { Added, Skipped, OutOfWatches };

    struct Watch {
        std::filesystem::path folder; // absolute
        std::filesystem::path root;   // the root it lies under, for filter-relative paths
    };

    AddResult addWatch(const std::filesystem::path& root, const std::filesystem::path& folder);
    // Watches `start` and its subfolders, calling onFile for every accepted file, watch first
    // and listing second so nothing created in between is lost. False when out of watches.
    bool watchTree(const std::filesystem::path& root, const std::filesystem::path& start,
                   const std::function<void(const std::filesystem::path&)>& onFile);
    [[nodiscard]] bool isWatched(const std::filesystem::path& folder) const;
    void unwatchSubtree(const std::filesystem::path& folder);
    // Reads every queued event. Sets `overflowed` on IN_Q_OVERFLOW. False when out of watches.
    bool readEvents(LoopContext& context, bool& overflowed);
    bool handleEvent(const inotify_event& event, LoopContext& context);
    // Re-walks the roots (refreshing watches) and publishes a rescanned ChangeSet.
    bool rescan(LoopContext& context);

    posix::UniqueFd fd_;
    std::vector<std::filesystem::path> roots_;
    const PathFilter& filter_;
    std::size_t watchLimit_;
    std::unordered_map<int, Watch> watches_;
    std::unordered_set<int>* seenDuringRescan_ = nullptr; // non-null only inside rescan()
    FileIndex initialIndex_;
};

} // namespace scripthost::watcher::detail
