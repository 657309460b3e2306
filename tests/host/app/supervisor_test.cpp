// supervise: the host runs in a child process that the supervisor restarts after a crash (a
// signal, or the hostage exit) and not after an exit; each restart is told how many came before
// and how the last run ended; a crash loop stops it. Real forks and real signals: the "host" is
// a function run in the child, which notes each run in a file.
#include "supervisor.hpp"

#include "../../support/test_support.hpp"
#include "host/runtime/script_watchdog.hpp"

#include <csignal>
#include <doctest/doctest.h>
#include <fstream>
#include <sstream>
#include <vector>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

struct Run {
    int restarts = 0;
    std::string lastCrash;
};

// Appends one line per run: "<restarts>|<lastCrash>".
void noteRun(const std::filesystem::path& file, const RestartInfo& info) {
    std::ofstream out(file, std::ios::app);
    out << info.restarts << '|' << info.lastCrash << '\n';
}

std::vector<Run> runsIn(const std::filesystem::path& file) {
    std::vector<Run> runs;
    std::istringstream lines(readFile(file));
    for (std::string line; std::getline(lines, line);) {
        const auto bar = line.find('|');
        runs.push_back({std::stoi(line.substr(0, bar)), line.substr(bar + 1)});
    }
    return runs;
}

// Dies by `signal` with the default action (not the test runner's handler, which the fork
// inherited).
[[noreturn]] void dieBy(int signal) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    std::_Exit(99); // not reached
}

SupervisorOptions quietOptions() {
    SupervisorOptions options;
    options.maxCrashes = 3;
    options.crashWindow = std::chrono::seconds(60);
    return options;
}

} // namespace

TEST_CASE("supervise: a host that exits is not restarted and its exit code is passed through") {
    TempDir dir("supervise-exit");
    const auto file = dir / "runs";
    const int code = supervise(quietOptions(), [&](const RestartInfo& info) {
        noteRun(file, info);
        return 7;
    });
    CHECK(code == 7);
    const auto runs = runsIn(file);
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].restarts == 0);
    CHECK(runs[0].lastCrash.empty());
}

TEST_CASE("supervise: a host killed by a signal is restarted and told how many runs came before "
          "and how the last one ended") {
    TempDir dir("supervise-crash");
    const auto file = dir / "runs";
    const int code = supervise(quietOptions(), [&](const RestartInfo& info) {
        noteRun(file, info);
        if (info.restarts == 0)
            dieBy(SIGSEGV);
        if (info.restarts == 1)
            dieBy(SIGABRT);
        return 0;
    });
    CHECK(code == 0);
    const auto runs = runsIn(file);
    REQUIRE(runs.size() == 3);
    CHECK(runs[1].restarts == 1);
    CHECK_MESSAGE(runs[1].lastCrash.find("killed by SIGSEGV") != std::string::npos,
                  runs[1].lastCrash);
    CHECK(runs[2].restarts == 2);
    CHECK_MESSAGE(runs[2].lastCrash.find("killed by SIGABRT") != std::string::npos,
                  runs[2].lastCrash);
}

TEST_CASE("supervise: the hostage exit is a crash too, other exit codes are not") {
    TempDir dir("supervise-hostage");
    const auto file = dir / "runs";
    const int code = supervise(quietOptions(), [&](const RestartInfo& info) {
        noteRun(file, info);
        return info.restarts == 0 ? kHostageExitCode : 3;
    });
    CHECK(code == 3);
    const auto runs = runsIn(file);
    REQUIRE(runs.size() == 2);
    CHECK_MESSAGE(runs[1].lastCrash.find("last resort") != std::string::npos, runs[1].lastCrash);
}

TEST_CASE("supervise: crashes that come too fast stop it with the last crash's status") {
    TempDir dir("supervise-loop");
    const auto file = dir / "runs";
    const int code = supervise(quietOptions(), [&](const RestartInfo& info) -> int {
        noteRun(file, info);
        dieBy(SIGSEGV);
    });
    CHECK(code == 128 + SIGSEGV);
    CHECK(runsIn(file).size() == 3); // maxCrashes
}

TEST_CASE("supervise: crashes spread wider than the window never stop it") {
    TempDir dir("supervise-window");
    const auto file = dir / "runs";
    SupervisorOptions options = quietOptions();
    options.maxCrashes = 2;
    options.crashWindow = std::chrono::seconds(0); // every crash is alone in its window
    const int code = supervise(options, [&](const RestartInfo& info) {
        noteRun(file, info);
        if (info.restarts < 4)
            dieBy(SIGSEGV);
        return 0;
    });
    CHECK(code == 0);
    CHECK(runsIn(file).size() == 5);
}

TEST_CASE("signalName: the signal's abbreviation, or its number when it has none") {
    CHECK(signalName(SIGSEGV) == "SIGSEGV");
    CHECK(signalName(SIGABRT) == "SIGABRT");
    CHECK(signalName(SIGTERM) == "SIGTERM");
    CHECK(signalName(250) == "signal 250");
}
