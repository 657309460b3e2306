// End-to-end: a game module whose native code crashes does not end the host. The real
// scripthost binary, a real module (tests/e2e/support/crashing_game.cpp), real mcs.
#include "../support/host_process.hpp"

#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace scripthost::testing;
using namespace std::chrono_literals;

namespace {

// Counts frames, logs every 20th, and checks every frame that a NullReferenceException in
// managed code is still an exception (Mono's fault, not the module's crash).
const char* kWatcher = R"(using UEngine;
using System;
public class Watcher : UMonoScriptComponent {
    int frames;
    public override void Update(float dt) {
        frames++;
        try { string nothing = null; if (nothing.Length == 3) frames += 100; }
        catch (NullReferenceException) { if (frames % 20 == 0) Debug.Log("watcher frame " + frames + ": NRE caught"); }
    }
}
)";

struct CrashRun {
    int exitCode;
    std::string output;
};

CrashRun runCrashingModule(const std::string& mode, const std::string& name) {
    TempDir dir(name);
    writeFile(dir.path() / "scripts" / "Watcher.cs", kWatcher);
    ::setenv("SCRIPTHOST_TEST_CRASH", mode.c_str(), 1);
    HostProcess host({"run", "--scripts", (dir.path() / "scripts").string(), "--game",
                      CRASHING_GAME_MODULE, "--headless", "--frames", "100", "--fps", "0",
                      "--no-control"});
    ::unsetenv("SCRIPTHOST_TEST_CRASH");
    const int code = host.wait(120s);
    return {code, host.output()};
}

void checkContained(const CrashRun& run, const std::string& fault, const std::string& function) {
    INFO(run.output);
    CHECK(run.exitCode == 0);
    const auto crash = run.output.find("system 'crasher' (before scripts) crashed");
    REQUIRE(crash != std::string::npos);
    const std::string line = run.output.substr(crash, run.output.find('\n', crash) - crash);
    CHECK(line.find(fault) != std::string::npos);
    CHECK(line.find(function) != std::string::npos);
    CHECK(line.find("(crashing_game.1.so)") != std::string::npos); // its private copy
    // The scripts ran to the last frame, managed null references still being exceptions.
    CHECK(run.output.find("watcher frame 100: NRE caught", crash) != std::string::npos);
    // The module's other system stopped with it: it had printed frame 20 only (the crash
    // was on frame 30).
    CHECK(run.output.find("counter system at frame 20") != std::string::npos);
    CHECK(run.output.find("counter system at frame 40") == std::string::npos);
}

} // namespace

TEST_CASE("scripthost run: a module system that writes through a null pointer is reported with "
          "its function, the module is switched off, the scripts run to the last frame") {
    checkContained(runCrashingModule("null", "cli-crash-null"), "SIGSEGV (no memory at 0x0)",
                   "crashing_game_write_through_null");
}

TEST_CASE("scripthost run: a module system that divides by zero is contained the same way") {
    checkContained(runCrashingModule("divide", "cli-crash-divide"),
                   "SIGFPE (integer division by zero)", "crashing_game_divide");
}

TEST_CASE("scripthost run: a module system that recurses without end is contained the same "
          "way") {
    checkContained(runCrashingModule("recurse", "cli-crash-recurse"), "SIGSEGV (stack overflow at",
                   "crashing_game_recurse");
}

namespace {

// Calls the module's internal calls (Crash.Native, tests/e2e/support/crashing_game.cpp): a
// sum on frame 5, a C++ exception on frame 10 and a sum after it, a write through a null
// pointer on frame 40 (the message logged, the exception rethrown: a script failure), and a
// sum on frame 41, after the crash switched the module off.
const char* kCaller = R"(using System;
using System.Runtime.CompilerServices;
using UEngine;
namespace Crash {
    public static class Native {
        [MethodImpl(MethodImplOptions.InternalCall)] public static extern int Add(int a, int b);
        [MethodImpl(MethodImplOptions.InternalCall)] public static extern void WriteThroughNull(int value);
        [MethodImpl(MethodImplOptions.InternalCall)] public static extern int Throw(int value);
    }
}
public class Caller : UMonoScriptComponent {
    int frames;
    public override void Update(float dt) {
        frames++;
        if (frames == 5) Debug.Log("caller frame 5: Add(3, 4) = " + Crash.Native.Add(3, 4));
        if (frames == 10) {
            try { Crash.Native.Throw(7); Debug.Log("caller frame 10: Throw returned"); }
            catch (InvalidOperationException e) { Debug.Log("caller frame 10 caught: " + e.Message); }
        }
        if (frames == 11) Debug.Log("caller frame 11: Add(20, 22) = " + Crash.Native.Add(20, 22));
        if (frames == 40) {
            try { Crash.Native.WriteThroughNull(frames); Debug.Log("caller frame 40: WriteThroughNull returned"); }
            catch (InvalidOperationException e) { Debug.Log("caller frame 40 caught: " + e.Message); throw; }
        }
        if (frames == 41) {
            try { Debug.Log("caller frame 41: Add(1, 1) = " + Crash.Native.Add(1, 1)); }
            catch (InvalidOperationException e) { Debug.Log("caller frame 41 caught: " + e.Message); }
        }
    }
}
)";

