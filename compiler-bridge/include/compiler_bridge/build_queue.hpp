#pragma once
// BuildQueue: runs builds on one worker thread; the newest submission supersedes older ones.

#include "compiler_bridge/assembly_set_build.hpp"
#include "compiler_bridge/compiler.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>

namespace scripthost::compiler {

/// Identifies one submission; ids increase with every submit().
using BuildId = std::uint64_t;

/// An assembly set submission's request and what the set build did.
struct FinishedSet {
    AssemblySetRequest request;
    AssemblySetResult result;
};

/// A build that finished and was not superseded.
struct FinishedBuild {
    BuildId id = 0;
    /// A CompileRequest submission: it and its result. An assembly set: the last assembly it
    /// compiled (the failed one when one failed), so `result.success` is the set's success and
    /// `result.diagnostics` its errors; a set that compiled nothing has an empty request and a
    /// result whose `nothingToBuild` is set (its success the set's: false for a bad request,
    /// whose error is the one diagnostic).
    CompileRequest request;
    CompileResult result;
    /// Assembly set submissions only: every assembly's outcome and output path.
    std::optional<FinishedSet> set;
    std::chrono::steady_clock::time_point finishedAt{}; ///< when the worker had the result
};

/// Counters since construction.
struct BuildQueueStats {
    std::size_t submitted = 0;   ///< submit() calls
    std::size_t built = 0;       ///< submissions the worker ran (an assembly set counts once)
    std::size_t superseded = 0;  ///< requests dropped unbuilt or results discarded as stale
    std::size_t setsStopped = 0; ///< superseded assembly sets stopped between two assemblies
    std::size_t delivered = 0;   ///< results handed out by poll()/waitFor()
};

/// Builds off the calling thread, keeping only what is still wanted.
///
/// Rules: at most one request waits (a newer submit() replaces it unbuilt); a build in flight
/// when a newer request is submitted runs to completion but its result is discarded, never
/// delivered; so is a finished result not collected before the next submit(). So poll() only
/// ever hands out the result of the newest submission, once. An assembly set is one submission
/// under the same rules; superseded while it builds, it stops before its next assembly. The
/// compiler's warmUp() runs on the worker at start-up.
class BuildQueue {
public:
    /// Starts the worker thread, which owns `compiler`. `setHelper` (optional): a second
    /// compiler an assembly set builds with beside `compiler`, two assemblies at a time when
    /// their references allow (buildAssemblySet); it is warmed up when the first set needs it.
    explicit BuildQueue(std::unique_ptr<Compiler> compiler,
                        std::unique_ptr<Compiler> setHelper = nullptr);
    /// Drops the waiting request, waits for a build in flight (bounded by its timeout) and
    /// joins the worker.
    ~BuildQueue();
    BuildQueue(const BuildQueue&) = delete;
    BuildQueue& operator=(const BuildQueue&) = delete;

    /// Queues a build and returns its id; supersedes every earlier submission.
    [[nodiscard]] BuildId submit(CompileRequest request);
    /// Queues an assembly set build (buildAssemblySet), delivered with FinishedBuild::set;
    /// supersedes every earlier submission, and is superseded like any other.
    [[nodiscard]] BuildId submit(AssemblySetRequest request);

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
    struct Submission; // a CompileRequest or an AssemblySetRequest
    void run();
    [[nodiscard]] BuildId enqueue(Submission submission);
    [[nodiscard]] FinishedBuild build(BuildId id, Submission& submission);

    std::unique_ptr<Compiler> compiler_;
    std::unique_ptr<Compiler> setHelper_;
    Backend backend_;
    std::shared_ptr<Shared> shared_;
    std::jthread worker_;
};

} // namespace scripthost::compiler
