#pragma once

// Runs one backend's loop (InotifyBackend::run, PollingBackend::run) on a thread of its own,
// with the LoopContext SourceWatcher would give it, and collects the change sets it publishes:
// what the backend unit tests drive instead of a whole SourceWatcher.

#include "change_coalescer.hpp"
#include "change_queue.hpp"
#include "file_index.hpp"
#include "posix/wake_signal.hpp"
#include "watch_loop.hpp"
#include "watcher/change_set.hpp"
#include "watcher/watch_options.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <stop_token>
#include <thread>

namespace scripthost::watcher::test {

// The quiet window of the backend tests: one step of a test (a few syscalls in a row) never
// straddles two windows even when the test thread is preempted on a loaded 2-core box.
inline constexpr std::chrono::milliseconds loopQuietWindow{150};

class BackendLoop {
public:
    // A coalescer that starts from `initial` (what the backend found while setting up).
    explicit BackendLoop(detail::FileIndex initial);
    // Stops the loop (if started) and waits for it.
    ~BackendLoop();
    BackendLoop(const BackendLoop&) = delete;
    BackendLoop& operator=(const BackendLoop&) = delete;

    // Runs `run` (the backend's run(), given this loop's context) on the loop thread. Set
    // `hooks` before this.
    void start(std::function<void(detail::LoopContext&)> run);
    // Has `run` returned, waiting up to arrivalTimeout for it?
    [[nodiscard]] bool finished();
    // Asks the loop to stop (as SourceWatcher's destructor does); true when `run` returned
    // within arrivalTimeout.
    [[nodiscard]] bool stop();
    // As SourceWatcher::requestRescan.
    void requestRescan();

    // The next published set, waiting up to arrivalTimeout.
    [[nodiscard]] std::optional<ChangeSet> next();
    // Published sets, merged, until they equal `expected` or arrivalTimeout passes: a set
    // split over two windows by a slow machine still counts, anything else shows as a
    // difference in the failed check.
    [[nodiscard]] ChangeSet awaitSet(const ChangeSet& expected);

    WatchTestHooks hooks;

private:
    detail::ChangeQueue queue_;
    detail::ChangeCoalescer coalescer_;
    posix::WakeSignal wake_;
    std::atomic<bool> rescanRequested_{false};
    std::atomic<bool> holding_{false};
    std::stop_source stopSource_;
    detail::LoopContext context_;
    std::promise<void> done_;
    std::future<void> finished_;
    std::jthread thread_; // last: joined before the rest is destroyed
};

// A change set to compare with: the files added, modified and removed, and whether it is a
// rescan (pass `rescanned`).
[[nodiscard]] ChangeSet changes(std::vector<std::filesystem::path> added,
                                std::vector<std::filesystem::path> modified = {},
                                std::vector<std::filesystem::path> removed = {},
                                bool rescan = false);
inline constexpr bool rescanned = true;

// Writes `content` under a name the filters refuse, then renames it to `file`: one event,
// so a slow machine cannot split the write over two sets.
void putFile(const std::filesystem::path& file, std::string_view content);

} // namespace scripthost::watcher::test
