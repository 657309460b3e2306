// ScriptThreads: the managed threads a generation's code started, recorded by Mono's profiler
// callbacks, taken by domain in the order they started and named (Thread.Name, else the start
// method), then stopped within a deadline, the outcome naming those that ended and those that
// did not (docs/MONO.md §15).
#include "../support/generation_code_support.hpp"
#include "runtime/runtime_state.hpp"

#include <mono/metadata/threads.h>
#include <thread>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

// Every thread says it runs before Begin starts the next: the profiler saw each start before
// the next one, and all of them before Begin returns.
constexpr const char* kThreads = R"(
using System;
using System.Threading;
public static class Worker {
    public static int started, finallies, spin;
    public static volatile bool release;
    public static void Running() { Interlocked.Increment(ref started); }
    public static void Ended() { Interlocked.Increment(ref finallies); }
    public static void Run() {
        Running();
        try { while (true) Thread.Sleep(5); } finally { Ended(); }
    }
    public static void StartAndWait(Thread thread) {
        int before = Volatile.Read(ref started);
        thread.Start();
        DateTime until = DateTime.UtcNow.AddSeconds(60);
        while (Volatile.Read(ref started) == before) {
            if (DateTime.UtcNow > until) throw new TimeoutException("the thread did not run");
            Thread.Sleep(1);
        }
    }
    public static int Finallies() { return Volatile.Read(ref finallies); }
    public static void Release() { release = true; }
}
public static class Starter {
    public static void Begin() {
        Worker.StartAndWait(new Thread(() => {
            Worker.Running();
            try { while (true) Thread.Sleep(5); } finally { Worker.Ended(); } }) { Name = "poller" });
        Worker.StartAndWait(new Thread(Worker.Run));
        Worker.StartAndWait(new Thread(() => {
            Worker.Running();
            try { while (true) Thread.Sleep(5); } finally { Worker.Ended(); } }));
    }
    public static void Stubborn() {
        Worker.StartAndWait(new Thread(() => {
            Worker.Running();
            try { while (true) Thread.Sleep(5); }
            finally { while (!Worker.release) Worker.spin++; Worker.Ended(); } }) { Name = "stubborn" });
    }
}
)";

AssemblyFile threadScripts(const TempDir& dir) {
    return compileScripts(dir, "threads.dll", {{"Threads.cs", kThreads}});
}

std::chrono::steady_clock::time_point in(std::chrono::milliseconds wait) {
    return std::chrono::steady_clock::now() + wait;
}

} // namespace

TEST_CASE("ScriptThreads: a generation's running threads are taken in the order they started, "
          "named by Thread.Name or their start method, and only once") {
    auto files = startBareRuntime();
    TempDir dir("script-threads");
    const AssemblyFile code = threadScripts(dir);
    GenerationCode other = loadGeneration(31, code); // started nothing
    GenerationCode gen = loadGeneration(32, code);
    callStatic(gen.image, "Starter", "Begin");

    mono::ScriptThreads& threads = mono::runtimeState().threads;
    CHECK(threads.takeRunning(other.domain.get()).empty());
    CHECK(threads.takeRunning(mono::runtimeState().root).empty()); // Mono's and the host's
    std::vector<mono::StartedThread> taken = threads.takeRunning(gen.domain.get());
    std::vector<std::string> names;
    for (const mono::StartedThread& t : taken) {
        names.push_back(t.name);
        CHECK(t.thread.target() != nullptr);
    }
    CHECK(names == std::vector<std::string>{"poller", "Worker.Run", "Starter.Begin (lambda)"});
    CHECK(threads.takeRunning(gen.domain.get()).empty()); // taken out of the registry

    const mono::ThreadStopOutcome outcome = threads.stop(taken, in(std::chrono::seconds(60)));
    CHECK(outcome.stopped == names);
    CHECK(outcome.running.empty());
    taken.clear();
    for (GenerationCode* g : {&gen, &other}) {
        auto unloaded = mono::GenerationDomain::unloadNow(g->domain.release(), "the test's");
        CHECK_MESSAGE(unloaded, (unloaded ? "" : unloaded.error().message));
    }
}

TEST_CASE("ScriptThreads: stop aborts every thread, runs their finally blocks and reports each "
          "one stopped") {
    auto files = startBareRuntime();
    TempDir dir("script-threads");
    GenerationCode gen = loadGeneration(33, threadScripts(dir));
    callStatic(gen.image, "Starter", "Begin");
    CHECK(callStaticInt(gen.image, "Worker", "Finallies") == 0);
    mono::ScriptThreads& threads = mono::runtimeState().threads;
    const std::size_t unstoppable = threads.unstoppable();

    std::vector<mono::StartedThread> taken = threads.takeRunning(gen.domain.get());
    REQUIRE(taken.size() == 3);
    const mono::ThreadStopOutcome outcome = threads.stop(taken, in(std::chrono::seconds(60)));
    CHECK(outcome.stopped.size() == 3);
    CHECK(outcome.running.empty());
    CHECK(callStaticInt(gen.image, "Worker", "Finallies") == 3); // each really ended
    CHECK(threads.unstoppable() == unstoppable);
    taken.clear();
    auto unloaded = mono::GenerationDomain::unloadNow(gen.domain.release(), "generation 33");
    CHECK_MESSAGE(unloaded, (unloaded ? "" : unloaded.error().message));
}

TEST_CASE("ScriptThreads: a thread looping in its finally block is reported running at the "
          "deadline and counted unstoppable, and reported stopped once it ends") {
    auto files = startBareRuntime();
    TempDir dir("script-threads");
    GenerationCode gen = loadGeneration(34, threadScripts(dir));
    callStatic(gen.image, "Starter", "Stubborn");
    mono::ScriptThreads& threads = mono::runtimeState().threads;
    const std::size_t unstoppable = threads.unstoppable();

    std::vector<mono::StartedThread> taken = threads.takeRunning(gen.domain.get());
    REQUIRE(taken.size() == 1);
    const mono::ThreadStopOutcome held = threads.stop(taken, in(std::chrono::milliseconds(300)));
    CHECK(held.stopped.empty());
    CHECK(held.running == std::vector<std::string>{"stubborn"});
    CHECK(threads.unstoppable() == unstoppable + 1);
    CHECK(callStaticInt(gen.image, "Worker", "Finallies") == 0); // still in its finally

    callStatic(gen.image, "Worker", "Release"); // lets it leave the finally block
    const mono::ThreadStopOutcome ended = threads.stop(taken, in(std::chrono::seconds(60)));
    CHECK(ended.stopped == std::vector<std::string>{"stubborn"});
    CHECK(ended.running.empty());
    CHECK(callStaticInt(gen.image, "Worker", "Finallies") == 1);
    CHECK(threads.unstoppable() == unstoppable + 1); // a count of those that did not stop
    taken.clear();
    auto unloaded = mono::GenerationDomain::unloadNow(gen.domain.release(), "generation 34");
    CHECK_MESSAGE(unloaded, (unloaded ? "" : unloaded.error().message));
}
