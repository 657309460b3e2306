// scriptctl end to end: the real binary against a ControlServer whose "main thread" is the
// test.
#include "support/control_test_support.hpp"

#include <boost/process.hpp>
#include <csignal>
#include <mutex>
#include <regex>

using namespace scripthost::control;
using namespace scripthost::control::test;
using nlohmann::json;
namespace bp = boost::process;

namespace {

/// A running scriptctl whose stdout and stderr are collected separately on reader threads.
class ScriptctlProcess {
public:
    explicit ScriptctlProcess(std::vector<std::string> args,
                              bp::environment env = boost::this_process::environment())
        : child_(std::string(SCRIPTCTL_EXE), bp::args(std::move(args)), bp::std_in.close(),
                 bp::std_out > outPipe_, bp::std_err > errPipe_, env) {
        outReader_ = std::thread([this] { collect(outPipe_, out_); });
        errReader_ = std::thread([this] { collect(errPipe_, err_); });
    }
    ~ScriptctlProcess() {
        if (child_.running())
            child_.terminate();
        join();
    }
    ScriptctlProcess(const ScriptctlProcess&) = delete;
    ScriptctlProcess& operator=(const ScriptctlProcess&) = delete;

    /// The exit code, or -1 when it did not exit within `timeout` (then it is killed).
    int wait(std::chrono::milliseconds timeout = 20s) {
        // Not child::wait_for: in Boost 1.74 it can sleep out its whole timeout when SIGCHLD
        // lands on another thread. running() reaps with WNOHANG.
        std::error_code error;
        if (!waitUntil([&] { return !child_.running(error); }, timeout)) {
            child_.terminate();
            join();
            return -1;
        }
        join();
        return child_.exit_code();
    }
    std::string out() {
        std::lock_guard lock(mutex_);
        return out_;
    }
    std::string err() {
        std::lock_guard lock(mutex_);
        return err_;
    }
    void signal(int number) { ::kill(child_.id(), number); }

private:
    void collect(bp::ipstream& pipe, std::string& text) {
        std::string line;
        while (std::getline(pipe, line)) {
            std::lock_guard lock(mutex_);
            text += line + "\n";
        }
    }
    void join() {
        if (outReader_.joinable())
            outReader_.join();
        if (errReader_.joinable())
            errReader_.join();
    }

    bp::ipstream outPipe_;
    bp::ipstream errPipe_;
    bp::child child_;
    std::mutex mutex_;
    std::string out_;
    std::string err_;
    std::thread outReader_;
    std::thread errReader_;
};

const json kStatus = json::parse(R"({"generation":3,"uptimeSeconds":3723.5,"frame":1200,
    "fps":59.94,"paused":false,"entities":5,"scripts":6,"failures":0,
    "lastReload":{"success":true,"timings":{"totalMs":250.04,"frameStallMs":12.5}}})");

/// A failed build's diagnostics as the host sends them: one located, one not.
const json kBuildDiagnostics = json::parse(R"([
    {"file": "/g/scripts/Game.cs", "line": 13, "column": 62, "severity": "error",
     "code": "CS1525", "message": "Unexpected symbol `}'"},
    {"file": "", "line": 0, "column": 0, "severity": "error", "code": "CS2001",
     "message": "Source file `Gone.cs' could not be found"}])");

/// Answers the one request scriptctl sends with `answer`, after checking its command.
Request answerOne(ControlServer& server, const std::string& cmd,
                  const std::function<void(const Request&)>& answer) {
    Request request = takeOneRequest(server);
    CHECK(request.cmd == cmd);
    answer(request);
    return request;
}

} // namespace

TEST_CASE("scriptctl: --json status prints the result object and exits 0") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "--json", "status"});
    answerOne(*server, "status", [&](const Request& request) {
        server->replyOk(request.client, request.id, kStatus);
    });
    CHECK(ctl.wait() == 0);
    CHECK(json::parse(ctl.out()) == kStatus);
    CHECK(ctl.err().empty());
}

TEST_CASE("scriptctl: --json and --control are accepted after the command too") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"status", "--json", "--control", server->path().string()});
    answerOne(*server, "status", [&](const Request& request) {
        server->replyOk(request.client, request.id, kStatus);
    });
    CHECK(ctl.wait() == 0);
    CHECK(json::parse(ctl.out()) == kStatus);
    CHECK(ctl.err().empty());
}

