#include "change_coalescer.hpp"

#include <algorithm>

namespace scripthost::watcher::detail {

namespace fs = std::filesystem;

ChangeCoalescer::ChangeCoalescer(FileIndex known, std::chrono::milliseconds quietWindow,
                                 std::chrono::milliseconds maxLatency, bool flushCompleteSaves)
    : known_(std::move(known)), quietWindow_(quietWindow), maxLatency_(maxLatency),
      flushCompleteSaves_(flushCompleteSaves) {}

void ChangeCoalescer::touch(Clock::time_point now) {
    if (!hasPending()) {
        firstEvent_ = now;
    }
    lastEvent_ = now;
}

void ChangeCoalescer::noteExists(const fs::path& file, Clock::time_point now, bool complete) {
    touch(now);
    pending_[file] = Observation{true, complete};
}

void ChangeCoalescer::noteGone(const fs::path& file, Clock::time_point now) {
    touch(now);
    pending_[file] = Observation{};
}

void ChangeCoalescer::noteSubtreeGone(const fs::path& folder, Clock::time_point now) {
    touch(now);
    // Paths compare component-wise, so a folder's descendants are contiguous after it.
    for (auto it = known_.lower_bound(folder); it != known_.end() && isWithin(it->first, folder);
         ++it) {
        pending_[it->first] = Observation{};
    }
    for (auto it = pending_.lower_bound(folder);
         it != pending_.end() && isWithin(it->first, folder); ++it) {
        it->second = Observation{};
    }
}

void ChangeCoalescer::noteRescanNeeded(Clock::time_point now) {
    touch(now);
    rescanNeeded_ = true;
}

std::optional<ChangeCoalescer::Clock::time_point> ChangeCoalescer::deadline() const {
    if (!hasPending()) {
        return std::nullopt;
    }
    const bool settled =
        !rescanNeeded_ && std::all_of(pending_.begin(), pending_.end(),
                                      [](const auto& entry) { return entry.second.complete; });
    const bool afterQuiet = !flushedEvent_ || firstEvent_ >= *flushedEvent_ + quietWindow_;
    if (flushCompleteSaves_ && settled && afterQuiet) {
        return lastEvent_;
    }
    return std::min(lastEvent_ + quietWindow_, firstEvent_ + maxLatency_);
}

bool ChangeCoalescer::due(Clock::time_point now) const {
    const auto when = deadline();
    return when && now >= *when;
}

bool ChangeCoalescer::overdue(Clock::time_point now) const {
    return hasPending() && now >= firstEvent_ + maxLatency_;
}

ChangeSet ChangeCoalescer::flush() {
    ChangeSet changes;
    changes.rescanned = rescanNeeded_;
    if (!pending_.empty() && !rescanNeeded_) {
        changes.firstSeen = firstEvent_;
    }
    for (const auto& [file, observed] : pending_) {
        const auto stamp = observed.exists ? stampOf(file) : std::nullopt;
        const auto knownIt = known_.find(file);
        const bool wasKnown = knownIt != known_.end();
        if (stamp) {
            (wasKnown ? changes.modified : changes.added).push_back(file);
            if (observed.complete) {
                changes.complete.push_back(file);
            }
            known_.insert_or_assign(file, *stamp);
        } else if (wasKnown) {
            changes.removed.push_back(file);
            known_.erase(knownIt);
        }
    }
    pending_.clear();
    rescanNeeded_ = false;
    flushedEvent_ = lastEvent_;
    return changes; // pending_ is a sorted map, so the lists are sorted and unique
}

ChangeSet ChangeCoalescer::rescan(FileIndex current) {
    pending_.clear();
    rescanNeeded_ = false;
    ChangeSet changes = diffIndexes(known_, current);
    changes.rescanned = true;
    known_ = std::move(current);
    return changes;
}

} // namespace scripthost::watcher::detail
