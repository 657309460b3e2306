#include "runtime/domain_unloader.hpp"

#include "runtime/domain_presence.hpp"
#include "runtime/managed_exception.hpp"
#include "runtime/runtime_state.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mono/metadata/threads.h>
#include <spdlog/spdlog.h>

namespace scripthost::mono {

void DomainUnloader::submit(MonoDomain* domain, std::string label,
                            std::vector<StartedThread> threads) {
    {
        std::lock_guard lock(mutex_);
        ++pending_;
    }
    (void)worker_.submit(
        [this, domain, label = std::move(label), threads = std::move(threads)]() mutable {
            std::string failure = unload(domain, label, threads);
            threads.clear(); // frees their handles
            std::lock_guard lock(mutex_);
            --pending_;
            if (!failure.empty()) {
                spdlog::error("{}", failure);
                failures_.push_back(std::move(failure));
            }
            if (pending_ == 0)
                idle_.notify_all();
        });
}

bool DomainUnloader::waitIdle(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    return idle_.wait_until(lock, deadline, [this] { return pending_ == 0; });
}

std::size_t DomainUnloader::pending() const {
    std::lock_guard lock(mutex_);
    return pending_;
}

std::vector<std::string> DomainUnloader::takeFailures() {
    std::lock_guard lock(mutex_);
    return std::exchange(failures_, {});
}

void DomainUnloader::stop() { worker_.stop(); }

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
    // No host thread may still be inside it (domain_presence.hpp): the worker threads leave
    // a job's domain before anyone waiting on the job goes on, so this is only a guard.
    if (!waitUntilNoThreadIn(domain, std::chrono::steady_clock::now() + kPresenceBudget)) {
        return fmt::format("{} was not unloaded: {} host thread(s) were still inside it after "
                           "{} ms; it stays loaded until the host exits",
                           label, threadsIn(domain), kPresenceBudget.count());
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

} // namespace scripthost::mono
