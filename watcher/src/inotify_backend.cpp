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
// The nearest existing ancestor of a missing root: a component of the root's path appearing,
// or the ancestor itself going. IN_MASK_ADD: should the folder also have a folder watch (two
// roots' paths can meet through symlinks), its mask only grows (folderMask has these bits).
constexpr std::uint32_t ancestorMask =
    IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_MASK_ADD;
// How often run() checks that each root path still names the folder it watches: a folder
// above a root renamed away sends the root's watch nothing.
constexpr std::chrono::seconds rootCheckInterval{1};

// poll(2) timeout until the deadline, rounded up.
int timeoutUntil(ChangeCoalescer::Clock::time_point deadline) {
    const auto left = deadline - ChangeCoalescer::Clock::now();
    if (left <= decltype(left)::zero()) {
        return 0;
    }
    return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
}

// The deepest of `root` and its ancestors that is a folder now. The root counts only as a
// real folder (that is what a folder watch accepts); its ancestors may be folder symlinks.
fs::path nearestExistingFolder(const fs::path& root) {
    if (folderIdentityOf(root)) {
        return root;
    }
    if (!root.has_relative_path()) {
        return root; // "/"
    }
    fs::path at = root.parent_path();
    for (std::error_code error; !fs::is_directory(fs::status(at, error));) {
        if (!at.has_relative_path()) {
            break; // "/": nothing further up to watch
        }
        at = at.parent_path();
    }
    return at;
}

// The component of `root`'s path right below `ancestor`, the one to wait for.
std::string nextComponent(const fs::path& root, const fs::path& ancestor) {
    const fs::path below = root.lexically_relative(ancestor);
    return below.empty() ? std::string() : below.begin()->string();
}

} // namespace

InotifyBackend::InotifyBackend(ConstructionKey /*key*/, posix::UniqueFd fd,
                               std::vector<fs::path> roots, const PathFilter& filter,
                               std::size_t watchLimit, MissingRoots& missing)
    : fd_(std::move(fd)), roots_(std::move(roots)), filter_(filter), watchLimit_(watchLimit),
      missing_(missing) {}

