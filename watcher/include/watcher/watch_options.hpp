#pragma once

#include "watcher/backend.hpp"
#include "watcher/path_filter.hpp"

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
    // Folders watched recursively; must exist (unless waitForMissingRoots). A root nested in
    // another root is merged into it. A root deleted or moved away while watched is watched
    // for and watched again when it reappears (SourceWatcher::missingRoots()).
    std::vector<std::filesystem::path> roots;
    // A root that does not exist at start is not an error: it is listed by missingRoots() and
    // watched for like a root deleted after start (its files, when it appears, come as one
    // rescanned set). Off: start() fails with WatchError::Code::RootMissing.
    bool waitForMissingRoots = false;
    // Which files are reported and which folders are watched. The default is the script-source
    // rule (script_source_rule.hpp), the same one the compiler's source collector applies, so
    // every reported change is a change to what gets compiled. PathFilter(extensions, ignore)
    // watches anything else.
    PathFilter filter = PathFilter::scriptSources();
    // Events separated by less than this are coalesced into one ChangeSet.
    std::chrono::milliseconds quietWindow{30};
    // Flush a ChangeSet at once, without waiting out the quiet window, when every file in it
    // is complete — closed after writing or renamed into place (inotify only) — and nothing
    // had changed for a quiet window before: what a host that rebuilds on save wants (a later
    // save supersedes its build). Writes still open, deletions (which may be half of a backup
    // rename) and saves in quick succession still wait for the quiet window. Off: every set
    // waits for the quiet window, so a burst of saves to several files comes as one set.
    bool flushCompleteSaves = false;
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
