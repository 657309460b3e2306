#include "polling_backend.hpp"

#include <algorithm>
#include <poll.h>

namespace scripthost::watcher::detail {

PollingBackend::PollingBackend(std::vector<std::filesystem::path> roots, const PathFilter& filter,
                               std::chrono::milliseconds interval, FileIndex lastScan)
    : roots_(std::move(roots)), filter_(filter),
      interval_(std::max(interval, std::chrono::milliseconds{1})), lastScan_(std::move(lastScan)) {}

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

        FileIndex current = scanRoots(roots_, filter_);
        if (context.rescanRequested.exchange(false)) {
            context.publish(context.coalescer.rescan(current));
            lastScan_ = std::move(current);
            continue;
        }

        const ChangeSet found = diffIndexes(lastScan_, current);
        lastScan_ = std::move(current);
        const auto now = ChangeCoalescer::Clock::now();
        for (const auto& file : found.added) {
            context.coalescer.noteExists(file, now);
        }
        for (const auto& file : found.modified) {
            context.coalescer.noteExists(file, now);
        }
        for (const auto& file : found.removed) {
            context.coalescer.noteGone(file, now);
        }
        if (context.coalescer.overdue(now) || (found.empty() && context.coalescer.due(now))) {
            context.publish(context.coalescer.flush());
        }
    }
}

} // namespace scripthost::watcher::detail
