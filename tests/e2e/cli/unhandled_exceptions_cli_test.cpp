// The real scripthost binary with scripts that throw where no one catches: on a thread they
// start, in a thread-pool work item, a timer callback, a finalizer, a Task no one awaits, an
// async void method continuing on the pool. Each time the host logs the exception with its
// managed stack, names the script and the kind of thread, and the loop goes on.
#include "../support/host_process.hpp"

#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace scripthost::testing;

namespace {

// A script class `name` whose Update runs `start` once on frame 2 (with the helper
// `Fail(message)`, which throws InvalidOperationException from the script's file). From
// frame 3 on it collects garbage and waits for finalizers every 10 frames (finalizers and
// unobserved Tasks surface only then), and it logs "<name> ticks at frame N" every 20
// frames: the proof that the loop still runs.
std::string faultScript(const std::string& name, const std::string& start,
                        const std::string& extra = {}, const std::string& members = {}) {
    return "using UEngine;\nusing System;\nusing System.Threading;\nusing "
           "System.Threading.Tasks;\n" +
           extra + "public class " + name + " : UMonoScriptComponent {\n" +
           "    static Timer s_Timer;\n" + members +
           "    int frames;\n"
           "    public static void Fail(string message) {\n"
           "        throw new InvalidOperationException(message);\n"
           "    }\n"
           "    public override void Update(float dt) {\n"
           "        frames++;\n"
           "        if (frames == 2) {\n"
           "            " +
           start +
           "\n"
           "        }\n"
           "        if (frames > 2 && frames % 10 == 0) { GC.Collect(); "
           "GC.WaitForPendingFinalizers(); }\n"
           "        if (frames % 20 == 0) Debug.Log(\"" +
           name +
           " ticks at frame \" + frames);\n"
           "    }\n"
           "}\n";
}

struct Expected {
    std::string line; ///< the start of the log line: "script X threw <where>: <type>: <message>"
    std::string file; ///< the script file the stack must name with a line ("X.cs:")
};

// Runs `source` as `file` until the report is logged and the script has ticked again after
// it, then stops the host with SIGTERM (between frames): it must exit 0 having logged the
// report once, with the managed stack.
void checkReportedAndRunsOn(const std::string& file, const std::string& source,
                            const std::string& tickPrefix, const Expected& expected) {
    TempDir dir("cli-unhandled");
    writeFile(dir / file, source);
    HostProcess host({"run", "--scripts", dir.path().string(), "--headless", "--frames", "0",
                      "--fps", "100", "--no-control"});
    REQUIRE_MESSAGE(host.waitForOutput(expected.line, std::chrono::seconds(60)), host.output());
    const std::size_t reportedAt = host.output().find(expected.line);
    // A tick logged after the report: the loop went on.
    const bool ticked =
        waitUntil([&] { return host.output().find(tickPrefix, reportedAt) != std::string::npos; },
                  std::chrono::seconds(60));
    CHECK_MESSAGE(ticked, host.output());
    host.signal(SIGTERM);
    const int code = host.wait();
    const std::string out = host.output();
    CHECK_MESSAGE(code == 0, out);
    CHECK(out.find("(signal)") != std::string::npos);
    CHECK(out.find("frame statistics:") != std::string::npos);
    // The managed stack, with the script's file and line.
    CHECK_MESSAGE(out.find(expected.file, reportedAt) != std::string::npos, out);
    // Reported once (a destructor chain or the pool's rethrow must not repeat it).
    CHECK_MESSAGE(out.find(expected.line, reportedAt + 1) == std::string::npos, out);
    // Counted against the script on the main thread, once.
    CHECK_MESSAGE(out.find("1 script failure(s) during the run") != std::string::npos, out);
}

} // namespace

TEST_CASE("unhandled: a thread a script starts that throws is logged with its script and "
          "stack, and the loop goes on") {
    checkReportedAndRunsOn(
        "ThreadFault.cs",
        faultScript("ThreadFault", "new Thread(() => Fail(\"thread says no\")).Start();"),
        "ThreadFault ticks at frame",
        {"script ThreadFault threw on a thread it started (not on the game loop): "
         "System.InvalidOperationException: thread says no",
         "ThreadFault.cs:"});
}