TEST_CASE("scriptctl: status prints aligned key: value lines with the last reload's timings") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "status"});
    answerOne(*server, "status", [&](const Request& request) {
        server->replyOk(request.client, request.id, kStatus);
    });
    CHECK(ctl.wait() == 0);
    const std::string out = ctl.out();
    CHECK(out.find("generation:  3\n") != std::string::npos);
    CHECK(out.find("uptime:      1h 02m 03s\n") != std::string::npos);
    CHECK(out.find("fps:         59.9\n") != std::string::npos);
    CHECK(out.find("paused:      no\n") != std::string::npos);
    CHECK(out.find("last reload: ok, stall 12.5 ms, total 250.0 ms\n") != std::string::npos);
}

TEST_CASE("scriptctl: status prints a failed build's diagnostics the way mcs does") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "status"});
    json status = kStatus;
    status["buildDiagnostics"] = kBuildDiagnostics;
    answerOne(*server, "status",
              [&](const Request& request) { server->replyOk(request.client, request.id, status); });
    CHECK(ctl.wait() == 0);
    const std::string out = ctl.out();
    CHECK_MESSAGE(out.find("build failed: 2 errors\n"
                           "/g/scripts/Game.cs(13,62): error CS1525: Unexpected symbol `}'\n"
                           "error CS2001: Source file `Gone.cs' could not be found\n") !=
                      std::string::npos,
                  out);
}

TEST_CASE("scriptctl: status after a successful build prints no diagnostics") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "status"});
    json status = kStatus;
    status["buildDiagnostics"] = json::array();
    answerOne(*server, "status",
              [&](const Request& request) { server->replyOk(request.client, request.id, status); });
    CHECK(ctl.wait() == 0);
    CHECK(ctl.out().find("generation:") != std::string::npos);
    CHECK(ctl.out().find("build failed") == std::string::npos);
    CHECK(ctl.out().find("error") == std::string::npos);
}

TEST_CASE("scriptctl: status names the game module's build, its crash and its last reload") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "status"});
    json status = kStatus;
    status["gameModule"] = "probe";
    status["gameModuleGeneration"] = 2;
    status["gameModuleCrash"] = "system 'count' (before scripts): SIGSEGV (no memory at 0x0) in "
                                "step+0x14 (libprobe.3.so)";
    status["lastModuleReload"] = {{"outcome", "rolled back"},
                                  {"generation", 2},
                                  {"stateCarried", false},
                                  {"ms", 0.4},
                                  {"text", "module build 3 crashed; build 2 is running again"}};
    answerOne(*server, "status",
              [&](const Request& request) { server->replyOk(request.client, request.id, status); });
    CHECK(ctl.wait() == 0);
    const std::string out = ctl.out();
    CHECK_MESSAGE(out.find("probe, build 2, crashed: system 'count' (before scripts): SIGSEGV") !=
                      std::string::npos,
                  out);
    CHECK_MESSAGE(out.find("rolled back: module build 3 crashed; build 2 is running again") !=
                      std::string::npos,
                  out);
}

TEST_CASE("scriptctl: no host means exit code 3 and a message naming the socket") {
    TempDir dir("control");
    const auto path = dir / "absent.sock";
    ScriptctlProcess ctl({"--control", path.string(), "status"});
    CHECK(ctl.wait() == 3);
    CHECK(ctl.out().empty());
    CHECK(ctl.err().find("scriptctl: no host at " + path.string()) != std::string::npos);
}

TEST_CASE("scriptctl: SCRIPTHOST_CONTROL chooses the socket when --control is absent") {
    TempDir dir("control");
    auto server = openServer(dir / "env.sock");
    auto env = boost::this_process::environment();
    env["SCRIPTHOST_CONTROL"] = server->path().string();
    ScriptctlProcess ctl({"--json", "pause"}, env);
    answerOne(*server, "pause", [&](const Request& request) {
        server->replyOk(request.client, request.id, {{"paused", true}});
    });
    CHECK(ctl.wait() == 0);
    CHECK(json::parse(ctl.out()) == json{{"paused", true}});
}

TEST_CASE("scriptctl: an error reply exits 1 with code and message on stderr") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "get", "Player", "Mover", "speed"});
    const Request request = answerOne(*server, "get", [&](const Request& r) {
        server->replyError(r.client, r.id, error_code::notFound, "no entity 'Player'");
    });
    CHECK(request.body["entity"] == "Player");
    CHECK(request.body["script"] == "Mover");
    CHECK(request.body["field"] == "speed");
    CHECK(ctl.wait() == 1);
    CHECK(ctl.err() == "scriptctl: not_found: no entity 'Player'\n");
}

