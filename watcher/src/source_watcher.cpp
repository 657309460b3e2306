#include "watcher/source_watcher.hpp"

#include "change_coalescer.hpp"
#include "change_queue.hpp"
#include "file_index.hpp"
#include "inotify_backend.hpp"
#include "missing_roots.hpp"
#include "polling_backend.hpp"
#include "posix/wake_signal.hpp"
#include "watch_loop.hpp"

#include <algorithm>
#include <atomic>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <system_error>
#include <thread>

namespace scripthost::watcher {

namespace fs = std::filesystem;
using detail::ChangeCoalescer;
using detail::InotifyBackend;
using detail::PollingBackend;

namespace {

// Checks every root and returns them canonical, sorted, with roots nested in others dropped
// (watching a folder twice would give it two owners in the inotify watch table). With
// `allowMissing`, a root that does not exist is kept: absolute, with the part that exists
// resolved.
std::expected<std::vector<fs::path>, WatchError> normalizeRoots(const std::vector<fs::path>& roots,
                                                                bool allowMissing) {
    if (roots.empty()) {
        return std::unexpected(WatchError{WatchError::Code::NoRoots, "no watch root was given"});
    }
    std::vector<fs::path> canonical;
    for (const fs::path& root : roots) {
        std::error_code error;
        const fs::file_status status = fs::status(root, error);
        if (!fs::exists(status) && allowMissing) {
            fs::path resolved = fs::weakly_canonical(fs::absolute(root, error), error);
            if (error) {
                return std::unexpected(WatchError{WatchError::Code::RootMissing,
                                                  "cannot resolve watch root " + root.string() +
                                                      ": " + error.message()});
            }
            if (!resolved.has_filename()) {
                resolved = resolved.parent_path(); // "a/missing/" ends in an empty element
            }
            canonical.push_back(std::move(resolved));
            continue;
        }
        if (!fs::exists(status)) {
            return std::unexpected(WatchError{WatchError::Code::RootMissing,
                                              "watch root does not exist: " + root.string()});
        }
        if (!fs::is_directory(status)) {
            return std::unexpected(WatchError{WatchError::Code::RootNotDirectory,
                                              "watch root is not a folder: " + root.string()});
        }
        fs::path resolved = fs::canonical(root, error);
        if (error) {
            return std::unexpected(
                WatchError{WatchError::Code::RootMissing,
                           "cannot resolve watch root " + root.string() + ": " + error.message()});
        }
        canonical.push_back(std::move(resolved));
    }
    std::ranges::sort(canonical); // a parent sorts before its descendants
    std::vector<fs::path> outermost;
    for (fs::path& root : canonical) {
        if (outermost.empty() || !detail::isWithin(root, outermost.back())) {
            outermost.push_back(std::move(root));
        }
    }
    return outermost;
}

} // namespace

struct SourceWatcher::Impl {
    Impl(WatchOptions opts, std::vector<fs::path> normalizedRoots, posix::WakeSignal wakeSignal)
        : options(std::move(opts)), roots(std::move(normalizedRoots)), wake(std::move(wakeSignal)),
          filter(options.filter) {}

    // Queues a set for the consumer; empty sets are dropped unless they report a rescan.
    void publish(ChangeSet changes) {
        if (changes.empty() && !changes.rescanned) {
            return;
        }
        queue.push(std::move(changes));
        if (options.onChange) {
            options.onChange();
        }
    }

    // Body of the watcher thread: inotify until stopped or out of watches, then polling.
    void threadMain(std::stop_token stop, ChangeCoalescer coalescer) {
        detail::LoopContext context{
            .coalescer = coalescer,
            .publish = [this](ChangeSet changes) { publish(std::move(changes)); },
            .wake = wake,
            .rescanRequested = rescanRequested,
            .holding = holding,
            .hooks = options.testHooks,
            .stop = std::move(stop),
        };
        if (inotify) {
            const InotifyBackend::Outcome outcome = inotify->run(context);
            inotifyFd.store(-1, std::memory_order_release);
            inotify.reset(); // close the inotify descriptor and its watches
            if (outcome == InotifyBackend::Outcome::Stopped) {
                return;
            }
            spdlog::warn("watcher: inotify {}; falling back to polling every {} ms",
                         outcome == InotifyBackend::Outcome::OutOfWatches
                             ? "ran out of watches (raise fs.inotify.max_user_watches)"
                             : "failed",
                         options.pollInterval.count());
            active.store(Backend::Polling);
            // Events may have been lost in the switch: report a rescan against the last state.
            PollingBackend fallback(roots, filter, options.pollInterval, missing);
            publish(coalescer.rescan(fallback.lastScan()));
            fallback.run(context);
            return;
        }
        polling->run(context);
    }

