#pragma once

#include "watcher/change_set.hpp"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace scripthost::watcher::detail {

// Hands ChangeSets from the watcher thread to the consumer. push() never waits for the
// consumer: once `mergeThreshold` sets are waiting, new ones are merged into the newest.
class ChangeQueue {
public:
    explicit ChangeQueue(std::size_t mergeThreshold = 64) : mergeThreshold_(mergeThreshold) {}

    // Queues a change set (or folds it into the newest queued one when the queue is long).
    void push(ChangeSet changes);
    // Oldest queued set, or nothing.
    [[nodiscard]] std::optional<ChangeSet> tryPop();
    // Oldest queued set, waiting until the deadline at most.
    [[nodiscard]] std::optional<ChangeSet> popUntil(std::chrono::steady_clock::time_point deadline);
    // Number of queued sets.
    [[nodiscard]] std::size_t size() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<ChangeSet> sets_;
    std::size_t mergeThreshold_;
};

} // namespace scripthost::watcher::detail
