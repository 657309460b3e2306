#pragma once
// LibraryWatch: when the game module's library file holds a new build that is done.

#include "host/modules/library_copy.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>

namespace scripthost {

namespace watcher {
class SourceWatcher;
}

struct LibraryWatchOptions {
    /// Learn that a build is done from the file system's events (inotify on the library's
    /// folder, through watcher::SourceWatcher): the library closed after writing or renamed
    /// into place is ready at once. False — or when inotify cannot be used — only `settle`.
    bool completionEvents = true;
    /// A change that comes without such an event (every change, without events) is ready once
    /// the file has not changed for this long.
    std::chrono::milliseconds settle{300};
};

/// Watches one library file for new builds; main thread only, polled between frames.
///
/// A build is ready when, since the last one taken, the library was closed after writing or
/// renamed into place (the folder is watched, not the file: a linker deletes and re-creates
/// the file, a tool may rename a temp file over it) and nothing was written after that close.
/// That its writers are all done is checked by whoever copies it (copyLibraryBuild's read
/// lease): when one still has it open, stillBeingWritten() waits for a later close. A change
/// with no such event (a hard link, a file system without inotify, events lost) is ready once
/// the file has not changed for `settle`, and — as a linker that writes the ELF header last may
/// pause — once it is a whole ELF file (checkElf) or has waited 3 s more. A library reached
/// through a symbolic link is watched under the link's name, so a build written to the link's
/// target settles too.
class LibraryWatch {
public:
    using Clock = std::chrono::steady_clock;

    /// Starts watching `library`; the file as it is now counts as taken. Without events
    /// (options, or inotify unavailable: a warning is logged) only the settle rule applies.
    LibraryWatch(std::filesystem::path library, LibraryWatchOptions options);
    ~LibraryWatch();
    LibraryWatch(const LibraryWatch&) = delete;
    LibraryWatch& operator=(const LibraryWatch&) = delete;

    /// Why a build is ready.
    enum class Ready {
        No,
        Complete, ///< closed after writing or renamed into place since the last build taken
        Settled,  ///< changed, then unchanged for `settle`, with no such event
    };
    /// Reads the events queued since the last call (never blocks) and, at most every 100 ms,
    /// the file's stamp. Complete is said once per event.
    [[nodiscard]] Ready poll(Clock::time_point now);

    /// The build of `stamp` was taken (loaded, or refused for good): only a later change is
    /// ready again. None: the file was not there.
    void taken(std::optional<LibraryStamp> stamp);
    /// The build poll() offered is still open for writing: ready again after its writer's
    /// close, or once it has settled again from now.
    void stillBeingWritten(Clock::time_point now);

    /// Whether builds are known done from events (inotify), not only by settling.
    [[nodiscard]] bool usesEvents() const noexcept;

private:
    void readEvents();

    std::filesystem::path library_;
    std::filesystem::path watched_; ///< the library's path as the watcher reports it
    LibraryWatchOptions options_;
    std::unique_ptr<watcher::SourceWatcher> watcher_;
    bool complete_ = false; ///< the last event said closed or renamed into place, not offered yet
    std::optional<LibraryStamp> taken_;   ///< the build last taken
    std::optional<LibraryStamp> pending_; ///< a change seen by the settle rule
    Clock::time_point pendingSince_{};
    Clock::time_point nextLook_{};
};

} // namespace scripthost