    WatchOptions options;
    std::vector<fs::path> roots;
    posix::WakeSignal wake;
    PathFilter filter;
    detail::ChangeQueue queue;
    std::atomic<bool> rescanRequested{false};
    std::atomic<bool> holding{false};
    std::atomic<int> inotifyFd{-1}; // while the inotify backend runs (holdingChanges)
    std::atomic<Backend> active{Backend::Polling};
    detail::MissingRoots missing;
    // One of these is set up in start(), then owned by the thread.
    std::unique_ptr<InotifyBackend> inotify;
    std::unique_ptr<PollingBackend> polling;
    std::jthread thread; // last: stopped before the rest is destroyed
};

std::expected<std::unique_ptr<SourceWatcher>, WatchError>
SourceWatcher::start(WatchOptions options) {
    auto roots = normalizeRoots(options.roots, options.waitForMissingRoots);
    if (!roots) {
        return std::unexpected(std::move(roots.error()));
    }
    auto wake = posix::WakeSignal::create();
    if (!wake) {
        return std::unexpected(
            WatchError{WatchError::Code::SystemError,
                       "cannot create the watcher's wake-up eventfd: " + wake.error().message()});
    }
    auto impl = std::make_unique<Impl>(std::move(options), std::move(*roots), std::move(*wake));

    // Set up the backend on the caller's thread: when start() returns, changes are seen.
    detail::FileIndex initial;
    const Backend wanted = impl->options.backend;
    if (wanted != Backend::Polling) {
        auto inotify = InotifyBackend::create(
            impl->roots, impl->filter, impl->options.testHooks.inotifyWatchLimit, impl->missing);
        if (inotify) {
            initial = (*inotify)->takeInitialIndex();
            impl->inotify = std::move(*inotify);
            impl->inotifyFd.store(impl->inotify->fd(), std::memory_order_release);
            impl->active.store(Backend::Inotify);
        } else if (wanted == Backend::Inotify) {
            return std::unexpected(
                WatchError{WatchError::Code::InotifyUnavailable, inotify.error().message});
        } else {
            spdlog::warn("watcher: {}; falling back to polling every {} ms",
                         inotify.error().message, impl->options.pollInterval.count());
        }
    }
    if (!impl->inotify) {
        impl->polling = std::make_unique<PollingBackend>(impl->roots, impl->filter,
                                                         impl->options.pollInterval, impl->missing);
        initial = impl->polling->lastScan();
        impl->active.store(Backend::Polling);
    }

    ChangeCoalescer coalescer(std::move(initial), impl->options.quietWindow,
                              impl->options.maxLatency, impl->options.flushCompleteSaves);
    try {
        impl->thread = std::jthread(
            [raw = impl.get(), coalescer = std::move(coalescer)](std::stop_token stop) mutable {
                raw->threadMain(std::move(stop), std::move(coalescer));
            });
    } catch (const std::system_error& error) {
        return std::unexpected(
            WatchError{WatchError::Code::SystemError,
                       std::string("cannot start the watcher thread: ") + error.what()});
    }
    return std::make_unique<SourceWatcher>(ConstructionKey{}, std::move(impl));
}

SourceWatcher::SourceWatcher(ConstructionKey /*key*/, std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

SourceWatcher::~SourceWatcher() {
    impl_->thread.request_stop();
    impl_->wake.notify(); // get the thread out of poll(2)
    if (impl_->thread.joinable()) {
        impl_->thread.join();
    }
}

std::optional<ChangeSet> SourceWatcher::poll() {
    return impl_->queue.tryPop();
}

std::optional<ChangeSet> SourceWatcher::waitFor(std::chrono::steady_clock::time_point deadline) {
    return impl_->queue.popUntil(deadline);
}

bool SourceWatcher::holdingChanges() const noexcept {
    // An event is in the kernel's queue from the system call that caused it (a save's
    // truncation, say): a build that read the file after it finishes after the event is
    // queued, whenever the watcher thread gets to read it. The queue first, then the flag the
    // thread raises before it reads the queue: no moment in between sees neither.
    const int fd = impl_->inotifyFd.load(std::memory_order_acquire);
    if (fd >= 0) {
        pollfd queued{.fd = fd, .events = POLLIN, .revents = 0};
        if (::poll(&queued, 1, 0) > 0 && (queued.revents & POLLIN) != 0)
            return true;
    }
    return impl_->holding.load(std::memory_order_acquire);
}

Backend SourceWatcher::backend() const noexcept {
    return impl_->active.load();
}

const std::vector<fs::path>& SourceWatcher::roots() const noexcept {
    return impl_->roots;
}

std::vector<fs::path> SourceWatcher::missingRoots() const {
    return impl_->missing.list();
}

void SourceWatcher::requestRescan() {
    impl_->rescanRequested.store(true);
    impl_->wake.notify();
}

} // namespace scripthost::watcher
