#include "support/watch_helpers.hpp"

#include <doctest/doctest.h>
#include <thread>

namespace scripthost::watcher::test {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

WatchOptions testOptions(const fs::path& root, Backend backend) {
    WatchOptions options;
    options.roots = {root};
    options.backend = backend;
    options.quietWindow = testQuietWindow;
    options.pollInterval = testPollInterval;
    return options;
}

std::unique_ptr<SourceWatcher> startOrFail(WatchOptions options) {
    auto started = SourceWatcher::start(std::move(options));
    if (!started) {
        FAIL("SourceWatcher::start failed: " << started.error().message);
    }
    return std::move(*started);
}

std::optional<ChangeSet> nextChangeSet(SourceWatcher& watcher) {
    return watcher.waitFor(Clock::now() + arrivalTimeout);
}

std::vector<ChangeSet> collectUntilSilent(SourceWatcher& watcher,
                                          std::chrono::milliseconds silence) {
    std::vector<ChangeSet> sets;
    auto first = nextChangeSet(watcher);
    if (!first) {
        return sets;
    }
    sets.push_back(std::move(*first));
    while (auto more = watcher.waitFor(Clock::now() + silence)) {
        sets.push_back(std::move(*more));
    }
    return sets;
}

std::vector<ChangeSet> collectUntil(SourceWatcher& watcher,
                                    const std::function<bool(const ChangeSet&)>& done) {
    std::vector<ChangeSet> sets;
    const auto deadline = Clock::now() + arrivalTimeout;
    while (auto next = watcher.waitFor(deadline)) {
        sets.push_back(std::move(*next));
        if (done(merged(sets))) {
            break;
        }
    }
    return sets;
}

bool waitUntil(const std::function<bool()>& condition) {
    const auto deadline = Clock::now() + arrivalTimeout;
    while (!condition()) {
        if (Clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds{1});
    }
    return true;
}

ChangeSet merged(const std::vector<ChangeSet>& sets) {
    ChangeSet all;
    for (const ChangeSet& set : sets) {
        all.mergeLater(set);
    }
    return all;
}

} // namespace scripthost::watcher::test
