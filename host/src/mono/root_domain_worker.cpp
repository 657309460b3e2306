#include "mono/root_domain_worker.hpp"

#include "mono/checked_call.hpp"
#include "mono/runtime_state.hpp"

#include <mono/metadata/threads.h>

namespace scripthost::mono {

std::future<void> RootDomainWorker::submit(std::packaged_task<void()> job) {
    std::future<void> done = job.get_future();
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(job));
    if (!thread_.joinable()) {
        stopping_ = false;
        thread_ = std::thread([this] { run(); });
    }
    wake_.notify_one();
    return done;
}

void RootDomainWorker::stop() {
    {
        std::lock_guard lock(mutex_);
        if (!thread_.joinable())
            return;
        stopping_ = true; // the queue is finished first
    }
    wake_.notify_one();
    thread_.join();
    thread_ = std::thread();
}

void RootDomainWorker::run() {
    // Attached to the root domain: ScriptThreads counts only threads that start inside a
    // generation's domain. The root domain is also where an unload must be called from.
    MonoThread* self = mono_thread_attach(runtimeState().root);
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty())
            break;
        std::packaged_task<void()> task = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        task();
        enterDomain(runtimeState().root);
        lock.lock();
    }
    lock.unlock();
    mono_thread_detach(self);
}

} // namespace scripthost::mono
