#include "inotify_backend.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/inotify.h>
#include <unistd.h>

namespace scripthost::watcher::detail {

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t folderMask = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
                                     IN_MODIFY | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF |
                                     IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK;

// poll(2) timeout until the coalescer's deadline, rounded up; -1 when nothing is pending.
int timeoutUntil(const std::optional<ChangeCoalescer::Clock::time_point>& deadline) {
    if (!deadline) {
        return -1;
    }
    const auto left = *deadline - ChangeCoalescer::Clock::now();
    if (left <= decltype(left)::zero()) {
        return 0;
    }
    return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
}

} // namespace

InotifyBackend::InotifyBackend(ConstructionKey /*key*/, posix::UniqueFd fd,
                               std::vector<fs::path> roots, const PathFilter& filter,
                               std::size_t watchLimit)
    : fd_(std::move(fd)), roots_(std::move(roots)), filter_(filter), watchLimit_(watchLimit) {}

std::expected<std::unique_ptr<InotifyBackend>, InotifyBackend::SetupFailure>
InotifyBackend::create(std::vector<fs::path> roots, const PathFilter& filter,
                       std::size_t watchLimit) {
    posix::UniqueFd fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
    if (!fd) {
        const int error = errno;
        return std::unexpected(
            SetupFailure{error, std::string("inotify_init1 failed: ") + std::strerror(error)});
    }
    auto backend = std::make_unique<InotifyBackend>(ConstructionKey{}, std::move(fd),
                                                    std::move(roots), filter, watchLimit);
    for (const fs::path& root : backend->roots_) {
        const bool complete = backend->watchTree(root, root, [&](const fs::path& file) {
            if (auto stamp = stampOf(file)) {
                backend->initialIndex_.insert_or_assign(file, *stamp);
            }
        });
        if (!complete) {
            return std::unexpected(
                SetupFailure{ENOSPC, "out of inotify watches below " + root.string() +
                                         " (raise fs.inotify.max_user_watches)"});
        }
        if (!backend->isWatched(root)) {
            return std::unexpected(
                SetupFailure{EACCES, "cannot add an inotify watch on " + root.string()});
        }
    }
    return backend;
}

InotifyBackend::AddResult InotifyBackend::addWatch(const fs::path& root, const fs::path& folder) {
    if (watchLimit_ > 0 && watches_.size() >= watchLimit_ && !isWatched(folder)) {
        return AddResult::OutOfWatches; // test hook: behave as if the kernel's limit was reached
    }
    const int wd = ::inotify_add_watch(fd_.get(), folder.c_str(), folderMask);
    if (wd < 0) {
        const int error = errno;
        if (error == ENOSPC) {
            return AddResult::OutOfWatches;
        }
        if (error != ENOENT && error != ENOTDIR) { // vanished or replaced: not worth a warning
            spdlog::warn("watcher: cannot watch {}: {}", folder.string(), std::strerror(error));
        }
        return AddResult::Skipped;
    }
    // Re-adding a watched folder returns its existing wd; the path is refreshed either way.
    watches_.insert_or_assign(wd, Watch{folder, root});
    if (seenDuringRescan_ != nullptr) {
        seenDuringRescan_->insert(wd);
    }
    return AddResult::Added;
}

bool InotifyBackend::watchTree(const fs::path& root, const fs::path& start,
                               const std::function<void(const fs::path&)>& onFile) {
    bool outOfWatches = false;
    walkTree(root, start, filter_,
             TreeVisitor{.onDirectory =
                             [&](const fs::path& folder) {
                                 if (outOfWatches) {
                                     return false;
                                 }
                                 const AddResult result = addWatch(root, folder);
                                 outOfWatches = result == AddResult::OutOfWatches;
                                 return result == AddResult::Added;
                             },
                         .onFile = onFile});
    return !outOfWatches;
}

bool InotifyBackend::isWatched(const fs::path& folder) const {
    return std::ranges::any_of(watches_,
                               [&](const auto& entry) { return entry.second.folder == folder; });
}

void InotifyBackend::unwatchSubtree(const fs::path& folder) {
    for (auto it = watches_.begin(); it != watches_.end();) {
        if (isWithin(it->second.folder, folder)) {
            // Fails harmlessly (EINVAL) if the kernel already dropped the watch.
            ::inotify_rm_watch(fd_.get(), it->first);
            it = watches_.erase(it);
        } else {
            ++it;
        }
    }
}

