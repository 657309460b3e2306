// The interactive demo in a real terminal: tmux runs scripthost with the demo game, the
// test reads the screen (capture-pane) and types keys (send-keys).

#include "../../support/test_support.hpp"

#include "../support/tmux_session.hpp"

#include <algorithm>
#include <boost/process.hpp>
#include <charconv>
#include <doctest/doctest.h>
#include <functional>

namespace fs = std::filesystem;
using namespace scripthost::testing;
using namespace std::chrono_literals;

namespace {

namespace bp = boost::process;

using Tmux = TmuxSession;

/// The demo's scripts copied into `dir`/scripts, and the shell command that runs the demo on
/// them in the terminal (then waits, so the pane stays readable). `redirect`: where stderr
/// and the exit line go.
std::string demoCommand(const TempDir& dir, const std::string& options,
                        const std::string& redirect) {
    const fs::path scripts = dir.path() / "scripts";
    fs::create_directories(scripts);
    for (const auto& entry :
         fs::directory_iterator(fs::path(SCRIPTHOST_SOURCE_DIR) / "demo-game" / "scripts"))
        fs::copy_file(entry.path(), scripts / entry.path().filename());
    return std::string(SCRIPTHOST_EXE) + " run --scripts " + scripts.string() + " --scene " +
           SCRIPTHOST_SOURCE_DIR + "/demo-game/scene.json --game " + DEMO_GAME_MODULE + " " +
           options + " " + redirect + "; sleep 30";
}

/// Starts the demo (no control socket) in an 80x24 pane of `tmux` and waits until its screen
/// shows generation 1 and what `ready` looks for; returns that screen.
std::string startDemoAt80x24(const TempDir& dir, const Tmux& tmux,
                             const std::function<bool(const std::string&)>& ready) {
    const std::string command = demoCommand(dir, "--no-control", "2>/dev/null");
    REQUIRE(tmux.run({"new-session", "-d", "-s", tmux.session, "-x", "80", "-y", "24", command}) ==
            0);
    std::string screen;
    const bool drawn = waitUntil(
        [&] {
            screen = tmux.screen();
            return screen.find("scripthost | gen 1") != std::string::npos && ready(screen);
        },
        60s);
    REQUIRE_MESSAGE(drawn, screen);
    return screen;
}

/// The highest heartbeat number on the screen ("[script] heartbeat 7 at t=…"), 0 when none.
int lastHeartbeat(const std::string& screen) {
    int last = 0;
    const std::string_view marker = "heartbeat ";
    for (std::size_t at = screen.find(marker); at != std::string::npos;
         at = screen.find(marker, at + 1)) {
        int beat = 0;
        std::from_chars(screen.data() + at + marker.size(), screen.data() + screen.size(), beat);
        last = std::max(last, beat);
    }
    return last;
}

} // namespace

TEST_CASE("terminal: the demo draws the arena and a status line, reacts to keys, and quits on q") {
    REQUIRE_MESSAGE(!bp::search_path("tmux").empty(), "tmux is missing: run tools/bootstrap");
    TempDir dir("terminal-demo");
    const fs::path log = dir.path() / "host.log";

    Tmux tmux{"demo", dir.path() / "tmux.sock"};
    const std::string command =
        demoCommand(dir, "--control " + (dir.path() / "control.sock").string(),
                    "2>" + log.string() + "; echo exited $? >> " + log.string());
    REQUIRE(tmux.run({"new-session", "-d", "-s", tmux.session, "-x", "100", "-y", "30", command}) ==
            0);

    std::string screen;
    const bool drawn = waitUntil(
        [&] {
            screen = tmux.screen();
            return screen.find("scripthost | gen 1") != std::string::npos &&
                   screen.find('O') != std::string::npos;
        },
        60s);
    REQUIRE_MESSAGE(drawn, screen);
    CHECK(screen.find("#####") != std::string::npos);     // the arena's walls
    CHECK(screen.find("Spinner A") != std::string::npos); // the legend
    CHECK(screen.find("q quit") != std::string::npos);

    // The camera starts looking up the screen ('^'); turning right makes it look right.
    CHECK_MESSAGE(screen.find('^') != std::string::npos, screen);
    const bool turned = waitUntil(
        [&] {
            tmux.run({"send-keys", "-t", tmux.session, "d"});
            screen = tmux.screen();
            return screen.find('>') != std::string::npos;
        },
        20s);
    CHECK_MESSAGE(turned, screen);

    // p pauses (the status line says so), q quits cleanly.
    tmux.run({"send-keys", "-t", tmux.session, "p"});
    CHECK(waitUntil([&] { return tmux.screen().find("PAUSED") != std::string::npos; }, 10s));
    tmux.run({"send-keys", "-t", tmux.session, "q"});
    const bool exited =
        waitUntil([&] { return readFile(log).find("exited 0") != std::string::npos; }, 30s);
    CHECK_MESSAGE(exited, readFile(log));
    CHECK(readFile(log).find("stopped after") != std::string::npos);
}

