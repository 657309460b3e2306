#pragma once
// BuildQueue: runs builds on one worker thread; the newest submission supersedes older ones.

#include "compiler_bridge/compiler.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>

namespace scripthost::compiler {

/// Identifies one submission; ids increase with every submit().
using BuildId = std::uint64_t;

/// A build that finished and was not superseded.
struct FinishedBuild {
    BuildId id = 0;
    CompileRequest request;
    CompileResult result;
    std::chrono::steady_clock::time_point finishedAt{}; ///< when the worker had the result
};

/// Counters since construction.
struct BuildQueueStats {
    std::size_t submitted = 0;  ///< submit() calls
    std::size_t built = 0;      ///< builds the compiler actually ran
    std::size_t superseded = 0; ///< requests dropped unbuilt or results discarded as stale
    std::size_t delivered = 0;  ///< results handed out by poll()/waitFor()
};

/// Builds off the calling thread, keeping only what is still wanted.
///
/// Rules: at most one request waits (a newer submit() replaces it unbuilt); a build in flight
/// when a newer request is submitted runs to completion but its result is discarded, never
/// delivered; so is a finished result not collected before the next submit(). So poll() only
/// ever hands out the result of the newest submission, once. The compiler's warmUp() runs on
/// the worker at start-up.
class BuildQueue {
public:
    /// Starts the worker thread, which owns `compiler`.
    explicit BuildQueue(std::unique_ptr<Compiler> compiler);
    /// Drops the waiting request, waits for a build in flight (bounded by its timeout) and
    /// joins the worker.
    ~BuildQueue();
    BuildQueue(const BuildQueue&) = delete;
    BuildQueue& operator=(const BuildQueue&) = delete;

    /// Queues a build and returns its id; supersedes every earlier submission.
    [[nodiscard]] BuildId submit(CompileRequest request);

    /// The newest finished result, if one is ready; never blocks on a build.
    [[nodiscard]] std::optional<FinishedBuild> poll();

    /// Like poll(), waiting until the deadline at the latest.
    [[nodiscard]] std::optional<FinishedBuild>
    waitFor(std::chrono::steady_clock::time_point deadline);

    /// True when nothing is waiting, building or ready to collect.
    [[nodiscard]] bool idle() const;

    /// Counters since construction.
    [[nodiscard]] BuildQueueStats stats() const;

    /// The compiler's preferred backend (for logs).
    [[nodiscard]] Backend backend() const noexcept { return backend_; }

private:
    struct Shared;
    void run();

    std::unique_ptr<Compiler> compiler_;
    Backend backend_;
    std::shared_ptr<Shared> shared_;
    std::jthread worker_;
};

} // namespace scripthost::compiler