InotifyBackend::Outcome InotifyBackend::run(LoopContext& context) {
    while (!context.stop.stop_requested()) {
        if (context.hooks.beforeWait) {
            context.hooks.beforeWait();
        }
        context.holding.store(context.coalescer.hasPending(), std::memory_order_release);
        std::array<pollfd, 2> fds{{{.fd = fd_.get(), .events = POLLIN, .revents = 0},
                                   {.fd = context.wake.fd(), .events = POLLIN, .revents = 0}}};
        const int ready =
            ::poll(fds.data(), fds.size(), timeoutUntil(context.coalescer.deadline()));
        if (ready < 0 && errno != EINTR) {
            spdlog::error("watcher: poll on inotify failed: {}", std::strerror(errno));
            return Outcome::Failed;
        }
        if ((fds[1].revents & POLLIN) != 0) {
            context.wake.drain();
        }
        if (context.stop.stop_requested()) {
            break;
        }
        bool needRescan = context.rescanRequested.exchange(false);
        if ((fds[0].revents & POLLIN) != 0) {
            bool overflowed = false;
            if (!readEvents(context, overflowed)) {
                return Outcome::OutOfWatches;
            }
            if (overflowed) {
                spdlog::warn("watcher: inotify queue overflowed; rescanning");
                needRescan = true;
            }
        }
        if (needRescan) {
            if (!rescan(context)) {
                return Outcome::OutOfWatches;
            }
            continue;
        }
        if (context.coalescer.due(ChangeCoalescer::Clock::now())) {
            context.publish(context.coalescer.flush());
        }
    }
    return Outcome::Stopped;
}

bool InotifyBackend::readEvents(LoopContext& context, bool& overflowed) {
    alignas(inotify_event) std::array<char, 64 * 1024> buffer{};
    for (;;) {
        const ssize_t got = ::read(fd_.get(), buffer.data(), buffer.size());
        if (got <= 0) {
            return true; // EAGAIN: drained (EINTR: the next poll wakes us again)
        }
        std::size_t offset = 0;
        while (offset < static_cast<std::size_t>(got)) {
            // The kernel aligns records; the buffer is aligned for inotify_event.
            const auto* event = reinterpret_cast<const inotify_event*>(buffer.data() + offset);
            offset += sizeof(inotify_event) + event->len;
            if ((event->mask & IN_Q_OVERFLOW) != 0) {
                overflowed = true;
                continue;
            }
            if (!overflowed && !handleEvent(*event, context)) {
                return false;
            }
        }
    }
}

bool InotifyBackend::handleEvent(const inotify_event& event, LoopContext& context) {
    if ((event.mask & IN_IGNORED) != 0) {
        watches_.erase(event.wd);
        return true;
    }
    const auto found = watches_.find(event.wd);
    if (found == watches_.end()) {
        return true; // a watch we already dropped (folder moved or deleted)
    }
    const Watch watch = found->second; // copy: the map may change below
    const auto now = ChangeCoalescer::Clock::now();

    if ((event.mask & (IN_DELETE_SELF | IN_MOVE_SELF)) != 0) {
        // Non-root folders are handled through their parent's IN_DELETE / IN_MOVED_FROM.
        if (watch.folder == watch.root) {
            spdlog::warn("watcher: root {} was removed or moved; its files are reported removed "
                         "and it is no longer watched",
                         watch.root.string());
            unwatchSubtree(watch.root);
            context.coalescer.noteSubtreeGone(watch.root, now);
        }
        return true;
    }
    if (event.len == 0) {
        return true;
    }
    const fs::path path = watch.folder / event.name;
    const fs::path relative = path.lexically_relative(watch.root);

    if ((event.mask & IN_ISDIR) != 0) {
        if ((event.mask & (IN_DELETE | IN_MOVED_FROM)) != 0) {
            unwatchSubtree(path);
            context.coalescer.noteSubtreeGone(path, now);
        }
        if ((event.mask & (IN_CREATE | IN_MOVED_TO)) != 0 && filter_.acceptsDirectory(relative)) {
            // Watch first, then list: files written before the watch existed are found by the
            // listing, later ones by events (both just say "exists").
            return watchTree(watch.root, path, [&](const fs::path& file) {
                context.coalescer.noteExists(file, now);
            });
        }
        return true;
    }

    if (!filter_.acceptsFile(relative)) {
        return true;
    }
    if ((event.mask & (IN_DELETE | IN_MOVED_FROM)) != 0) {
        context.coalescer.noteGone(path, now);
    } else if ((event.mask & (IN_CREATE | IN_MOVED_TO | IN_MODIFY | IN_CLOSE_WRITE)) != 0) {
        // Closed after writing, or renamed into place: the file is whole (a save is done).
        context.coalescer.noteExists(path, now, (event.mask & (IN_MOVED_TO | IN_CLOSE_WRITE)) != 0);
    }
    return true;
}

bool InotifyBackend::rescan(LoopContext& context) {
    std::unordered_set<int> seen;
    seenDuringRescan_ = &seen;
    FileIndex current;
    bool complete = true;
    for (const fs::path& root : roots_) {
        complete = complete && watchTree(root, root, [&](const fs::path& file) {
                       if (auto stamp = stampOf(file)) {
                           current.insert_or_assign(file, *stamp);
                       }
                   });
    }
    seenDuringRescan_ = nullptr;
    if (!complete) {
        return false;
    }
    // Drop watches on folders that no longer exist under the roots.
    for (auto it = watches_.begin(); it != watches_.end();) {
        if (!seen.contains(it->first)) {
            ::inotify_rm_watch(fd_.get(), it->first);
            it = watches_.erase(it);
        } else {
            ++it;
        }
    }
    context.publish(context.coalescer.rescan(std::move(current)));
    return true;
}

} // namespace scripthost::watcher::detail
