// End-to-end: a game module whose native code crashes does not end the host. The real
// scripthost binary, a real module (tests/host/modules/crashing_game.cpp), real mcs.
#include "host_process.hpp"

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
