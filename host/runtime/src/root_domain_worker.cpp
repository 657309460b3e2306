#include "runtime/root_domain_worker.hpp"

#include "runtime/checked_call.hpp"
#include "runtime/runtime_state.hpp"

#include <atomic>
#include <mono/metadata/threads.h>

namespace scripthost::mono {

namespace {

std::atomic<long long> handOffDelayMs{0};

} // namespace

void RootDomainWorker::setHandOffDelayForTesting(std::chrono::milliseconds delay) noexcept {
    handOffDelayMs.store(delay.count(), std::memory_order_relaxed);
}

std::future<void> RootDomainWorker::submit(std::move_only_function<void()> job) {
    Job queued{std::move(job), {}};
    std::future<void> done = queued.done.get_future();
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(queued));
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
    MonoDomain* root = runtimeState().root;
    MonoThread* self = mono_thread_attach(root);
    recordDomainEntered(root);
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty())
            break;
        Job job = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        std::exception_ptr thrown;
        try {
            job.work();
        } catch (...) {
            thrown = std::current_exception();
        }
        // Out of the job's domain before anyone waiting on the job goes on (the header).
        enterDomain(root);
        if (thrown)
            job.done.set_exception(thrown);
        else
            job.done.set_value();
        if (const long long delay = handOffDelayMs.load(std::memory_order_relaxed); delay > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(delay));
        lock.lock();
    }
    lock.unlock();
    mono_thread_detach(self);
}

} // namespace scripthost::mono
