#include "compiler_bridge/build_queue.hpp"

#include "result_support.hpp"

#include <condition_variable>
#include <mutex>
#include <variant>

namespace scripthost::compiler {

struct BuildQueue::Submission {
    std::variant<CompileRequest, AssemblySetRequest> request;
};

struct BuildQueue::Shared {
    mutable std::mutex mutex;
    std::condition_variable wake;     // the worker: a request arrived or stop
    std::condition_variable finished; // waitFor(): a result arrived
    BuildId latest = 0;               // newest id handed out by submit()
    std::optional<std::pair<BuildId, Submission>> waiting;
    bool building = false;
    std::optional<FinishedBuild> ready;
    bool stopping = false;
    BuildQueueStats stats;
};

BuildQueue::BuildQueue(std::unique_ptr<Compiler> compiler, std::unique_ptr<Compiler> setHelper)
    : compiler_(std::move(compiler)), setHelper_(std::move(setHelper)),
      backend_(compiler_->backend()), shared_(std::make_shared<Shared>()),
      worker_([this] { run(); }) {}

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
    return enqueue(Submission{std::move(request)});
}

BuildId BuildQueue::submit(AssemblySetRequest request) {
    return enqueue(Submission{std::move(request)});
}

BuildId BuildQueue::enqueue(Submission submission) {
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
        shared_->waiting.emplace(id, std::move(submission));
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
        auto [id, submission] = std::move(*shared_->waiting);
        shared_->waiting.reset();
        shared_->building = true;
        lock.unlock();
        FinishedBuild finished = build(id, submission);
        lock.lock();
        shared_->building = false;
        ++shared_->stats.built;
        if (finished.set && finished.set->result.stopped) {
            ++shared_->stats.setsStopped;
        }
        if (id != shared_->latest) {
            ++shared_->stats.superseded; // a newer request arrived while this one built
            continue;
        }
        finished.finishedAt = std::chrono::steady_clock::now();
        shared_->ready = std::move(finished);
        shared_->finished.notify_all();
    }
}

FinishedBuild BuildQueue::build(BuildId id, Submission& submission) {
    FinishedBuild finished;
    finished.id = id;
    if (auto* single = std::get_if<CompileRequest>(&submission.request)) {
        finished.result = compiler_->compile(*single);
        finished.request = std::move(*single);
        return finished;
    }
    auto& request = std::get<AssemblySetRequest>(submission.request);
    const auto superseded = [&] {
        const std::lock_guard lock(shared_->mutex);
        return id != shared_->latest || shared_->stopping;
    };
    AssemblySetResult result = buildAssemblySet(*compiler_, setHelper_.get(), request, superseded);
    if (const AssemblyBuild* last = result.lastCompiled()) {
        finished.request = *last->request;
        finished.result = *last->result;
    } else {
        finished.result = result.error.empty()
                              ? CompileResult{}
                              : detail::failedResult({}, compiler_->backend(), result.error);
        finished.result.success = result.success;
        finished.result.nothingToBuild = true;
        finished.result.backend = compiler_->backend();
    }
    finished.set = FinishedSet{std::move(request), std::move(result)};
    return finished;
}

} // namespace scripthost::compiler
