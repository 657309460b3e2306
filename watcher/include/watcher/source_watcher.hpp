#pragma once

#include "watcher/backend.hpp"
#include "watcher/change_set.hpp"
#include "watcher/watch_error.hpp"
#include "watcher/watch_options.hpp"

#include <chrono>
#include <expected>
#include <memory>
#include <optional>

namespace scripthost::watcher {

// Watches source roots on its own thread and queues coalesced ChangeSets for the main thread.
//
// The watcher thread never waits for the consumer: change sets pile up in a queue (merged
// once it gets long) that poll()/waitFor() drain. Destroying the watcher stops and joins the
// thread and closes every descriptor.
class SourceWatcher {
public:
    // Validates the roots, sets up the backend (watches are in place when this returns) and
    // starts the watcher thread. A missing or non-folder root gives an error naming the path
    // (a missing one does not with WatchOptions::waitForMissingRoots: it is watched for).
    [[nodiscard]] static std::expected<std::unique_ptr<SourceWatcher>, WatchError>
    start(WatchOptions options);

    struct Impl; // defined in source_watcher.cpp
    // Only start() can make the key, so only start() can construct a watcher.
    class ConstructionKey {
        friend class SourceWatcher;
        ConstructionKey() = default;
    };
    SourceWatcher(ConstructionKey key, std::unique_ptr<Impl> impl);
    ~SourceWatcher();
    SourceWatcher(const SourceWatcher&) = delete;
    SourceWatcher& operator=(const SourceWatcher&) = delete;
    SourceWatcher(SourceWatcher&&) = delete;
    SourceWatcher& operator=(SourceWatcher&&) = delete;

    // Next queued change set, or nothing; never blocks on the watcher thread's work.
    [[nodiscard]] std::optional<ChangeSet> poll();

    // Next change set, waiting until the deadline at the latest.
    [[nodiscard]] std::optional<ChangeSet> waitFor(std::chrono::steady_clock::time_point deadline);

    // Whether the watcher has seen changes it has not queued yet (its quiet window is
    // running): a build of the files as they are now may already be out of date. With inotify
    // it is true from the system call that made the change (the event in the kernel's queue),
    // however long the watcher thread takes to read it; polling sees a change only at its
    // next scan.
    [[nodiscard]] bool holdingChanges() const noexcept;

    // Backend currently in use (Inotify or Polling; may switch from Inotify to Polling once).
    [[nodiscard]] Backend backend() const noexcept;

    // Canonical roots actually watched (nested roots merged). A root missing at start is
    // absolute, with the part of its path that existed resolved.
    [[nodiscard]] const std::vector<std::filesystem::path>& roots() const noexcept;

    // The roots (as in roots()) that do not exist right now, sorted; empty when all are
    // there. A root that is deleted or moved away is listed from when the watcher notices
    // (and logs a warning) until it is a folder again (logged too); meanwhile its files are
    // reported removed, and when it is back, its files are reported in one rescanned set
    // against the last reported state. Thread-safe; a snapshot, not a live view.
    [[nodiscard]] std::vector<std::filesystem::path> missingRoots() const;

    // Asks the watcher thread for a full rescan; the result arrives as a rescanned ChangeSet.
    void requestRescan();

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace scripthost::watcher