TEST_CASE("scriptctl: set sends VALUE as JSON when it parses, else as a string") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    const std::vector<std::pair<std::string, json>> cases = {{"3.5", 3.5},
                                                             {"-2", -2},
                                                             {"\"text\"", "text"},
                                                             {"Bob", "Bob"},
                                                             {"[1,2,3]", json{1, 2, 3}},
                                                             {"{\"x\":1}", json{{"x", 1}}},
                                                             {"true", true}};
    for (const auto& [argument, expected] : cases) {
        CAPTURE(argument);
        ScriptctlProcess ctl(
            {"--control", server->path().string(), "set", "Player", "Mover", "speed", argument});
        const Request request = answerOne(*server, "set", [&](const Request& r) {
            server->replyOk(r.client, r.id, {{"value", r.body["value"]}});
        });
        CHECK(request.body["value"] == expected);
        CHECK(ctl.wait() == 0);
        CHECK(ctl.out().find("Player.Mover.speed = ") == 0);
    }
}

TEST_CASE("scriptctl: step sends frames, 1 by default") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    for (const auto& [args, frames] :
         std::vector<std::pair<std::vector<std::string>, int>>{{{"step"}, 1}, {{"step", "5"}, 5}}) {
        std::vector<std::string> argv{"--control", server->path().string(), "--json"};
        argv.insert(argv.end(), args.begin(), args.end());
        ScriptctlProcess ctl(argv);
        const Request request = answerOne(*server, "step", [&](const Request& r) {
            server->replyOk(r.client, r.id, {{"frame", 100 + r.body["frames"].get<int>()}});
        });
        CHECK(request.body["frames"] == frames);
        CHECK(ctl.wait() == 0);
        CHECK(json::parse(ctl.out()) == json{{"frame", 100 + frames}});
    }
}

TEST_CASE("scriptctl: a failed reload prints the report's errors and exits 1") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "reload"});
    answerOne(*server, "reload", [&](const Request& r) {
        server->replyError(r.client, r.id, error_code::reloadFailed, "the reload was rolled back",
                           {{"report",
                             {{"sequence", 4},
                              {"success", false},
                              {"failedPhase", "build"},
                              {"errors", {"Mover.cs(3,1): error CS1525: Unexpected symbol"}},
                              {"timings", {{"totalMs", 0.0}, {"frameStallMs", 0.0}}}}}});
    });
    CHECK(ctl.wait() == 1);
    CHECK(ctl.out().find("reload #4: rolled back (build)") != std::string::npos);
    CHECK(ctl.out().find("error: Mover.cs(3,1): error CS1525: Unexpected symbol") !=
          std::string::npos);
    CHECK(ctl.err() == "scriptctl: reload_failed: the reload was rolled back\n");
}

TEST_CASE("scriptctl: reload prints what happened to each coroutine and delegate") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "reload"});
    answerOne(*server, "reload", [&](const Request& r) {
        server->replyOk(r.client, r.id,
                        {{"sequence", 5},
                         {"success", true},
                         {"fromGeneration", 2},
                         {"toGeneration", 3},
                         {"restored", 2},
                         {"timings", {{"totalMs", 3.5}, {"frameStallMs", 1.0}}},
                         {"coroutines",
                          {{{"script", 4294967297},
                            {"class", "Counter"},
                            {"method", "Count"},
                            {"outcome", "resumed"},
                            {"reason", "its code is unchanged"}},
                           {{"script", 4294967297},
                            {"class", "Counter"},
                            {"method", "Blink"},
                            {"outcome", "stopped"},
                            {"reason", "[StopOnEdit]"}}}},
                         {"delegates",
                          {{{"script", 4294967298},
                            {"class", "Publisher"},
                            {"field", "Hit"},
                            {"target", "Subscriber.OnHit on #2:1"},
                            {"outcome", "rebound"},
                            {"reason", ""}},
                           {{"script", 4294967298},
                            {"class", "Publisher"},
                            {"field", "Hit"},
                            {"target", "Subscriber.<Initialize>m__0 on #2:1"},
                            {"outcome", "dropped"},
                            {"reason", "the lambda's code changed"}}}}});
    });
    CHECK(ctl.wait() == 0);
    const std::string out = ctl.out();
    CHECK_MESSAGE(out.find("coroutine Counter.Count: resumed (its code is unchanged)") !=
                      std::string::npos,
                  out);
    CHECK(out.find("coroutine Counter.Blink: stopped ([StopOnEdit])") != std::string::npos);
    CHECK(out.find("delegate Publisher.Hit -> Subscriber.OnHit on #2:1: rebound\n") !=
          std::string::npos);
    CHECK(out.find("delegate Publisher.Hit -> Subscriber.<Initialize>m__0 on #2:1: dropped (the "
                   "lambda's code changed)") != std::string::npos);
}

