#pragma once

#include <string>

namespace scripthost::watcher {

// Why SourceWatcher::start() could not start watching.
struct WatchError {
    // Machine-readable reason.
    enum class Code {
        NoRoots,            // WatchOptions::roots was empty
        RootMissing,        // a root does not exist
        RootNotDirectory,   // a root exists but is not a directory
        InotifyUnavailable, // Backend::Inotify was requested but inotify cannot watch the roots
        SystemError,        // the wake-up eventfd or the watcher thread could not be created
    };

    Code code;
    std::string message; // human-readable, names the offending path where there is one
};

} // namespace scripthost::watcher