std::expected<std::unique_ptr<InotifyBackend>, InotifyBackend::SetupFailure>
InotifyBackend::create(std::vector<fs::path> roots, const PathFilter& filter,
                       std::size_t watchLimit, MissingRoots& missing) {
    posix::UniqueFd fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
    if (!fd) {
        const int error = errno;
        return std::unexpected(
            SetupFailure{error, std::string("inotify_init1 failed: ") + std::strerror(error)});
    }
    auto backend = std::make_unique<InotifyBackend>(ConstructionKey{}, std::move(fd),
                                                    std::move(roots), filter, watchLimit, missing);
    for (const fs::path& root : backend->roots_) {
        const FollowResult result = backend->followRoot(root, [&](const fs::path& file) {
            if (auto stamp = stampOf(file)) {
                backend->initialIndex_.insert_or_assign(file, *stamp);
            }
        });
        if (result == FollowResult::OutOfWatches) {
            return std::unexpected(
                SetupFailure{ENOSPC, "out of inotify watches below " + root.string() +
                                         " (raise fs.inotify.max_user_watches)"});
        }
        if (result == FollowResult::Unwatchable) {
            return std::unexpected(SetupFailure{EACCES, "cannot add an inotify watch on " +
                                                            root.string() + " (or above it)"});
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
        if (error == ENOENT || error == ENOTDIR) {
            return AddResult::Vanished; // vanished or replaced: not worth a warning
        }
        spdlog::warn("watcher: cannot watch {}: {}", folder.string(), std::strerror(error));
        return AddResult::Failed;
    }
    // Re-adding a watched folder returns its existing wd; the path is refreshed either way.
    watches_.insert_or_assign(wd, Watch{folder, root});
    if (seenDuringRescan_ != nullptr) {
        seenDuringRescan_->insert(wd);
    }
    return AddResult::Added;
}

InotifyBackend::AddResult InotifyBackend::watchTree(const fs::path& root, const fs::path& start,
                                                    const FileCallback& onFile) {
    bool outOfWatches = false;
    std::optional<AddResult> startResult; // the first folder visited is `start`
    walkTree(root, start, filter_,
             TreeVisitor{.onDirectory =
                             [&](const fs::path& folder) {
                                 if (outOfWatches) {
                                     return false;
                                 }
                                 const AddResult result = addWatch(root, folder);
                                 if (!startResult) {
                                     startResult = result;
                                 }
                                 outOfWatches = result == AddResult::OutOfWatches;
                                 return result == AddResult::Added;
                             },
                         .onFile = onFile});
    if (outOfWatches) {
        return AddResult::OutOfWatches;
    }
    return startResult.value_or(AddResult::Vanished);
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

InotifyBackend::FollowResult InotifyBackend::followRoot(const fs::path& root,
                                                        const FileCallback& onFile) {
    for (;;) {
        const fs::path nearest = nearestExistingFolder(root);
        // Taken before watching: should the folder be replaced in between, the next
        // checkRoots() sees another folder and follows the root again.
        const std::optional<FolderIdentity> identity = folderIdentityOf(nearest);
        if (nearest == root) {
            if (!identity) {
                continue; // gone again already
            }
            const AddResult result = watchTree(root, root, onFile);
            if (result == AddResult::OutOfWatches) {
                return FollowResult::OutOfWatches;
            }
            if (result == AddResult::Failed) {
                return FollowResult::Unwatchable; // there, but inotify cannot watch it
            }
            if (result == AddResult::Vanished) {
                continue; // gone again between the look and the watch
            }
            if (const auto found = waiting_.find(root); found != waiting_.end()) {
                const int wd = found->second.wd;
                waiting_.erase(found);
                releaseAncestorWatch(wd);
            }
            attached_.insert_or_assign(root, *identity);
            missing_.markPresent(root);
            return FollowResult::Attached;
        }
        attached_.erase(root);

        const int wd = ::inotify_add_watch(fd_.get(), nearest.c_str(), ancestorMask);
        if (wd < 0) {
            const int error = errno;
            if (error == ENOSPC) {
                return FollowResult::OutOfWatches;
            }
            if (error == ENOENT || error == ENOTDIR) {
                continue; // the ancestor went too: look further up
            }
            spdlog::error("watcher: cannot watch {} for watch root {} to reappear: {}",
                          nearest.string(), root.string(), std::strerror(error));
            missing_.markMissing(root);
            return FollowResult::Unwatchable;
        }
        AncestorWatch& entry = waiting_[root];
        const int previous = entry.wd;
        entry = AncestorWatch{.wd = wd, .ancestor = nearest, .identity = identity};
        if (previous != wd) {
            releaseAncestorWatch(previous);
        }
        // The next component may have appeared before the watch was in place: look again.
        if (nearestExistingFolder(root) == nearest) {
            missing_.markMissing(root);
            spdlog::debug("watcher: waiting in {} for {} to appear (watch root {})",
                          nearest.string(), nextComponent(root, nearest), root.string());
            return FollowResult::Waiting;
        }
    }
}

void InotifyBackend::releaseAncestorWatch(int wd) {
    if (wd < 0 || watches_.contains(wd) ||
        std::ranges::any_of(waiting_, [wd](const auto& entry) { return entry.second.wd == wd; })) {
        return;
    }
    ::inotify_rm_watch(fd_.get(), wd); // fails harmlessly if the kernel already dropped it
}

InotifyBackend::FollowResult InotifyBackend::rootGone(const fs::path& root, LoopContext& context) {
    const auto now = ChangeCoalescer::Clock::now();
    attached_.erase(root);
    unwatchSubtree(root);
    context.coalescer.noteSubtreeGone(root, now);
    const FollowResult result = followRoot(root, {});
    if (result == FollowResult::Attached) {
        // Moved away and something else moved in (or deleted and re-created) at once.
        spdlog::info("watcher: watch root {} was replaced by another folder; rescanning",
                     root.string());
        context.coalescer.noteRescanNeeded(now);
    }
    return result;
}

InotifyBackend::FollowResult InotifyBackend::ancestorEvent(const inotify_event& event,
                                                           LoopContext& context) {
    std::vector<fs::path> affected;
    for (auto& [root, entry] : waiting_) {
        if (entry.wd != event.wd) {
            continue;
        }
        if ((event.mask & IN_IGNORED) != 0) {
            entry.wd = -1; // the kernel dropped the watch (its folder went): find another
        } else if ((event.mask & (IN_CREATE | IN_MOVED_TO)) != 0 &&
                   (event.len == 0 || nextComponent(root, entry.ancestor) != event.name)) {
            continue; // something else appeared next to the awaited component
        }
        affected.push_back(root);
    }
    const auto now = ChangeCoalescer::Clock::now();
    for (const fs::path& root : affected) {
        const FollowResult result = followRoot(root, {});
        if (result == FollowResult::Attached) {
            context.coalescer.noteRescanNeeded(now);
        } else if (result != FollowResult::Waiting) {
            return result;
        }
    }
    return FollowResult::Waiting;
}

InotifyBackend::FollowResult InotifyBackend::checkRoots(LoopContext& context) {
    for (const fs::path& root : roots_) {
        FollowResult result = FollowResult::Waiting;
        if (const auto attached = attached_.find(root); attached != attached_.end()) {
            if (folderIdentityOf(root) != attached->second) {
                result = rootGone(root, context);
            }
        } else if (const auto waiting = waiting_.find(root); waiting != waiting_.end()) {
            const fs::path nearest = nearestExistingFolder(root);
            if (nearest != waiting->second.ancestor ||
                folderIdentityOf(nearest) != waiting->second.identity) {
                result = followRoot(root, {});
                if (result == FollowResult::Attached) {
                    context.coalescer.noteRescanNeeded(ChangeCoalescer::Clock::now());
                }
            }
        }
        if (result == FollowResult::OutOfWatches || result == FollowResult::Unwatchable) {
            return result;
        }
    }
    return FollowResult::Waiting;
}

std::optional<InotifyBackend::Outcome> InotifyBackend::endingFor(FollowResult result) {
    if (result == FollowResult::OutOfWatches) {
        return Outcome::OutOfWatches;
    }
    if (result == FollowResult::Unwatchable) {
        return Outcome::Failed;
    }
    return std::nullopt;
}

InotifyBackend::Outcome InotifyBackend::run(LoopContext& context) {
    auto nextRootCheck = ChangeCoalescer::Clock::now() + rootCheckInterval;
    while (!context.stop.stop_requested()) {
        if (context.hooks.beforeWait) {
            context.hooks.beforeWait();
        }
        context.holding.store(context.coalescer.hasPending(), std::memory_order_release);
        std::array<pollfd, 2> fds{{{.fd = fd_.get(), .events = POLLIN, .revents = 0},
                                   {.fd = context.wake.fd(), .events = POLLIN, .revents = 0}}};
        const auto wakeAt = std::min(nextRootCheck, context.coalescer.deadline().value_or(
                                                        ChangeCoalescer::Clock::time_point::max()));
        const int ready = ::poll(fds.data(), fds.size(), timeoutUntil(wakeAt));
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
            // Holding from before the read empties the kernel's queue until the coalescer has
            // the events: SourceWatcher::holdingChanges looks at the queue, then at this.
            context.holding.store(true, std::memory_order_release);
            bool overflowed = false;
            if (const auto ended = readEvents(context, overflowed)) {
                return *ended;
            }
            if (overflowed) {
                spdlog::warn("watcher: inotify queue overflowed; rescanning");
                needRescan = true;
            }
        }
        if (!needRescan && ChangeCoalescer::Clock::now() >= nextRootCheck) {
            nextRootCheck = ChangeCoalescer::Clock::now() + rootCheckInterval;
            if (const auto ended = endingFor(checkRoots(context))) {
                return *ended;
            }
        }
        if (!needRescan && context.coalescer.due(ChangeCoalescer::Clock::now())) {
            // A root came back: its files are found by a rescan of everything, once.
            needRescan = context.coalescer.rescanNeeded();
            if (!needRescan) {
                context.publish(context.coalescer.flush());
            }
        }
        if (needRescan) {
            if (const auto ended = rescan(context)) {
                return *ended;
            }
        }
    }
    return Outcome::Stopped;
}

std::optional<InotifyBackend::Outcome> InotifyBackend::readEvents(LoopContext& context,
                                                                  bool& overflowed) {
    alignas(inotify_event) std::array<char, 64 * 1024> buffer{};
    for (;;) {
        const ssize_t got = ::read(fd_.get(), buffer.data(), buffer.size());
        if (got <= 0) {
            return std::nullopt; // EAGAIN: drained (EINTR: the next poll wakes us again)
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
            if (overflowed) {
                continue;
            }
            if (const auto ended = handleEvent(*event, context)) {
                return ended;
            }
        }
    }
}

std::optional<InotifyBackend::Outcome> InotifyBackend::handleEvent(const inotify_event& event,
                                                                   LoopContext& context) {
    if (std::ranges::any_of(waiting_,
                            [&](const auto& entry) { return entry.second.wd == event.wd; })) {
        if (const auto ended = endingFor(ancestorEvent(event, context))) {
            return ended;
        }
    }
    const auto found = watches_.find(event.wd);
    if (found == watches_.end()) {
        return std::nullopt; // a watch we already dropped (folder moved or deleted)
    }
    if ((event.mask & IN_IGNORED) != 0) {
        const Watch watch = found->second;
        watches_.erase(found);
        if (watch.folder == watch.root) {
            return endingFor(rootGone(watch.root, context)); // dropped without a delete event
        }
        return std::nullopt;
    }
    const Watch watch = found->second; // copy: the map may change below
    const auto now = ChangeCoalescer::Clock::now();

    if ((event.mask & (IN_DELETE_SELF | IN_MOVE_SELF)) != 0) {
        // Non-root folders are handled through their parent's IN_DELETE / IN_MOVED_FROM.
        if (watch.folder == watch.root) {
            return endingFor(rootGone(watch.root, context));
        }
        return std::nullopt;
    }
    if (event.len == 0) {
        return std::nullopt;
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
            const AddResult result = watchTree(watch.root, path, [&](const fs::path& file) {
                context.coalescer.noteExists(file, now);
            });
            if (result == AddResult::OutOfWatches) {
                return Outcome::OutOfWatches;
            }
        }
        return std::nullopt;
    }

    if (!filter_.acceptsFile(relative)) {
        return std::nullopt;
    }
    if ((event.mask & (IN_DELETE | IN_MOVED_FROM)) != 0) {
        context.coalescer.noteGone(path, now);
    } else if ((event.mask & (IN_CREATE | IN_MOVED_TO | IN_MODIFY | IN_CLOSE_WRITE)) != 0) {
        // Closed after writing, or renamed into place: the file is whole (a save is done).
        context.coalescer.noteExists(path, now, (event.mask & (IN_MOVED_TO | IN_CLOSE_WRITE)) != 0);
    }
    return std::nullopt;
}

std::optional<InotifyBackend::Outcome> InotifyBackend::rescan(LoopContext& context) {
    std::unordered_set<int> seen;
    seenDuringRescan_ = &seen;
    FileIndex current;
    std::optional<Outcome> ended;
    for (const fs::path& root : roots_) {
        // A root that went (its event still queued) is followed from here on; one that came
        // back is watched again.
        ended = endingFor(followRoot(root, [&](const fs::path& file) {
            if (auto stamp = stampOf(file)) {
                current.insert_or_assign(file, *stamp);
            }
        }));
        if (ended) {
            break;
        }
    }
    seenDuringRescan_ = nullptr;
    if (ended) {
        return ended;
    }
    // Drop watches on folders that no longer exist under the roots (their queued events, a
    // root's delete included, then find no watch: this rescan has accounted for them).
    for (auto it = watches_.begin(); it != watches_.end();) {
        if (!seen.contains(it->first)) {
            const int wd = it->first;
            it = watches_.erase(it);
            releaseAncestorWatch(wd); // removes it unless a missing root waits on it
        } else {
            ++it;
        }
    }
    context.publish(context.coalescer.rescan(std::move(current)));
    return std::nullopt;
}

} // namespace scripthost::watcher::detail