TEST_CASE("scriptctl: a host that never answers is a timeout, exit 3") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "--timeout", "0.3", "entities"});
    CHECK(ctl.wait() == 3);
    CHECK(ctl.err().find("timed out") != std::string::npos);
    CHECK(ctl.err().find(server->path().string()) != std::string::npos);
}

TEST_CASE("scriptctl: watch --json prints events until interrupted, then exits 0") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "--json", "watch", "--logs"});
    const Request request = answerOne(*server, "subscribe", [&](const Request& r) {
        server->subscribe(r.client, r.body["topics"].get<std::vector<std::string>>());
        server->replyOk(r.client, r.id, {{"topics", r.body["topics"]}});
    });
    CHECK(request.body["topics"] ==
          json{"reload", "diagnostics", "module", "moduleBuild", "crashed", "log"});
    server->publish("reload", {{"sequence", 1}, {"success", true}});
    server->publish("log", {{"level", "info"}, {"message", "hello"}, {"time", 0}});
    REQUIRE(waitUntil([&] { return ctl.out().find("hello") != std::string::npos; }));
    ctl.signal(SIGINT);
    CHECK(ctl.wait() == 0);
    CHECK(ctl.out() == "{\"data\":{\"sequence\":1,\"success\":true},\"event\":\"reload\"}\n"
                       "{\"data\":{\"level\":\"info\",\"message\":\"hello\",\"time\":0},"
                       "\"event\":\"log\"}\n");
}

TEST_CASE("scriptctl: watch prints each build's diagnostics as lines VS Code's $msCompile "
          "matcher reads, framed by begin and end lines") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "watch"});
    answerOne(*server, "subscribe", [&](const Request& r) {
        server->subscribe(r.client, r.body["topics"].get<std::vector<std::string>>());
        server->replyOk(r.client, r.id, {{"topics", r.body["topics"]}});
    });
    server->publish("diagnostics", {{"generation", 1}, {"diagnostics", kBuildDiagnostics}});
    server->publish("diagnostics", {{"generation", 2}, {"diagnostics", json::array()}});
    REQUIRE(waitUntil([&] { return ctl.out().find("clean") != std::string::npos; }));
    ctl.signal(SIGINT);
    CHECK(ctl.wait() == 0);
    CHECK(ctl.out() == "diagnostics: 2 errors\n"
                       "/g/scripts/Game.cs(13,62): error CS1525: Unexpected symbol `}'\n"
                       "error CS2001: Source file `Gone.cs' could not be found\n"
                       "diagnostics end\n"
                       "diagnostics: clean\n"
                       "diagnostics end\n");

    // VS Code's $msCompile pattern (src/vs/workbench/contrib/tasks/common/problemMatcher.ts)
    // finds the located line with its file, location, severity, code and message.
    const std::regex msCompile(R"(^(?:\s*\d+>)?(\S.*)\((\d+|\d+,\d+|\d+,\d+,\d+,\d+)\)\s*:\s+)"
                               R"(((?:fatal +)?error|warning|info)\s+(\w+\d+)\s*:\s*(.*)$)");
    std::smatch match;
    const std::string line = "/g/scripts/Game.cs(13,62): error CS1525: Unexpected symbol `}'";
    REQUIRE(std::regex_match(line, match, msCompile));
    CHECK(match[1] == "/g/scripts/Game.cs");
    CHECK(match[2] == "13,62");
    CHECK(match[3] == "error");
    CHECK(match[4] == "CS1525");
    CHECK(match[5] == "Unexpected symbol `}'");
}

