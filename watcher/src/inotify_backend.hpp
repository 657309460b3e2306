#pragma once

#include "file_index.hpp"
#include "missing_roots.hpp"
#include "posix/unique_fd.hpp"
#include "watch_loop.hpp"
#include "watcher/path_filter.hpp"

#include <cstddef>
#include <expected>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
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
//
// A root that is deleted or moved away (or missing at start) is followed: its nearest
// existing ancestor is watched for the next component of the root's path to appear, walking
// down as the components come back. When the root is a folder again its tree is watched, and
// a rescan is noted: after the quiet window (so a folder put back and then filled is one set)
// every root is rescanned against the last reported state. Renaming a folder above a root
// sends no event to the root's watch, so every rootCheckInterval each root path is also
// checked to still name the folder watched (or waited in).
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
    // A root that does not exist is marked in `missing` and followed.
    [[nodiscard]] static std::expected<std::unique_ptr<InotifyBackend>, SetupFailure>
    create(std::vector<std::filesystem::path> roots, const PathFilter& filter,
           std::size_t watchLimit, MissingRoots& missing);

    // Files found while setting up, for the coalescer's initial state.
    [[nodiscard]] FileIndex takeInitialIndex() { return std::move(initialIndex_); }

    // Processes events until a stop is requested or inotify can no longer be used.
    [[nodiscard]] Outcome run(LoopContext& context);

    // The inotify descriptor: readable while the kernel holds events the loop has not read.
    [[nodiscard]] int fd() const noexcept { return fd_.get(); }

    // Only create() can make the key; it lets create() use std::make_unique.
    class ConstructionKey {
        friend class InotifyBackend;
        ConstructionKey() = default;
    };
    InotifyBackend(ConstructionKey key, posix::UniqueFd fd,
                   std::vector<std::filesystem::path> roots, const PathFilter& filter,
                   std::size_t watchLimit, MissingRoots& missing);
    InotifyBackend(const InotifyBackend&) = delete;
    InotifyBackend& operator=(const InotifyBackend&) = delete;

private:
    // Vanished: the folder is gone or is no folder any more (not worth a warning).
    // Failed: it is there but cannot be watched (permissions, say).
    enum class AddResult { Added, Vanished, Failed, OutOfWatches };
    // Attached: the root is a folder and its tree is watched. Waiting: it is missing and an
    // ancestor is watched for its return. Unwatchable: inotify cannot watch it or its
    // ancestor (polling can).
    enum class FollowResult { Attached, Waiting, OutOfWatches, Unwatchable };

    struct Watch {
        std::filesystem::path folder; // absolute
        std::filesystem::path root;   // the root it lies under, for filter-relative paths
    };
    // A missing root and the watch on its nearest existing ancestor.
    struct AncestorWatch {
        int wd = -1; // -1: none (the kernel dropped it; being replaced)
        std::filesystem::path ancestor;
        std::optional<FolderIdentity> identity; // of `ancestor` when it was watched
    };
    using FileCallback = std::function<void(const std::filesystem::path&)>;

    AddResult addWatch(const std::filesystem::path& root, const std::filesystem::path& folder);
    // Watches `start` and its subfolders, calling onFile for every accepted file, watch first
    // and listing second so nothing created in between is lost. Returns how watching `start`
    // itself went (its subfolders may vanish or fail on their own); OutOfWatches when any
    // watch did not fit.
    AddResult watchTree(const std::filesystem::path& root, const std::filesystem::path& start,
                        const FileCallback& onFile);
    [[nodiscard]] bool isWatched(const std::filesystem::path& folder) const;
    void unwatchSubtree(const std::filesystem::path& folder);
    // Watches the root's tree (onFile gets its files) when it is a folder, else its nearest
    // existing ancestor; looks again after adding a watch, so a component that appeared
    // meanwhile is not missed. Marks the root present or missing.
    FollowResult followRoot(const std::filesystem::path& root, const FileCallback& onFile);
    // Removes the ancestor watch `wd` unless another missing root or a folder watch uses it.
    void releaseAncestorWatch(int wd);
    // The root was deleted or moved away (or its watch dropped): its files are gone; follow it.
    FollowResult rootGone(const std::filesystem::path& root, LoopContext& context);
    // Does each root path still name the folder watched (or the ancestor waited in)? A folder
    // above it may have been renamed. Follows the roots for which it does not.
    FollowResult checkRoots(LoopContext& context);
    // An event on an ancestor watch of missing roots.
    FollowResult ancestorEvent(const inotify_event& event, LoopContext& context);
    // Why run() must end after following a root, if it must.
    [[nodiscard]] static std::optional<Outcome> endingFor(FollowResult result);
    // Reads every queued event. Sets `overflowed` on IN_Q_OVERFLOW. Nothing while inotify
    // can still be used, else why run() should end.
    std::optional<Outcome> readEvents(LoopContext& context, bool& overflowed);
    std::optional<Outcome> handleEvent(const inotify_event& event, LoopContext& context);
    // Re-walks the roots (refreshing watches, following missing roots) and publishes a
    // rescanned ChangeSet.
    std::optional<Outcome> rescan(LoopContext& context);

    posix::UniqueFd fd_;
    std::vector<std::filesystem::path> roots_;
    const PathFilter& filter_;
    std::size_t watchLimit_;
    MissingRoots& missing_;
    std::unordered_map<int, Watch> watches_;
    std::map<std::filesystem::path, FolderIdentity> attached_; // roots watched, and which folder
    std::map<std::filesystem::path, AncestorWatch> waiting_;   // missing roots being followed
    std::unordered_set<int>* seenDuringRescan_ = nullptr;      // non-null only inside rescan()
    FileIndex initialIndex_;
};

} // namespace scripthost::watcher::detail
