#pragma once

#include <string_view>

namespace scripthost::watcher {

// How a SourceWatcher learns about file changes.
enum class Backend {
    Automatic, // inotify, falling back to polling when inotify is unavailable or out of watches
    Inotify,   // Linux inotify only; start() fails if inotify cannot be used
    Polling,   // periodic mtime/size/inode scan of every watched file
};

// Lower-case name of a backend, for logs and messages.
[[nodiscard]] constexpr std::string_view backendName(Backend backend) noexcept {
    switch (backend) {
    case Backend::Automatic:
        return "automatic";
    case Backend::Inotify:
        return "inotify";
    case Backend::Polling:
        return "polling";
    }
    return "unknown";
}

} // namespace scripthost::watcher
