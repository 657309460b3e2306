#pragma once

#include "watcher/source_watcher.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace scripthost::watcher::test {

using namespace std::chrono_literals;
using Paths = std::vector<std::filesystem::path>;

// Quiet window used by the scenario tests: long enough that one editor save (a handful of
// syscalls in a row) never straddles two windows on a loaded 2-core CI box.
inline constexpr std::chrono::milliseconds testQuietWindow{50};
// Poll interval for the polling backend in tests (faster than the default to keep tests short).
inline constexpr std::chrono::milliseconds testPollInterval{20};
// How long a change may take to show up before a test fails.
inline constexpr std::chrono::milliseconds arrivalTimeout{5000};
// To assert that nothing *more* arrives we must wait some bounded time: 6 quiet windows (and
// 15 polling intervals) is far longer than any coalescing delay, so a straggler set would
// have been emitted by then.
inline constexpr std::chrono::milliseconds silenceWindow{300};

// Options for `root` with the test timings and the given backend.
[[nodiscard]] WatchOptions testOptions(const std::filesystem::path& root, Backend backend);

// Starts a watcher or fails the current test (REQUIRE) with the error message.
[[nodiscard]] std::unique_ptr<SourceWatcher> startOrFail(WatchOptions options);

// The next change set, waiting up to arrivalTimeout.
[[nodiscard]] std::optional<ChangeSet> nextChangeSet(SourceWatcher& watcher);

// Every change set until none arrives for `silence` (the first one may take up to
// arrivalTimeout to appear). A test with a longer quiet window must wait longer.
[[nodiscard]] std::vector<ChangeSet>
collectUntilSilent(SourceWatcher& watcher, std::chrono::milliseconds silence = silenceWindow);

// Change sets until `done` holds for all of them merged, or arrivalTimeout passes.
[[nodiscard]] std::vector<ChangeSet>
collectUntil(SourceWatcher& watcher, const std::function<bool(const ChangeSet& merged)>& done);

// Checks `condition` every millisecond until it holds (true) or arrivalTimeout passes (false).
[[nodiscard]] bool waitUntil(const std::function<bool()>& condition);

// All sets folded into one (see ChangeSet::mergeLater).
[[nodiscard]] ChangeSet merged(const std::vector<ChangeSet>& sets);

// Backend tags for TEST_CASE_TEMPLATE: run one scenario over both backends.
struct InotifyTag {
    static constexpr Backend value = Backend::Inotify;
};
struct PollingTag {
    static constexpr Backend value = Backend::Polling;
};

} // namespace scripthost::watcher::test