TEST_CASE("terminal: on an 80x24 terminal the legend stands clear of the arena and quitting is "
          "in sight") {
    REQUIRE_MESSAGE(!bp::search_path("tmux").empty(), "tmux is missing: run tools/bootstrap");
    TempDir dir("terminal-demo-small");
    Tmux tmux{"small", dir.path() / "tmux.sock"};
    const std::string screen = startDemoAt80x24(dir, tmux, [](const std::string& shown) {
        return shown.find("Spinner A") != std::string::npos;
    });
    CHECK_MESSAGE(screen.find("q quit") != std::string::npos, screen);
    // Every legend line has a blank column between it and the arena's right wall.
    for (const char* name : {"Camera", "Ball", "Spinner A", "Spinner B", "Heartbeat"}) {
        const std::size_t at = screen.find(name);
        REQUIRE_MESSAGE(at != std::string::npos, name);
        CHECK_MESSAGE(at > 0, screen);
        CHECK_MESSAGE(screen[at - 1] == ' ', name << " touches the arena:\n" << screen);
    }
    tmux.run({"send-keys", "-t", tmux.session, "q"});
}

TEST_CASE("terminal: a syntax error's file(line,col) stays in sight while the log scrolls on, "
          "and goes when the fix is built") {
    REQUIRE_MESSAGE(!bp::search_path("tmux").empty(), "tmux is missing: run tools/bootstrap");
    TempDir dir("terminal-demo-errors");
    Tmux tmux{"errors", dir.path() / "tmux.sock"};
    std::string screen = startDemoAt80x24(
        dir, tmux, [](const std::string& shown) { return lastHeartbeat(shown) > 0; });

    const fs::path spinner = dir.path() / "scripts" / "Spinner.cs";
    const std::string good = readFile(spinner);
    const std::size_t at = good.find("transform.Rotate(axis, speed * deltaTime);");
    REQUIRE(at != std::string::npos);
    writeFile(spinner, good.substr(0, at) + "oops " + good.substr(at));
    // The reserved rows start with the file inside the script folder; the log's own copy of
    // the error (if it is still there) starts with the time and names the whole path.
    const std::string located =
        "\nSpinner.cs(" + std::to_string(1 + std::count(good.begin(), good.begin() + at, '\n')) +
        ",";
    const bool shown = waitUntil(
        [&] {
            screen = tmux.screen();
            return screen.find(located) != std::string::npos;
        },
        60s);
    REQUIRE_MESSAGE(shown, screen);
    CHECK_MESSAGE(screen.find("error CS1525") != std::string::npos, screen);

    // The old code runs on and logs a heartbeat a second. The error must stay on screen for
    // 3 s and until five more beats came: more than the four log rows, so every log line
    // that was there when it appeared has scrolled away by then.
    const int firstBeat = lastHeartbeat(screen);
    const auto shownAt = std::chrono::steady_clock::now();
    bool stayed = true;
    const bool scrolled = waitUntil(
        [&] {
            screen = tmux.screen();
            stayed = screen.find(located) != std::string::npos;
            return !stayed || (std::chrono::steady_clock::now() - shownAt >= 3s &&
                               lastHeartbeat(screen) >= firstBeat + 5);
        },
        60s);
    CHECK_MESSAGE(stayed, "the error left the screen:\n" << screen);
    CHECK_MESSAGE(scrolled, "the log did not move on:\n" << screen);
    CHECK_MESSAGE(screen.find("q quit") != std::string::npos, screen);

    writeFile(spinner, good);
    const bool cleared = waitUntil(
        [&] {
            screen = tmux.screen();
            return screen.find("scripthost | gen 2") != std::string::npos &&
                   screen.find(located) == std::string::npos;
        },
        60s);
    CHECK_MESSAGE(cleared, screen);
    tmux.run({"send-keys", "-t", tmux.session, "q"});
}
