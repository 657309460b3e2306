#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <vector>

namespace scripthost::watcher {

// One coalesced batch of file changes: deduplicated absolute paths, each list sorted in
// std::filesystem::path order (component-wise).
struct ChangeSet {
    std::vector<std::filesystem::path> added;    // files that did not exist before
    std::vector<std::filesystem::path> modified; // files whose content (may have) changed
    std::vector<std::filesystem::path> removed;  // files that no longer exist
    // Events were missed (inotify queue overflow, backend switch, explicit rescan, a watch
    // root that came back): the lists come from comparing a full scan with the last reported
    // state.
    bool rescanned = false;
    // When the watcher saw the first event of this set (none for a rescan): where a reload's
    // edit-to-live time starts.
    std::optional<std::chrono::steady_clock::time_point> firstSeen;
    // Of `added` and `modified`, the files whose last event said they are whole: closed after
    // writing or renamed into place (inotify only; the polling backend and a rescan cannot
    // tell). A file listed there but not here was last seen being written, created or linked.
    std::vector<std::filesystem::path> complete;

    // True when no file is listed (a rescanned set may still be empty).
    [[nodiscard]] bool empty() const noexcept {
        return added.empty() && modified.empty() && removed.empty();
    }

    // Total number of listed files.
    [[nodiscard]] std::size_t size() const noexcept {
        return added.size() + modified.size() + removed.size();
    }

    // Folds a later change set into this one, as if both had been one window:
    // added+removed cancels, removed+added becomes modified, added+modified stays added; a
    // file the later set lists is complete as the later set says, one it does not list as
    // this one says.
    void mergeLater(const ChangeSet& later);

    // Sorts and deduplicates the lists.
    void normalize();

    // The same files and the same flag (when they were seen, and how their last write ended,
    // are not part of what changed).
    friend bool operator==(const ChangeSet& a, const ChangeSet& b) {
        return a.added == b.added && a.modified == b.modified && a.removed == b.removed &&
               a.rescanned == b.rescanned;
    }
};

} // namespace scripthost::watcher
