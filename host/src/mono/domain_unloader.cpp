#include "mono/domain_unloader.hpp"

#include "mono/managed_exception.hpp"
#include "mono/runtime_state.hpp"

#include <fmt/format.h>
#include <mono/metadata/threads.h>
#include <spdlog/spdlog.h>

namespace scripthost::mono {

void DomainUnloader::submit(MonoDomain* domain, std::string label) {
    std::lock_guard lock(mutex_);
    queue_.push_back({domain, std::move(label)});
    if (!thread_.joinable()) {
        stopping_ = false;
        thread_ = std::thread([this] { run(); });
    }
    wake_.notify_one();
}

bool DomainUnloader::waitIdle(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    return idle_.wait_until(lock, deadline, [this] { return queue_.empty() && busy_ == 0; });
}

std::size_t DomainUnloader::pending() const {
    std::lock_guard lock(mutex_);
    return queue_.size() + busy_;
}

std::vector<std::string> DomainUnloader::takeFailures() {
    std::lock_guard lock(mutex_);
    return std::exchange(failures_, {});
}

void DomainUnloader::stop() {
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

void DomainUnloader::run() {
    // A thread Mono knows, in the root domain: the unload switches it into the dying
    // domain for the DomainUnload event and back, and its collections must be able to
    // suspend it.
    MonoThread* self = mono_thread_attach(runtimeState().root);
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) // stopping, nothing left
            break;
        Job job = std::move(queue_.front());
        queue_.pop_front();
        ++busy_;
        lock.unlock();

        MonoObject* exc = nullptr;
        mono_domain_try_unload(job.domain, &exc);
        std::string failure;
        if (exc != nullptr) {
            failure =
                fmt::format("unloading {} failed: {}", job.label, describeException(exc).message);
        }

        lock.lock();
        --busy_;
        if (!failure.empty()) {
            spdlog::error("{}", failure);
            failures_.push_back(std::move(failure));
        }
        if (queue_.empty() && busy_ == 0)
            idle_.notify_all();
    }
    lock.unlock();
    mono_thread_detach(self);
}

} // namespace scripthost::mono
