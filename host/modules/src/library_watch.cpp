#include "host/modules/library_watch.hpp"

#include "host/modules/elf_check.hpp"
#include "watcher/source_watcher.hpp"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace fs = std::filesystem;

namespace {

/// How often the settle rule looks at the library file.
constexpr auto kLookEvery = std::chrono::milliseconds(100);
/// A settled file that is not a whole ELF library (yet) is waited for this long more: GNU ld
/// writes the ELF header last, and a slow link can pause longer than the settle time.
constexpr auto kNotWholePatience = std::chrono::seconds(3);

/// The watch on the library's folder: that folder only (no subfolder), files with the
/// library's extension; a save closed after writing or renamed into place is flushed at once.
std::unique_ptr<watcher::SourceWatcher> watchFolderOf(const fs::path& library) {
    watcher::WatchOptions options;
    options.roots = {library.parent_path()};
    options.waitForMissingRoots = true;
    const std::string extension = library.extension().string();
    options.filter = watcher::PathFilter(extension.empty() ? std::vector<std::string>{}
                                                           : std::vector<std::string>{extension},
                                         {"*/"}, /*ignoreEditorArtifacts=*/false);
    options.flushCompleteSaves = true;
    options.backend = watcher::Backend::Inotify;
    auto started = watcher::SourceWatcher::start(std::move(options));
    if (!started) {
        spdlog::warn("module reload: cannot watch {} for finished builds ({}); a new build is "
                     "taken once the file has stopped changing",
                     library.parent_path().string(), started.error().message);
        return nullptr;
    }
    return std::move(*started);
}

bool lists(const std::vector<fs::path>& paths, const fs::path& file) {
    return std::ranges::find(paths, file) != paths.end();
}

} // namespace

LibraryWatch::LibraryWatch(fs::path library, LibraryWatchOptions options)
    : library_(fs::absolute(library)), options_(options), taken_(stampOf(library_)) {
    if (options_.completionEvents) {
        watcher_ = watchFolderOf(library_);
        if (watcher_ && !watcher_->roots().empty())
            watched_ = watcher_->roots().front() / library_.filename();
    }
}

LibraryWatch::~LibraryWatch() = default;

bool LibraryWatch::usesEvents() const noexcept {
    return watcher_ && watcher_->backend() == watcher::Backend::Inotify;
}

void LibraryWatch::readEvents() {
    while (auto changes = watcher_->poll()) {
        if (lists(changes->complete, watched_))
            complete_ = true;
        else if (lists(changes->added, watched_) || lists(changes->modified, watched_) ||
                 lists(changes->removed, watched_))
            complete_ = false; // written (or gone) after its last close
    }
}

LibraryWatch::Ready LibraryWatch::poll(Clock::time_point now) {
    if (watcher_)
        readEvents();
    if (complete_) {
        complete_ = false; // offered once: stillBeingWritten() waits for the next close
        const auto stamp = stampOf(library_);
        if (stamp && stamp != taken_)
            return Ready::Complete;
    }
    // The settle rule: changes that came without a close or a rename, or no events at all.
    if (now < nextLook_)
        return Ready::No;
    nextLook_ = now + kLookEvery;
    const auto stamp = stampOf(library_);
    if (!stamp || stamp == taken_) { // missing while a linker replaces it, or unchanged
        pending_.reset();
        return Ready::No;
    }
    if (stamp != pending_) {
        pending_ = stamp;
        pendingSince_ = now;
        return Ready::No;
    }
    if (now - pendingSince_ < options_.settle)
        return Ready::No;
    if (!checkElf(library_).whole() && now - pendingSince_ < options_.settle + kNotWholePatience)
        return Ready::No;
    return Ready::Settled;
}

void LibraryWatch::taken(std::optional<LibraryStamp> stamp) {
    taken_ = stamp;
    pending_.reset();
    complete_ = false;
}

void LibraryWatch::stillBeingWritten(Clock::time_point now) {
    pending_ = stampOf(library_);
    pendingSince_ = now;
}

} // namespace scripthost
