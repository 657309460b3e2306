#pragma once

#include "change_coalescer.hpp"
#include "posix/wake_signal.hpp"
#include "watcher/change_set.hpp"
#include "watcher/watch_options.hpp"

#include <atomic>
#include <functional>
#include <stop_token>

namespace scripthost::watcher::detail {

// What a backend's loop shares with the SourceWatcher that runs it on the watcher thread.
struct LoopContext {
    ChangeCoalescer& coalescer;             // state owned by the watcher thread
    std::function<void(ChangeSet)> publish; // queues a set for the consumer (never blocks)
    const posix::WakeSignal& wake;          // written by stop/requestRescan
    std::atomic<bool>& rescanRequested;     // set by SourceWatcher::requestRescan
    std::atomic<bool>& holding;             // the coalescer has changes not flushed yet
    const WatchTestHooks& hooks;
    std::stop_token stop;
};

} // namespace scripthost::watcher::detail