TEST_CASE("unhandled: a thread-pool work item that throws is logged with its script and stack, "
          "and the loop goes on") {
    checkReportedAndRunsOn(
        "PoolFault.cs",
        faultScript("PoolFault", "ThreadPool.QueueUserWorkItem(_ => Fail(\"pool says no\"));"),
        "PoolFault ticks at frame",
        {"script PoolFault threw on a thread-pool thread (not on the game loop): "
         "System.InvalidOperationException: pool says no",
         "PoolFault.cs:"});
}

TEST_CASE("unhandled: a timer callback that throws is logged with its script and stack, and "
          "the loop goes on") {
    checkReportedAndRunsOn(
        "TimerFault.cs",
        faultScript("TimerFault", "s_Timer = new Timer(_ => Fail(\"timer says no\"), null, 10, "
                                  "Timeout.Infinite);"),
        "TimerFault ticks at frame",
        {"script TimerFault threw in a timer callback on a thread-pool thread (not on the game "
         "loop): System.InvalidOperationException: timer says no",
         "TimerFault.cs:"});
}

TEST_CASE("unhandled: a class whose finalizer throws is logged once, through its destructor "
          "chain, and the loop goes on") {
    // Doomed's destructor throws; Derived's chains to it (base.Finalize in a finally): one
    // report per object, naming the class whose finalizer threw.
    const std::string helpers =
        "public class Doomed {\n"
        "    ~Doomed() { throw new InvalidOperationException(\"finalizer says no\"); }\n"
        "}\n"
        "public class DerivedDoomed : Doomed {\n"
        "    ~DerivedDoomed() { }\n"
        "}\n";
    checkReportedAndRunsOn(
        "FinalizerFault.cs", faultScript("FinalizerFault", "new DerivedDoomed();", helpers),
        "FinalizerFault ticks at frame",
        {"script Doomed threw in a finalizer, on the GC's finalizer thread (not on the game "
         "loop): System.InvalidOperationException: finalizer says no",
         "FinalizerFault.cs:"});
}

TEST_CASE("unhandled: a Task.Run that throws and is never awaited is logged when the GC finds "
          "it, and the loop goes on") {
    checkReportedAndRunsOn(
        "TaskFault.cs", faultScript("TaskFault", "Task.Run(() => Fail(\"task says no\"));"),
        "TaskFault ticks at frame",
        {"script TaskFault threw in a Task no one awaited (unobserved; found when the GC "
         "collected the task): System.InvalidOperationException: task says no",
         "TaskFault.cs:"});
}

TEST_CASE("unhandled: an async void method that throws after an await on the pool is logged "
          "with its script, and the loop goes on") {
    // Started from a pool thread (no SynchronizationContext there): after the await, the
    // builder rethrows the exception in a new pool work item.
    checkReportedAndRunsOn(
        "AsyncFault.cs",
        faultScript("AsyncFault", "ThreadPool.QueueUserWorkItem(_ => Go());", {},
                    "    static async void Go() {\n"
                    "        await Task.Delay(5);\n"
                    "        throw new InvalidOperationException(\"async void says no\");\n"
                    "    }\n"),
        "AsyncFault ticks at frame",
        {"script AsyncFault threw in an async void method continuing on a thread-pool thread "
         "(not on the game loop): System.InvalidOperationException: async void says no",
         "AsyncFault.cs:"});
}

TEST_CASE("unhandled: the engine API used from Task.Run is reported with a hint to await on "
          "the game loop") {
    checkReportedAndRunsOn(
        "OffLoopEngine.cs",
        faultScript("OffLoopEngine",
                    "Task.Run(() => { transform.position = new Vector3(1, 2, 3); });"),
        "OffLoopEngine ticks at frame",
        {"script OffLoopEngine threw in a Task no one awaited (unobserved; found when the GC "
         "collected the task): System.InvalidOperationException: the engine API was used "
         "outside the host's game loop",
         "hint: the engine API works on the game loop only: use await on the game loop, not "
         "Task.Run or a thread, to touch the engine"});
}
