#include "change_queue.hpp"

namespace scripthost::watcher::detail {

void ChangeQueue::push(ChangeSet changes) {
    {
        const std::lock_guard lock(mutex_);
        if (mergeThreshold_ > 0 && sets_.size() >= mergeThreshold_) {
            sets_.back().mergeLater(changes);
        } else {
            sets_.push_back(std::move(changes));
        }
    }
    ready_.notify_all();
}

std::optional<ChangeSet> ChangeQueue::tryPop() {
    const std::lock_guard lock(mutex_);
    if (sets_.empty()) {
        return std::nullopt;
    }
    ChangeSet front = std::move(sets_.front());
    sets_.pop_front();
    return front;
}

std::optional<ChangeSet> ChangeQueue::popUntil(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    if (!ready_.wait_until(lock, deadline, [this] { return !sets_.empty(); })) {
        return std::nullopt;
    }
    ChangeSet front = std::move(sets_.front());
    sets_.pop_front();
    return front;
}

std::size_t ChangeQueue::size() const {
    const std::lock_guard lock(mutex_);
    return sets_.size();
}

} // namespace scripthost::watcher::detail
