#include "polling_backend.hpp"

#include <algorithm>
#include <poll.h>
#include <spdlog/spdlog.h>

namespace scripthost::watcher::detail {

PollingBackend::PollingBackend(std::vector<std::filesystem::path> roots, const PathFilter& filter,
                               std::chrono::milliseconds interval, MissingRoots& missing)
    : roots_(std::move(roots)), filter_(filter),
      interval_(std::max(interval, std::chrono::milliseconds{1})), missing_(missing),
      rootFolders_(roots_.size()) {
    (void)lookAtRoots(); // a root that is there now is not a return
    lastScan_ = scanPresentRoots();
}

bool PollingBackend::lookAtRoots() {
    bool returned = false;
    for (std::size_t i = 0; i < roots_.size(); ++i) {
        const std::optional<FolderIdentity> now = folderIdentityOf(roots_[i]);
        if (!now) {
            missing_.markMissing(roots_[i]);
        } else if (missing_.markPresent(roots_[i])) {
            returned = true;
        } else if (rootFolders_[i] && *rootFolders_[i] != *now) {
            spdlog::info("watcher: watch root {} was replaced by another folder; rescanning",
                         roots_[i].string());
            returned = true;
        }
        rootFolders_[i] = now;
    }
    return returned;
}

FileIndex PollingBackend::scanPresentRoots() const {
    std::vector<std::filesystem::path> present;
    for (std::size_t i = 0; i < roots_.size(); ++i) {
        if (rootFolders_[i]) {
            present.push_back(roots_[i]);
        }
    }
    return scanRoots(present, filter_);
}

void PollingBackend::run(LoopContext& context) {
    while (!context.stop.stop_requested()) {
        if (context.hooks.beforeWait) {
            context.hooks.beforeWait();
        }
        context.holding.store(context.coalescer.hasPending(), std::memory_order_release);
        // Sleep for one interval, but wake at once for stop / rescan requests.
        pollfd wake{.fd = context.wake.fd(), .events = POLLIN, .revents = 0};
        if (::poll(&wake, 1, static_cast<int>(interval_.count())) > 0) {
            context.wake.drain();
        }
        if (context.stop.stop_requested()) {
            return;
        }

        const bool rootReturned = lookAtRoots();
        FileIndex current = scanPresentRoots();
        if (context.rescanRequested.exchange(false)) {
            context.publish(context.coalescer.rescan(current));
            lastScan_ = std::move(current);
            continue;
        }

        const ChangeSet found = diffIndexes(lastScan_, current);
        lastScan_ = std::move(current);
        const auto now = ChangeCoalescer::Clock::now();
        if (rootReturned) {
            context.coalescer.noteRescanNeeded(now);
        }
        for (const auto& file : found.added) {
            context.coalescer.noteExists(file, now);
        }
        for (const auto& file : found.modified) {
            context.coalescer.noteExists(file, now);
        }
        for (const auto& file : found.removed) {
            context.coalescer.noteGone(file, now);
        }
        const bool quietScan = found.empty() && !rootReturned;
        if (context.coalescer.overdue(now) || (quietScan && context.coalescer.due(now))) {
            context.publish(context.coalescer.flush());
        }
    }
}

} // namespace scripthost::watcher::detail
