// The debugger end to end: Debian's sdb in a tmux pane (it needs a terminal) listens, the real
// scripthost connects out to it (--debug-connect), a breakpoint in a script's Update is hit with
// its locals, the control socket answers while the debugger holds the main thread, the watchdog
// leaves it alone, and after one reload the breakpoint binds to the new code (the reload's
// debugger rebind: docs/MONO.md §11).

#include "control/control_client.hpp"
#include "../support/host_process.hpp"
#include "../support/tmux_session.hpp"

#include <arpa/inet.h>
#include <boost/process.hpp>
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fstream>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace scripthost::testing;
using namespace std::chrono_literals;
using nlohmann::json;
using scripthost::control::ControlClient;

namespace {

namespace bp = boost::process;

using Tmux = TmuxSession;

/// A TCP port on 127.0.0.1 that nothing listens on now.
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    ::close(fd);
    return ntohs(address.sin_port);
}

/// Whether something listens on 127.0.0.1:port or 0.0.0.0:port now (/proc/net/tcp; a connect
/// would use up sdb's one accept).
bool listening(int port) {
    std::ifstream table("/proc/net/tcp");
    std::string line;
    const std::string wanted = fmt::format(":{:04X} ", port);
    while (std::getline(table, line)) {
        std::istringstream fields(line);
        std::string slot, local, remote, state;
        fields >> slot >> local >> remote >> state;
        if (state == "0A" && (local + " ").ends_with(wanted))
            return true;
    }
    return false;
}

/// Probe.cs: `seen` is a local only Update computes; `bonus` tells the generations apart, and
/// `padding` comment lines move the lines below them. `Unused`, a one-line method nothing calls,
/// sits right after Update: without padding on the line Update's `if` moves to with 3.
std::string probeScript(int bonus, int padding) {
    std::string text = "using UEngine;\n"
                       "\n"
                       "public class Probe : UMonoScriptComponent\n"
                       "{\n"
                       "    [SerializeField] int counter;\n"
                       "\n"
                       "    public override void Update(float deltaTime)\n"
                       "    {\n";
    for (int i = 0; i < padding; ++i)
        text += "        // a line added above the breakpoint\n";
    text += "        counter++;\n"
            "        int seen = counter * 2 + " +
            std::to_string(bonus) +
            ";\n"
            "        if (seen < 0)\n"
            "            Debug.Log(\"never\");\n"
            "    }\n"
            "    public void Unused() { Debug.Log(\"unused\"); }\n"
            "}\n";
    return text;
}

/// Types `print EXPR` in sdb (stopped) and returns the integer it prints ("int it = 42"), or
/// nullopt when nothing comes within the deadline.
std::optional<long> printInSdb(const Tmux& tmux, const std::string& expression) {
    static const std::regex printed(R"(int it = (-?\d+))");
    const std::size_t before = countOf(tmux.screen(true), "int it = ");
    tmux.type("print " + expression);
    std::string screen;
    if (!waitUntil([&] { return countOf(screen = tmux.screen(true), "int it = ") > before; }, 30s))
        return std::nullopt;
    std::optional<long> value;
    for (auto it = std::sregex_iterator(screen.begin(), screen.end(), printed);
         it != std::sregex_iterator(); ++it)
        value = std::stol((*it)[1].str());
    return value;
}

} // namespace

