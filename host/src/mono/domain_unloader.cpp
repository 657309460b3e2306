#include "mono/domain_unloader.hpp"

#include "mono/managed_exception.hpp"
#include "mono/runtime_state.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mono/metadata/threads.h>
#include <spdlog/spdlog.h>

namespace scripthost::mono {

void DomainUnloader::submit(MonoDomain* domain, std::string label,
                            std::vector<StartedThread> threads) {
    std::lock_guard lock(mutex_);
    queue_.push_back({domain, std::move(label), std::move(threads)});
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

std::string DomainUnloader::unload(MonoDomain* domain, const std::string& label,
                                   const std::vector<StartedThread>& threads) {
    if (!threads.empty()) {
        const ThreadStopOutcome outcome = runtimeState().threads.stop(
            threads, std::chrono::steady_clock::now() + kThreadStopBudget);
        if (!outcome.running.empty()) {
            return fmt::format(
                "{} was not unloaded: {} thread(s) it started did not stop within {} ms of "
                "being aborted (a loop in a finally block?): {}; it stays loaded until the "
                "host exits",
                label, outcome.running.size(), kThreadStopBudget.count(),
                fmt::join(outcome.running, ", "));
        }
    }
    MonoObject* exc = nullptr;
    mono_domain_try_unload(domain, &exc);
    if (exc != nullptr)
        return fmt::format("unloading {} failed: {}", label, describeException(exc).message);
    if (!threads.empty()) {
        std::vector<std::string> names;
        for (const StartedThread& t : threads)
            names.push_back(t.name);
        spdlog::info("{} unloaded; stopped {} thread(s) it started: {}", label, names.size(),
                     fmt::join(names, ", "));
    }
    return {};
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

        std::string failure = unload(job.domain, job.label, job.threads);
        job.threads.clear(); // frees their handles

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