TEST_CASE("scriptctl: watch prints each module build: ok with its time - failed with its exit "
          "code and the end of its output") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "watch"});
    answerOne(*server, "subscribe", [&](const Request& r) {
        server->subscribe(r.client, r.body["topics"].get<std::vector<std::string>>());
        server->replyOk(r.client, r.id, {{"topics", r.body["topics"]}});
    });
    server->publish("moduleBuild", {{"success", true},
                                    {"exitCode", 0},
                                    {"milliseconds", 812.4},
                                    {"trigger", {"spinner.cpp"}},
                                    {"outputTail", "[100%] Built target demo_game\n"}});
    server->publish("moduleBuild", {{"success", false},
                                    {"exitCode", 2},
                                    {"milliseconds", 400.0},
                                    {"trigger", {"spinner.cpp"}},
                                    {"outputTail", "spinner.cpp:3:1: error: expected ';'\n"}});
    REQUIRE(waitUntil([&] { return ctl.out().find("expected ';'") != std::string::npos; }));
    ctl.signal(SIGINT);
    CHECK(ctl.wait() == 0);
    CHECK(ctl.out() == "module build ok in 812 ms\n"
                       "module build failed (exit code 2) in 400 ms\n"
                       "spinner.cpp:3:1: error: expected ';'\n");
}

TEST_CASE("scriptctl: watch exits 3 when the host goes away") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    const auto path = server->path();
    ScriptctlProcess ctl({"--control", path.string(), "watch"});
    answerOne(*server, "subscribe", [&](const Request& r) {
        server->subscribe(r.client, r.body["topics"].get<std::vector<std::string>>());
        server->replyOk(r.client, r.id, {{"topics", r.body["topics"]}});
    });
    server->publish("reload", {{"sequence", 7}, {"success", true}, {"text", "reload 7: ok"}});
    REQUIRE(waitUntil([&] { return ctl.out().find("reload 7: ok") != std::string::npos; }));
    server.reset();
    CHECK(ctl.wait() == 3);
    CHECK(ctl.err().find("closed the connection") != std::string::npos);
}

TEST_CASE("scriptctl: raw sends the line as it is and prints the reply") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "raw", "{oops"});
    CHECK(ctl.wait() == 1);
    const json reply = json::parse(ctl.out());
    CHECK(reply["error"]["code"] == "bad_json");
}

TEST_CASE("scriptctl: a usage error exits 2") {
    ScriptctlProcess ctl({"get"});
    CHECK(ctl.wait() == 2);
    CHECK_FALSE(ctl.err().empty());
}

TEST_CASE("scriptctl: entities prints a table with scripts and components") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "entities"});
    answerOne(*server, "entities", [&](const Request& r) {
        server->replyOk(r.client, r.id, json::parse(R"({"entities":[
            {"id":"e1v1","name":"Player","scripts":[{"id":"e2v1","class":"Mover","enabled":true,
             "parked":false},{"id":"e3v1","class":"Gone","enabled":true,"parked":true}],
             "components":[{"id":"e4v1","type":"Transform"}]},
            {"id":12,"name":"Camera","scripts":[],"components":[]}]})"));
    });
    CHECK(ctl.wait() == 0);
    CHECK(ctl.out() == "ID    NAME    SCRIPTS               COMPONENTS\n"
                       "e1v1  Player  Mover, Gone (parked)  Transform\n"
                       "12    Camera  -                     -\n");
}

TEST_CASE("scriptctl: get without FIELD prints every field with its type") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "get", "Player", "Mover"});
    const Request request = answerOne(*server, "get", [&](const Request& r) {
        server->replyOk(r.client, r.id, json::parse(R"({"value":{"speed":3.5,"label":"fast",
            "offset":[1,2,3]},"type":{"speed":"float","label":"string","offset":"vector3"}})"));
    });
    CHECK_FALSE(request.body.contains("field"));
    CHECK(ctl.wait() == 0);
    CHECK(ctl.out() == "label:  fast (string)\n"
                       "offset: [1,2,3] (vector3)\n"
                       "speed:  3.5 (float)\n");
}

TEST_CASE("scriptctl: coroutines prints a table of entity, script, coroutine and wait") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    ScriptctlProcess ctl({"--control", server->path().string(), "coroutines"});
    answerOne(*server, "coroutines", [&](const Request& r) {
        server->replyOk(r.client, r.id, json::parse(R"({"coroutines":[
            {"entity":"Player","script":"2:1","class":"Mover","method":"Blink",
             "waitingFor":"WaitForSeconds: 0.25 s left"},
            {"entity":"Door","script":"5:1","class":"Opener","method":"Open > Slide",
             "waitingFor":"next frame"}]})"));
    });
    CHECK(ctl.wait() == 0);
    CHECK(ctl.out() == "ENTITY  SCRIPT      COROUTINE     WAITING FOR\n"
                       "Player  Mover 2:1   Blink         WaitForSeconds: 0.25 s left\n"
                       "Door    Opener 5:1  Open > Slide  next frame\n");
}
