#pragma once

#include "watcher/backend.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace scripthost::watcher {

// Knobs that only tests should touch: they simulate conditions that are expensive to cause.
struct WatchTestHooks {
    // When > 0, adding more than this many inotify watches fails as if with ENOSPC.
    std::size_t inotifyWatchLimit = 0;
    // Called on the watcher thread before each wait for events (may block, e.g. to let the
    // inotify queue overflow). Must return once the test wants the watcher to go on.
    std::function<void()> beforeWait;
};

// Everything SourceWatcher::start() needs to know.
struct WatchOptions {
    // Folders watched recursively; must exist. A root nested in another root is merged into it.
    std::vector<std::filesystem::path> roots;
    // Reported file extensions; empty = every file. See PathFilter.
    std::vector<std::string> extensions{".cs"};
    // Ignore globs relative to each root. See PathFilter for the exact rules.
    std::vector<std::string> ignore{"bin/", "obj/", ".git/"};
    // Never report editor lock/backup files (".#x", "#x#", "x~").
    bool ignoreEditorArtifacts = true;
    // Events separated by less than this are coalesced into one ChangeSet.
    std::chrono::milliseconds quietWindow{30};
    // A ChangeSet is emitted at most this long after its first event, even if events keep
    // arriving (a file written continuously is still reported).
    std::chrono::milliseconds maxLatency{1000};
    // Which backend to use; Automatic prefers inotify.
    Backend backend = Backend::Automatic;
    // Scan interval of the polling backend.
    std::chrono::milliseconds pollInterval{100};
    // Called on the watcher thread after a ChangeSet was queued, e.g. to wake the main loop.
    // Must not block, must not throw, and must not destroy the SourceWatcher.
    std::function<void()> onChange;
    // Test-only simulation knobs.
    WatchTestHooks testHooks;
};

} // namespace scripthost::watcher
