// LastResort: a deadline still armed when it passes ends the process with its code and one line
// on stderr; a disarmed or re-armed one does not. Each case runs in a forked child (the real
// _exit), the parent reads its exit status and stderr.
#include "host/safety/last_resort.hpp"

#include <chrono>
#include <doctest/doctest.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace scripthost;
using namespace std::chrono_literals;

namespace {

struct ChildResult {
    int exitCode = -1; ///< -1: killed by a signal
    std::string err;
};

/// Runs `body` in a child process with stderr captured; the child exits 0 after it.
template <class Body> ChildResult inChild(Body body) {
    int pipeFds[2];
    REQUIRE(::pipe(pipeFds) == 0);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::dup2(pipeFds[1], STDERR_FILENO);
        ::close(pipeFds[0]);
        body();
        ::_exit(0);
    }
    ::close(pipeFds[1]);
    ChildResult result;
    char buffer[512];
    for (ssize_t n; (n = ::read(pipeFds[0], buffer, sizeof buffer)) > 0;)
        result.err.append(buffer, static_cast<std::size_t>(n));
    ::close(pipeFds[0]);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

} // namespace

TEST_CASE("LastResort: an armed deadline that passes ends the process with its code and why") {
    const ChildResult r = inChild([] {
        if (!LastResort::start())
            ::_exit(99);
        LastResort::arm(LastResort::Deadline::HostageExit, std::chrono::steady_clock::now() + 50ms,
                        77, "the test's deadline passed");
        std::this_thread::sleep_for(10s); // ended long before this
    });
    CHECK(r.exitCode == 77);
    CHECK(r.err.find("the test's deadline passed") != std::string::npos);
    CHECK(r.err.find("[critical]") != std::string::npos);
}

TEST_CASE("LastResort: a deadline disarmed in time, or re-armed later, does not fire") {
    const ChildResult r = inChild([] {
        if (!LastResort::start())
            ::_exit(99);
        // Each deadline is disarmed or moved a second before it is due (a margin no
        // scheduler delay between two calls reaches), then the child waits past it.
        const auto now = std::chrono::steady_clock::now();
        LastResort::arm(LastResort::Deadline::ScriptCall, now + 1s, 71, "script call");
        LastResort::disarm(LastResort::Deadline::ScriptCall);
        LastResort::arm(LastResort::Deadline::StopSignal, now + 1s, 72, "stop");
        LastResort::arm(LastResort::Deadline::StopSignal, now + 60s, 72, "stop, later");
        std::this_thread::sleep_until(now + 1500ms);
        LastResort::disarm(LastResort::Deadline::StopSignal);
    });
    CHECK(r.exitCode == 0);
    CHECK(r.err.empty());
}

TEST_CASE("LastResort: before start, arming does nothing") {
    const ChildResult r = inChild([] {
        if (LastResort::started())
            ::_exit(98); // a fresh child has no last resort yet
        LastResort::arm(LastResort::Deadline::ScriptCall, std::chrono::steady_clock::now(), 70,
                        "never");
        std::this_thread::sleep_for(200ms);
    });
    CHECK(r.exitCode == 0);
}

TEST_CASE("LastResort: JSON lines when asked for") {
    const ChildResult r = inChild([] {
        if (!LastResort::start(/*jsonLines=*/true))
            ::_exit(99);
        LastResort::arm(LastResort::Deadline::HostageExit, std::chrono::steady_clock::now(), 70,
                        "quoted \"why\"");
        std::this_thread::sleep_for(10s);
    });
    CHECK(r.exitCode == 70);
    CHECK(r.err.rfind("{", 0) == 0);
    CHECK(r.err.find("\"level\":\"critical\"") != std::string::npos);
    CHECK(r.err.find("quoted \\\"why\\\"") != std::string::npos);
}
