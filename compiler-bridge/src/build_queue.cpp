#include "compiler_bridge/build_queue.hpp"

#include <condition_variable>
#include <mutex>

namespace scripthost::compiler {

struct BuildQueue::Shared {
    mutable std::mutex mutex;
    std::condition_variable wake;     // the worker: a request arrived or stop
    std::condition_variable finished; // waitFor(): a result arrived
    BuildId latest = 0;               // newest id handed out by submit()
    std::optional<std::pair<BuildId, CompileRequest>> waiting;
    bool building = false;
    std::optional<FinishedBuild> ready;
    bool stopping = false;
    BuildQueueStats stats;
};

BuildQueue::BuildQueue(std::unique_ptr<Compiler> compiler)
    : compiler_(std::move(compiler)), backend_(compiler_->backend()),
      shared_(std::make_shared<Shared>()), worker_([this] { run(); }) {}

BuildQueue::~BuildQueue() {
    {
        const std::lock_guard lock(shared_->mutex);
        shared_->stopping = true;
        shared_->waiting.reset();
    }
    shared_->wake.notify_all();
    worker_.join();
}

BuildId BuildQueue::submit(CompileRequest request) {
    BuildId id = 0;
    {
        const std::lock_guard lock(shared_->mutex);
        id = ++shared_->latest;
        ++shared_->stats.submitted;
        if (shared_->waiting) {
            ++shared_->stats.superseded; // never built
        }
        if (shared_->ready) {
            ++shared_->stats.superseded; // built but stale now: never delivered
            shared_->ready.reset();
        }
        shared_->waiting.emplace(id, std::move(request));
    }
    shared_->wake.notify_one();
    return id;
}

std::optional<FinishedBuild> BuildQueue::poll() {
    const std::lock_guard lock(shared_->mutex);
    std::optional<FinishedBuild> result = std::move(shared_->ready);
    shared_->ready.reset();
    if (result) {
        ++shared_->stats.delivered;
    }
    return result;
}

std::optional<FinishedBuild> BuildQueue::waitFor(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(shared_->mutex);
    shared_->finished.wait_until(lock, deadline, [&] { return shared_->ready.has_value(); });
    std::optional<FinishedBuild> result = std::move(shared_->ready);
    shared_->ready.reset();
    if (result) {
        ++shared_->stats.delivered;
    }
    return result;
}

bool BuildQueue::idle() const {
    const std::lock_guard lock(shared_->mutex);
    return !shared_->waiting && !shared_->building && !shared_->ready;
}

BuildQueueStats BuildQueue::stats() const {
    const std::lock_guard lock(shared_->mutex);
    return shared_->stats;
}

void BuildQueue::run() {
    compiler_->warmUp();
    std::unique_lock lock(shared_->mutex);
    while (true) {
        shared_->wake.wait(lock, [&] { return shared_->stopping || shared_->waiting.has_value(); });
        if (shared_->stopping) {
            return;
        }
        auto [id, request] = std::move(*shared_->waiting);
        shared_->waiting.reset();
        shared_->building = true;
        lock.unlock();
        CompileResult result = compiler_->compile(request);
        lock.lock();
        shared_->building = false;
        ++shared_->stats.built;
        if (id != shared_->latest) {
            ++shared_->stats.superseded; // a newer request arrived while this one built
            continue;
        }
        shared_->ready = FinishedBuild{id, std::move(request), std::move(result),
                                       std::chrono::steady_clock::now()};
        shared_->finished.notify_all();
    }
}

} // namespace scripthost::compiler