/// The line of `output` that contains `text` (from its start), or "".
std::string lineWith(const std::string& output, const std::string& text) {
    const auto at = output.find(text);
    if (at == std::string::npos)
        return {};
    const auto start = output.rfind('\n', at);
    const auto begin = start == std::string::npos ? 0 : start + 1;
    return output.substr(begin, output.find('\n', at) - begin);
}

} // namespace

TEST_CASE("scripthost run: a module internal call that writes through a null pointer raises an "
          "exception in the calling script, which is reported - the module is switched off and "
          "the scripts run to the last frame") {
    TempDir dir("cli-crash-internal-call");
    writeFile(dir.path() / "scripts" / "Watcher.cs", kWatcher);
    writeFile(dir.path() / "scripts" / "Caller.cs", kCaller);
    ::setenv("SCRIPTHOST_TEST_CRASH_FRAME", "0", 1); // its systems never crash by themselves
    HostProcess host({"run", "--scripts", (dir.path() / "scripts").string(), "--game",
                      CRASHING_GAME_MODULE, "--headless", "--frames", "100", "--fps", "0",
                      "--no-control"});
    ::unsetenv("SCRIPTHOST_TEST_CRASH_FRAME");
    const int code = host.wait(120s);
    const std::string output = host.output();
    INFO(output);
    CHECK(code == 0);

    // Typed calls return what the module computes, before and after a C++ exception, which
    // raises an exception in the script and leaves the module on.
    CHECK(output.find("caller frame 5: Add(3, 4) = 7\n") != std::string::npos);
    const std::string thrown = lineWith(output, "caller frame 10 caught: ");
    CHECK(
        thrown.find("native call Crash.Native::Throw threw: crashing_game_throw was asked for 7") !=
        std::string::npos);
    CHECK(output.find("caller frame 10: Throw returned") == std::string::npos);
    CHECK(output.find("caller frame 11: Add(20, 22) = 42\n") != std::string::npos);

    // The crash: the script gets an exception that names the call, the fault and where it was.
    CHECK(output.find("caller frame 40: WriteThroughNull returned") == std::string::npos);
    const std::string caught = lineWith(output, "caller frame 40 caught: ");
    REQUIRE_MESSAGE(!caught.empty(), "no exception reached the script");
    CHECK(caught.find("native call Crash.Native::WriteThroughNull crashed: SIGSEGV (no memory at "
                      "0x0) in crashing_game_write_through_null") != std::string::npos);
    CHECK(caught.find("(crashing_game.1.so)") != std::string::npos);
    CHECK(caught.find("; the game module 'crashing game' is switched off") != std::string::npos);
    // Reported as a script failure (the exception was rethrown), and the module as crashed, as a
    // crashing system would be.
    CHECK(lineWith(output, "script Caller")
              .find("System.InvalidOperationException: native call Crash.Native::WriteThroughNull "
                    "crashed") != std::string::npos);
    CHECK(output.find("1 script failure(s) during the run") != std::string::npos);
    const std::string moduleLine =
        lineWith(output, "internal call 'Crash.Native::WriteThroughNull'");
    CHECK(moduleLine.find("[crashing game]") != std::string::npos);
    CHECK(moduleLine.find("crashed; the module's systems, renderer, native scripts and internal "
                          "calls are switched off") != std::string::npos);

    // Switched off: the next call raises without running the module's code ...
    const std::string after = lineWith(output, "caller frame 41 caught: ");
    CHECK(after.find("native call Crash.Native::Add is not run: the game module 'crashing game' is "
                     "switched off after a crash (internal call "
                     "'Crash.Native::WriteThroughNull': SIGSEGV") != std::string::npos);
    CHECK(output.find("caller frame 41: Add(1, 1)") == std::string::npos);
    // ... its systems stopped with it (the counter printed frame 20, not 60) ...
    CHECK(output.find("counter system at frame 20") != std::string::npos);
    CHECK(output.find("counter system at frame 60") == std::string::npos);
    // ... and the host ticked on: the other script ran to the last frame.
    CHECK(output.find("watcher frame 100: NRE caught") != std::string::npos);
}
