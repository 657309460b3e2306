// The last resort, end to end: the real binary, a script that holds the main thread, and the
// host must end within a bounded time with a documented code whatever Mono does meanwhile
// (host/safety/last_resort.hpp; exit codes in docs/ARCHITECTURE.md).
#include "../support/host_process.hpp"

#include <array>
#include <csignal>
#include <doctest/doctest.h>
#include <memory>

using namespace scripthost::testing;
using namespace std::chrono_literals;

namespace {

// Logs once, then holds the main thread in a `finally`, where an abort cannot stop it.
const char* const kFinallyLoop = "using UEngine;\n"
                                 "public class Hostage : UMonoScriptComponent {\n"
                                 "  public override void Update(float dt) {\n"
                                 "    Debug.Log(\"holding the main thread\");\n"
                                 "    try { } finally { while (true) { } }\n"
                                 "  }\n"
                                 "}\n";

constexpr int kHostageExitCode = 70;
constexpr int kSigtermExitCode = 128 + SIGTERM;
// From "holding the main thread" to the exit: budget 400 ms + grace 1100 ms + the report
// (at most 1.5 s) with room for a loaded machine.
constexpr auto kExitDeadline = 15s;
constexpr auto kStartDeadline = 60s;

std::vector<std::string> runArgs(const TempDir& dir, std::vector<std::string> extra) {
    // --no-supervise: these runs are about how the host itself ends, not its restart.
    std::vector<std::string> args{
        "run", "--scripts",    dir.path().string(), "--headless",      "--fps",
        "60",  "--no-control", "--no-watch",        "--cold-compiler", "--no-supervise"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

/// Runs `runs` hosts on the script, two at a time, each with a short watchdog budget, and
/// checks that every one exits with code 70 within kExitDeadline of taking the main thread.
void expectEveryRunEndsWithCode70(const TempDir& dir, int runs) {
    const std::vector<std::string> args =
        runArgs(dir, {"--watchdog-ms", "400", "--watchdog-grace-ms", "1100"});
    int endedWith70 = 0;
    for (int run = 0; run < runs; run += 2) {
        std::array<std::unique_ptr<HostProcess>, 2> hosts;
        for (auto& host : hosts)
            host = std::make_unique<HostProcess>(args);
        for (auto& host : hosts) {
            REQUIRE_MESSAGE(host->waitForOutput("holding the main thread", kStartDeadline),
                            host->output());
            // Its pair may have ended already: the deadline bounds each run from above.
            const int code = host->wait(kExitDeadline);
            CHECK_MESSAGE(code == kHostageExitCode, host->output());
            if (code == kHostageExitCode)
                ++endedWith70;
        }
    }
    CHECK(endedWith70 == runs);
}

} // namespace

TEST_CASE("last resort: a script looping in finally ends the host with code 70 within seconds, "
          "20 runs out of 20") {
    TempDir dir("last-resort-finally");
    writeFile(dir / "Hostage.cs", kFinallyLoop);
    expectEveryRunEndsWithCode70(dir, 20);
}

TEST_CASE("last resort: SIGTERM ends a host whose main thread is stuck once the stop grace has "
          "passed, with code 143, and the log says why") {
    TempDir dir("last-resort-sigterm");
    writeFile(dir / "Hostage.cs", kFinallyLoop);
    // No watchdog: nothing but the signal can end this host.
    HostProcess host(runArgs(dir, {"--watchdog-ms", "0", "--stop-grace-ms", "1000"}));
    REQUIRE_MESSAGE(host.waitForOutput("holding the main thread", kStartDeadline), host.output());
    host.signal(SIGTERM);
    const int code = host.wait(kExitDeadline);
    CHECK_MESSAGE(code == kSigtermExitCode, host.output());
    const std::string out = host.output();
    CHECK_MESSAGE(out.find("SIGTERM: stopping the loop") != std::string::npos, out);
    CHECK_MESSAGE(out.find("the host has not exited 1000 ms after SIGTERM") != std::string::npos,
                  out);
    CHECK_MESSAGE(out.find("exits now with code 143") != std::string::npos, out);
    CHECK(out.find("stopped after") == std::string::npos); // the loop never got to its stop
}

TEST_CASE("last resort: a second SIGTERM ends a stuck host at once, long before its stop grace") {
    TempDir dir("last-resort-twice");
    writeFile(dir / "Hostage.cs", kFinallyLoop);
    HostProcess host(runArgs(dir, {"--watchdog-ms", "0", "--stop-grace-ms", "600000"}));
    REQUIRE_MESSAGE(host.waitForOutput("holding the main thread", kStartDeadline), host.output());
    host.signal(SIGTERM);
    REQUIRE_MESSAGE(host.waitForOutput("SIGTERM: stopping the loop", kExitDeadline), host.output());
    host.signal(SIGTERM);
    const int code = host.wait(kExitDeadline);
    CHECK_MESSAGE(code == kSigtermExitCode, host.output());
    CHECK_MESSAGE(host.output().find("a second SIGTERM") != std::string::npos, host.output());
}