TEST_CASE("debugger: sdb breaks in Update with its locals, status answers while the main thread "
          "is held, and the breakpoint binds to the new code after one reload") {
    REQUIRE_MESSAGE(!bp::search_path("tmux").empty(), "tmux is missing: run tools/bootstrap");
    REQUIRE_MESSAGE(!bp::search_path("sdb").empty(), "sdb is missing: run tools/bootstrap");
    TempDir dir("debugger-sdb");
    const fs::path scripts = dir.path() / "scripts";
    fs::create_directories(scripts);
    const fs::path probe = scripts / "Probe.cs";
    writeFile(probe, probeScript(0, 0));
    const int firstLine = lineOf(probe, "if (seen < 0)"); // 11
    writeFile(dir.path() / "reloaded.cs.txt", probeScript(1000, 3));
    const int movedLine = lineOf(dir.path() / "reloaded.cs.txt", "if (seen < 0)"); // 14
    REQUIRE(movedLine == firstLine + 3);
    // In the first code the moved line is a statement that never runs: a breakpoint there
    // binds (sdb keeps its line) and does not stop the game until the code changes.
    REQUIRE(lineOf(probe, "Unused()") == movedLine);

    // sdb must listen before the host starts (the agent connects once, at start-up), and it
    // reads no command while the program runs: the first breakpoint is given on its command
    // line, the rest are typed while it is stopped.
    const int port = freePort();
    Tmux tmux{"sdb", dir.path() / "tmux.sock"};
    const std::string sdb = "TERM=xterm sdb -n 'bp add at " + probe.string() + " " +
                            std::to_string(firstLine) + "' 'listen 127.0.0.1 " +
                            std::to_string(port) + "'";
    REQUIRE(tmux.run({"new-session", "-d", "-s", tmux.session, "-x", "200", "-y", "50", sdb}) == 0);
    // sdb prints "Listening on" before it listens.
    REQUIRE_MESSAGE(waitUntil([&] { return listening(port); }, 60s), tmux.screen(true));

    const fs::path socket = dir.path() / "control.sock";
    HostProcess host({"run", "--headless", "--frames", "0", "--scripts", scripts.string(),
                      "--control", socket.string(), "--debug-connect",
                      "127.0.0.1:" + std::to_string(port), "--watchdog-ms", "200",
                      "--watchdog-grace-ms", "200"});
    const std::string firstHit =
        "Hit breakpoint at '" + probe.string() + ":" + std::to_string(firstLine) + "'";
    REQUIRE_MESSAGE(
        waitUntil([&] { return tmux.screen(true).find(firstHit) != std::string::npos; }, 90s),
        std::string(tmux.screen(true) + "\n--- host ---\n" + host.output()));

    // The locals: `seen` is twice the counter the same frame incremented.
    const std::optional<long> counter = printInSdb(tmux, "this.counter");
    const std::optional<long> seen = printInSdb(tmux, "seen");
    REQUIRE_MESSAGE(counter.has_value(), tmux.screen(true));
    REQUIRE_MESSAGE(seen.has_value(), tmux.screen(true));
    CHECK(*counter >= 1);
    CHECK(*seen == *counter * 2);

    // The main thread is held: the control socket still answers status, from the host's own
    // thread, for longer than the watchdog's budget + grace + the last resort's slack (2.4 s
    // with these options) — the watchdog neither aborts the script nor ends the host.
    REQUIRE(waitUntil([&] { return fs::exists(socket); }, 30s));
    auto client = ControlClient::connect(socket, 5s);
    REQUIRE(client.has_value());
    json status;
    const bool heldLong = waitUntil(
        [&] {
            auto reply = client->call("status", json::object(), 5000ms);
            if (!reply || !reply->value("ok", false))
                return false;
            status = (*reply)["result"];
            return status.value("state", "") == "paused in debugger" &&
                   status["debugger"].value("heldSeconds", 0.0) > 3.0;
        },
        30s);
    CHECK_MESSAGE(heldLong, status.dump());
    CHECK(status["generation"] == 1);
    CHECK(status["debugger"]["attached"] == true);
    auto refused = client->call("entities", json::object(), 5000ms);
    REQUIRE(refused.has_value());
    CHECK((*refused)["error"]["code"] == "paused_in_debugger");
    CHECK(host.running());
    CHECK(host.output().find("stopping it") == std::string::npos); // no watchdog abort

    // A breakpoint for the line the `if` moves to, the first one gone, and on.
    tmux.type("bp add at " + probe.string() + " " + std::to_string(movedLine));
    tmux.type("bp delete 0");
    tmux.type("continue");
    const auto generation = [&] {
        auto reply = client->call("status", json::object(), 5000ms);
        return reply && reply->value("ok", false) ? (*reply)["result"].value("generation", 0) : 0;
    };
    CHECK(host.output().find("watchdog: paused while a debugger is attached") != std::string::npos);

    // One reload: generation 2 swaps in, generation 1 is unloaded (sdb forgets its types and
    // re-pends the breakpoint), then the debugger rebind loads the same code again as
    // generation 3, whose types sdb takes: the breakpoint stops the new code on its line, where
    // `seen` carries the +1000 only the edited code adds. sdb also stops once a frame at the
    // method's first statement (measured, docs/MONO.md §11): such stops must be in the new
    // code's lines too (the old code had no statement there that ran), and are continued from.
    const std::string hitAgain = "Hit breakpoint at '" + probe.string() + ":";
    const std::string hitMoved = hitAgain + std::to_string(movedLine) + "'";
    std::vector<int> otherStops;
    // Waits for a stop after the `stops`-th, on the moved line. A stop on the first
    // breakpoint's line is the old code still stopping there: sdb sometimes takes the delete
    // only after a few more frames (a comment in the new code, so never a new-code stop);
    // with every frame held, the reload then needs as many continues as it has stages.
    auto nextStopOnMovedLine = [&](std::size_t stops) {
        for (int tries = 0; tries < 60; ++tries) {
            if (!waitUntil([&] { return countOf(tmux.screen(true), hitAgain) > stops; }, 60s))
                return false;
            const std::string screen = tmux.screen(true);
            stops = countOf(screen, hitAgain);
            const std::size_t at = screen.rfind(hitAgain);
            if (screen.compare(at, hitMoved.size(), hitMoved) == 0)
                return true;
            const std::size_t end = screen.find('\'', at + hitAgain.size());
            const int line =
                std::stoi(screen.substr(at + hitAgain.size(), end - at - hitAgain.size()));
            if (line != firstLine)
                otherStops.push_back(line);
            tmux.type("continue");
        }
        return false;
    };
    const std::size_t stopsBeforeReload = countOf(tmux.screen(true), hitAgain);
    fs::copy_file(dir.path() / "reloaded.cs.txt", probe, fs::copy_options::overwrite_existing);
    REQUIRE_MESSAGE(nextStopOnMovedLine(stopsBeforeReload),
                    std::string(tmux.screen(true) + "\n--- host ---\n" + host.output()));
    CHECK(generation() == 3);
    const std::optional<long> newCounter = printInSdb(tmux, "this.counter");
    const std::optional<long> newSeen = printInSdb(tmux, "seen");
    REQUIRE_MESSAGE(newCounter.has_value(), tmux.screen(true));
    REQUIRE_MESSAGE(newSeen.has_value(), tmux.screen(true));
    CHECK(*newCounter > *counter); // carried across the reload, and counting on
    CHECK(*newSeen == *newCounter * 2 + 1000);

    // Still bound once generation 2 has gone too (the rebind's unload stage runs after this
    // frame): a later frame stops on the same line, in the new code.
    const std::size_t stopsSoFar = countOf(tmux.screen(true), hitAgain);
    tmux.type("continue");
    REQUIRE_MESSAGE(nextStopOnMovedLine(stopsSoFar),
                    std::string(tmux.screen(true) + "\n--- host ---\n" + host.output()));
    const std::optional<long> laterCounter = printInSdb(tmux, "this.counter");
    const std::optional<long> laterSeen = printInSdb(tmux, "seen");
    REQUIRE_MESSAGE(laterCounter.has_value(), tmux.screen(true));
    REQUIRE_MESSAGE(laterSeen.has_value(), tmux.screen(true));
    CHECK(*laterCounter > *newCounter); // a later frame (sdb skipped a frame's stop once)
    CHECK(*laterSeen == *laterCounter * 2 + 1000);
    CHECK(generation() == 3);
    for (int line : otherStops) { // the new Update's statements before the breakpoint
        CHECK(line > firstLine);
        CHECK(line < movedLine);
    }
    // The reload's report (logged once its last stage, the rebind's unload, has run).
    CHECK_MESSAGE(waitUntil(
                      [&] {
                          return host.output().find(
                                     "debugger rebind: generation 2 loaded again as 3") !=
                                 std::string::npos;
                      },
                      30s),
                  host.output());

    // Let go: the breakpoint off, the program on, then stop the host through the socket.
    // Update hits the breakpoint every frame: until sdb has cleared it, a `continue` is held
    // again at once, and the host's answer is "paused in debugger" rather than the stop. So
    // both are typed again until the stop is served (sdb reads them at its next prompt).
    CHECK_MESSAGE(waitUntil(
                      [&] {
                          tmux.type("bp clear");
                          tmux.type("continue");
                          auto reply = client->call("stop", json::object(), 5000ms);
                          return reply && reply->value("ok", false);
                      },
                      60s),
                  tmux.screen(true));
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}
