// End-to-end tests of the daemon: the real scripthost binary with the demo game module,
// driven through its control socket (ControlClient and the real scriptctl), real files,
// real mcs and Mono. Every wait has a deadline.

#include "../support/daemon_client.hpp"

#include <boost/process.hpp>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace scripthost::testing;
using nlohmann::json;
using scripthost::control::ControlClient;
using namespace std::chrono_literals;

namespace {

const fs::path kDemoScripts = fs::path(SCRIPTHOST_SOURCE_DIR) / "demo-game" / "scripts";
const fs::path kDemoScene = fs::path(SCRIPTHOST_SOURCE_DIR) / "demo-game" / "scene.json";

fs::path copyDemoScripts(const TempDir& dir) {
    const fs::path scripts = dir.path() / "scripts";
    fs::create_directories(scripts);
    for (const auto& entry : fs::directory_iterator(kDemoScripts))
        fs::copy_file(entry.path(), scripts / entry.path().filename());
    return scripts;
}

std::vector<std::string> demoArgs(const fs::path& scripts, const fs::path& socket,
                                  std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"run",       "--headless",        "--scripts", scripts.string(),
                                  "--scene",   kDemoScene.string(), "--game",    DEMO_GAME_MODULE,
                                  "--control", socket.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

struct Scriptctl {
    int code;
    std::string out;
};

Scriptctl scriptctl(const fs::path& socket, std::vector<std::string> args) {
    namespace bp = boost::process;
    args.insert(args.begin(), {"--control", socket.string()});
    bp::ipstream out;
    bp::child child(std::string(SCRIPTCTL_EXE), bp::args(args), bp::std_in.close(),
                    (bp::std_out & bp::std_err) > out);
    std::string text, line;
    while (std::getline(out, line))
        text += line + "\n";
    child.wait();
    return {child.exit_code(), text};
}

// Edits the demo's ball so that it counts bounces twice (a one-line change, a reload).
void doubleTheBounces(const fs::path& scripts) {
    const fs::path ball = scripts / "BallScript.cs";
    std::string text = readFile(ball);
    const auto at = text.find("bounces++;");
    REQUIRE(at != std::string::npos);
    text.replace(at, 10, "bounces += 2;");
    writeFile(ball, text);
}

// The next reload's domain is made and waiting again, beside the running generation only.
bool preparedAgain(ControlClient& client) {
    const json now = callOk(client, "status");
    return now["preparedDomain"] == true && now["appDomains"] == 2;
}

void stopHost(ControlClient& client, HostProcess& host) {
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}

} // namespace

TEST_CASE("daemon: the demo under control: status, set a field, edit a script, the value stays") {
    TempDir dir("daemon-demo");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(demoArgs(scripts, socket));
    ControlClient client = connectTo(socket, host);

    // The socket is private to its owner.
    struct stat info {};
    REQUIRE(::stat(socket.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);

    const Scriptctl status = scriptctl(socket, {"--json", "status"});
    REQUIRE_MESSAGE(status.code == 0, status.out);
    const json statusJson = json::parse(status.out);
    CHECK(statusJson["generation"] == 1);
    CHECK(statusJson["gameModule"] == "demo arena");
    CHECK(statusJson["scripts"] == 6);

    const Scriptctl set = scriptctl(socket, {"set", "Spinner A", "Spinner", "speed", "123.5"});
    CHECK_MESSAGE(set.code == 0, set.out);
    CHECK(fieldValue(client, "Spinner A", "Demo.Spinner", "speed") == 123.5);

    // A wrong type is refused with the reason, and changes nothing.
    const Scriptctl bad = scriptctl(socket, {"set", "Spinner A", "Spinner", "speed", "\"fast\""});
    CHECK(bad.code == 1);
    CHECK_MESSAGE(bad.out.find("bad_value") != std::string::npos, bad.out);
    CHECK(fieldValue(client, "Spinner A", "Demo.Spinner", "speed") == 123.5);

    // In the loop's idle time the next reload's domain is made ahead: ScriptCore loaded and
    // compiled beside the running generation.
    REQUIRE(waitUntil([&] { return callOk(client, "status")["preparedDomain"] == true; }, 30s));
    CHECK(callOk(client, "status")["appDomains"] == 2);

    ControlClient events = connectTo(socket, host);
    callOk(events, "subscribe", {{"topics", {"reload"}}});

    // Edit the ball: it now counts bounces twice. The reload report arrives as an event.
    doubleTheBounces(scripts);

    const json report = nextReloadReport(events, host, 60s);
    CHECK_MESSAGE(report["success"] == true, report.dump(2));
    CHECK(report["toGeneration"] == 2);
    CHECK(report["text"].get<std::string>().find("BallScript.cs") != std::string::npos);
    CHECK(report["preparedDomain"] == true);

    // The value set at run time survived the reload; the generation moved on.
    CHECK(fieldValue(client, "Spinner A", "Demo.Spinner", "speed") == 123.5);
    CHECK(callOk(client, "status")["generation"] == 2);
    // The reload took the prepared domain; the next one is made once the old generation is
    // unloaded.
    REQUIRE(waitUntil([&] { return preparedAgain(client); }, 30s));

    stopHost(client, host);
    CHECK_FALSE(fs::exists(socket));
}

TEST_CASE("daemon: an unpaced loop (no idle time) makes the next reload's domain at a frame "
          "boundary, and a reload uses it") {
    TempDir dir("daemon-unpaced-prepared");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(demoArgs(scripts, socket, {"--fps", "0"}));
    ControlClient client = connectTo(socket, host);
    REQUIRE(waitUntil([&] { return callOk(client, "status")["preparedDomain"] == true; }, 30s));
    doubleTheBounces(scripts);
    // The report is published once the reload's last frame is measured.
    REQUIRE(waitUntil([&] { return callOk(client, "status")["lastReload"].is_object(); }, 60s));
    // Taken by that reload, and made again once the old generation is unloaded.
    const json last = callOk(client, "status")["lastReload"];
    CHECK(last["toGeneration"] == 2);
    CHECK_MESSAGE(last["preparedDomain"] == true, last.dump(2));
    REQUIRE(waitUntil([&] { return preparedAgain(client); }, 30s));
    stopHost(client, host);
}

TEST_CASE("daemon: with --no-prepared-domain no domain is made ahead") {
    TempDir dir("daemon-no-prepared");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(demoArgs(scripts, socket, {"--no-prepared-domain"}));
    ControlClient client = connectTo(socket, host);
    const std::int64_t frame = callOk(client, "status")["frame"];
    REQUIRE(waitUntil([&] { return callOk(client, "status")["frame"] >= frame + 30; }, 30s));
    const json status = callOk(client, "status");
    CHECK(status["preparedDomain"] == false);
    CHECK(status["appDomains"] == 1);
    stopHost(client, host);
}

TEST_CASE("daemon: the frames event comes once a second with the period kept and what the "
          "scripts cost") {
    TempDir dir("daemon-frames");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(demoArgs(scripts, socket));
    ControlClient client = connectTo(socket, host);
    ControlClient events = connectTo(socket, host);
    callOk(events, "subscribe", {{"topics", {"frames"}}});
    std::vector<json> seen;
    const auto started = std::chrono::steady_clock::now();
    REQUIRE_MESSAGE(waitUntil(
                        [&] {
                            auto event = events.next(500ms);
                            REQUIRE_MESSAGE(event.has_value(), errorOf(event));
                            if (*event && (**event)["event"] == "frames")
                                seen.push_back((**event)["data"]);
                            return seen.size() >= 3;
                        },
                        30s),
                    host.output());
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    CHECK(waited >=
          1.0); // three events a second apart: at least two seconds, one if the first was due
    for (const json& frames : seen) {
        CHECK(frames["frames"].get<std::int64_t>() > 0);
        CHECK(frames["frameMs"]["mean"].get<double>() > 0.0);
        CHECK(frames["frameMs"]["max"].get<double>() >= frames["frameMs"]["mean"].get<double>());
        CHECK(frames["scriptMs"]["max"].get<double>() >= frames["scriptMs"]["mean"].get<double>());
        CHECK(frames["scriptMs"]["mean"].get<double>() > 0.0);
        CHECK(frames["paused"] == false);
    }
    // Each event counts exactly the frames since the one before.
    CHECK(seen[2]["frame"].get<std::int64_t>() - seen[1]["frame"].get<std::int64_t>() ==
          seen[2]["frames"].get<std::int64_t>());
    // Not a topic before: an unknown one is still refused.
    const json refused = client.call("subscribe", {{"topics", {"framez"}}}, 10s).value();
    CHECK(refused["error"]["code"] == "bad_request");
    stopHost(client, host);
}

TEST_CASE("daemon: SIGTERM saves the state, and a restarted host comes back with its values") {
    TempDir dir("daemon-state");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    const fs::path state = dir.path() / "state" / "world.json";
    json beatsBefore;
    {
        HostProcess host(demoArgs(scripts, socket, {"--state", state.string()}));
        ControlClient client = connectTo(socket, host);
        callOk(client, "set",
               {{"entity", "Spinner B"},
                {"script", "NativeSpinner"},
                {"field", "speed"},
                {"value", -77.25}});
        callOk(client, "set",
               {{"entity", "Camera"},
                {"script", "PlayerInput"},
                {"field", "moveSpeed"},
                {"value", 9.5}});
        callOk(client, "pause"); // hold the heartbeat still so its count can be compared
        beatsBefore = fieldValue(client, "Heartbeat", "Heartbeat", "beats");
        host.signal(SIGTERM);
        CHECK_MESSAGE(host.wait(60s) == 0, host.output());
        CHECK_MESSAGE(host.output().find("(signal)") != std::string::npos, host.output());
    }
    REQUIRE(fs::exists(state));
    CHECK_FALSE(fs::exists(socket));

    HostProcess host(demoArgs(scripts, socket, {"--state", state.string()}));
    ControlClient client = connectTo(socket, host);
    // Spinner B is a native script (C++ in the demo module): saved and restored the same way.
    CHECK(fieldValue(client, "Spinner B", "NativeSpinner", "speed") == -77.25);
    CHECK(fieldValue(client, "Camera", "PlayerInput", "moveSpeed") == 9.5);
    CHECK(fieldValue(client, "Heartbeat", "Heartbeat", "beats").get<int>() >=
          beatsBefore.get<int>());
    CHECK_MESSAGE(host.output().find("restored") != std::string::npos, host.output());
    stopHost(client, host);
}

TEST_CASE("daemon: protocol errors leave the host serving the next client") {
    TempDir dir("daemon-protocol");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(demoArgs(scripts, socket));
    ControlClient client = connectTo(socket, host);

    auto garbage = client.sendRaw("this is not json", kCallTimeout);
    REQUIRE(garbage.has_value());
    CHECK((*garbage)["error"]["code"] == "bad_json");
    auto unknown = client.call("dance", json::object(), kCallTimeout);
    REQUIRE(unknown.has_value());
    CHECK((*unknown)["error"]["code"] == "unknown_command");
    auto missing = client.call("get", {{"entity", "Nobody"}, {"script", "X"}}, kCallTimeout);
    REQUIRE(missing.has_value());
    CHECK((*missing)["error"]["code"] == "not_found");
    // The same client is still served after its mistakes.
    CHECK(callOk(client, "status")["generation"] == 1);

    // Half a line, then gone.
    {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path, socket.c_str(), sizeof address.sun_path - 1);
        REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        const std::string half = "{\"cmd\":\"sta";
        CHECK(::write(fd, half.data(), half.size()) == static_cast<ssize_t>(half.size()));
        ::close(fd);
    }
    // A 2 MiB line.
    {
        ControlClient big = connectTo(socket, host);
        auto reply = big.sendRaw(
            "{\"cmd\":\"status\",\"pad\":\"" + std::string(2 << 20, 'x') + "\"}", kCallTimeout);
        if (reply.has_value())
            CHECK((*reply)["error"]["code"] == "line_too_long");
    }
    ControlClient next = connectTo(socket, host);
    const json status = callOk(next, "status");
    CHECK(status["generation"] == 1);
    CHECK(status["failures"] == 0);
    stopHost(next, host);
}

TEST_CASE("daemon: a second host on the same socket refuses, and a stale socket file is replaced") {
    TempDir dir("daemon-socket");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    {
        HostProcess first(demoArgs(scripts, socket));
        ControlClient client = connectTo(socket, first);
        HostProcess second(demoArgs(scripts, socket));
        CHECK(second.wait(60s) == 1);
        CHECK_MESSAGE(second.output().find("another scripthost is serving") != std::string::npos,
                      second.output());
        // The first is unharmed.
        CHECK(callOk(client, "status")["generation"] == 1);
        stopHost(client, first);
    }
    // A socket file left behind by a crashed host: bound, then closed without unlinking.
    {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path, socket.c_str(), sizeof address.sun_path - 1);
        REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        ::close(fd);
    }
    REQUIRE(fs::exists(socket));
    HostProcess host(demoArgs(scripts, socket));
    REQUIRE(host.waitForOutput("running ", kStartDeadline));
    ControlClient client = connectTo(socket, host);
    CHECK(callOk(client, "status")["generation"] == 1);
    stopHost(client, host);
}

TEST_CASE("daemon: a corrupt state file is moved aside and the host starts from the scene") {
    TempDir dir("daemon-corrupt");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    const fs::path state = dir.path() / "world.json";
    writeFile(state, "{\"format\": \"scripthost-scene\", \"entities\": [ truncated");
    HostProcess host(demoArgs(scripts, socket, {"--state", state.string()}));
    ControlClient client = connectTo(socket, host);
    CHECK(callOk(client, "status")["scripts"] == 6);
    CHECK_MESSAGE(host.output().find("is corrupt") != std::string::npos, host.output());
    std::vector<fs::path> aside;
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        if (entry.path().filename().string().starts_with("world.json.corrupt-"))
            aside.push_back(entry.path());
    }
    REQUIRE(aside.size() == 1);
    CHECK(readFile(aside.front()).find("truncated") != std::string::npos);
    stopHost(client, host);
    // The stop saved a fresh, valid state in its place; the corrupt one is still aside.
    CHECK(fs::exists(state));
    CHECK(json::parse(readFile(state))["entities"].size() >= 6);
    CHECK(fs::exists(aside.front()));
}

TEST_CASE("daemon: pause, step and resume") {
    TempDir dir("daemon-pause");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(demoArgs(scripts, socket));
    ControlClient client = connectTo(socket, host);
    callOk(client, "pause");
    const std::int64_t frame = callOk(client, "status")["frame"];
    CHECK(callOk(client, "status")["frame"] == frame); // paused: no frame ran between
    const json step = callOk(client, "step", {{"frames", 5}});
    CHECK(step["untilFrame"] == frame + 5);
    REQUIRE(waitUntil([&] { return callOk(client, "status")["frame"] == frame + 5; }, 20s));
    CHECK(callOk(client, "status")["paused"] == true);
    callOk(client, "resume");
    REQUIRE(waitUntil([&] { return callOk(client, "status")["frame"] > frame + 10; }, 20s));
    stopHost(client, host);
}

TEST_CASE("daemon: a save while paused is reloaded without a frame running, its report comes at "
          "once, and the values stay") {
    TempDir dir("daemon-pause-reload");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(demoArgs(scripts, socket));
    ControlClient client = connectTo(socket, host);
    ControlClient events = connectTo(socket, host);
    callOk(events, "subscribe", {{"topics", {"reload"}}});
    callOk(client, "set",
           {{"entity", "Spinner A"},
            {"script", "Demo.Spinner"},
            {"field", "speed"},
            {"value", 77.25}});
    callOk(client, "pause");
    const json before = callOk(client, "status");
    doubleTheBounces(scripts);
    const json report = nextReloadReport(events, host, 60s);
    CHECK_MESSAGE(report["success"] == true, report.dump(2));
    CHECK(report["toGeneration"] == before["generation"].get<int>() + 1);
    const json after = callOk(client, "status");
    CHECK(after["paused"] == true);
    CHECK(after["frame"] == before["frame"]); // no frame ran for it
    CHECK(after["generation"] == before["generation"].get<int>() + 1);
    CHECK(fieldValue(client, "Spinner A", "Demo.Spinner", "speed") == 77.25);
    callOk(client, "resume");
    REQUIRE(waitUntil([&] { return callOk(client, "status")["frame"] > after["frame"]; }, 20s));
    stopHost(client, host);
}

TEST_CASE("daemon: headless input comes from a replay file and from scriptctl input") {
    TempDir dir("daemon-input");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    const fs::path replay = dir.path() / "replay.jsonl";
    // Drive forward from the first frame, stop after 30 frames.
    writeFile(replay, "{\"frame\": 0, \"action\": \"MoveForward\", \"value\": 1}\n"
                      "{\"frame\": 30, \"action\": \"MoveForward\", \"value\": 0}\n");
    HostProcess host(demoArgs(scripts, socket, {"--input", replay.string()}));
    ControlClient client = connectTo(socket, host);
    auto cameraZ = [&] {
        const json entities = callOk(client, "entities");
        for (const json& e : entities["entities"]) {
            if (e["name"] == "Camera")
                return e["position"][2].get<double>();
        }
        FAIL("no Camera entity");
        return 0.0;
    };
    REQUIRE(waitUntil([&] { return callOk(client, "status")["frame"] > 40; }, 30s));
    const double afterReplay = cameraZ();
    CHECK(afterReplay > -5.0 + 1.0); // 30 frames at 4 units/s along +z, forward (tilted 45°)
    CHECK(cameraZ() == afterReplay); // released at frame 30: it stays

    const Scriptctl back = scriptctl(socket, {"input", "MoveForward", "-1"});
    CHECK_MESSAGE(back.code == 0, back.out);
    REQUIRE(waitUntil([&] { return cameraZ() < afterReplay - 0.5; }, 20s));
    stopHost(client, host);
}

TEST_CASE(
    "daemon: a config file supplies the settings, flags win, and JSON logs are one object a line") {
    TempDir dir("daemon-config");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path config = dir.path() / "scripthost.toml";
    writeFile(config, "[run]\n"
                      "scripts = [\"" +
                          scripts.string() +
                          "\"]\n"
                          "scene = \"" +
                          kDemoScene.string() +
                          "\"\n"
                          "game = \"" DEMO_GAME_MODULE "\"\n"
                          "headless = true\n"
                          "frames = 1000000\n"
                          "no-control = true\n"
                          "log-format = \"json\"\n");
    HostProcess host({"--config", config.string(), "run", "--frames", "20"});
    REQUIRE(host.wait(60s) == 0);
    const std::string out = host.output();
    CHECK_MESSAGE(out.find("stopped after 20 frames") != std::string::npos, out);
    std::istringstream lines(out);
    int parsed = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line.front() != '{')
            continue; // the compile server or Mono may print plain lines
        const json entry = json::parse(line);
        CHECK(entry.contains("time"));
        CHECK(entry.contains("level"));
        CHECK(entry["message"].is_string());
        ++parsed;
    }
    CHECK(parsed >= 3);
}

TEST_CASE("daemon: a syntax error is reported with file and line, the old code keeps running, the "
          "fix reloads") {
    TempDir dir("daemon-diagnostics");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(demoArgs(scripts, socket));
    ControlClient client = connectTo(socket, host);
    ControlClient events = connectTo(socket, host);
    callOk(events, "subscribe", {{"topics", {"reload", "diagnostics"}}});
    // scriptctl watch has subscribed once the first log line (the demo's heartbeat) comes.
    HostProcess watch(SCRIPTCTL_EXE, {"--control", socket.string(), "watch", "--logs"});
    REQUIRE_MESSAGE(waitUntil([&] { return !watch.output().empty(); }, 30s), host.output());

    auto nextEvent = [&](const std::string& topic) {
        std::optional<json> found;
        const bool arrived = waitUntil(
            [&] {
                auto event = events.next(500ms);
                if (event && *event && (**event)["event"] == topic)
                    found = (**event)["data"];
                return found.has_value();
            },
            60s);
        REQUIRE_MESSAGE(arrived, topic);
        return *found;
    };

    const fs::path spinner = scripts / "Spinner.cs";
    const std::string good = readFile(spinner);
    std::string broken = good;
    const auto at = broken.find("transform.Rotate(axis, speed * deltaTime);");
    REQUIRE(at != std::string::npos);
    broken.insert(at, "oops ");
    writeFile(spinner, broken);

    const json failed = nextEvent("reload");
    CHECK(failed["success"] == false);
    CHECK(failed["failedPhase"] == "build");
    const json diagnostics = nextEvent("diagnostics");
    REQUIRE(diagnostics["diagnostics"].size() >= 1);
    const json& first = diagnostics["diagnostics"][0];
    CHECK(first["file"].get<std::string>().ends_with("Spinner.cs"));
    const auto brokenLine = 1 + std::count(good.begin(), good.begin() + at, '\n');
    CHECK(first["line"] == brokenLine);
    CHECK(first["severity"] == "error");
    CHECK(first["code"] == "CS1525");
    CHECK(fs::path(first["file"].get<std::string>()).is_absolute());

    // status holds them until a build succeeds; scriptctl prints them as mcs does, and so does
    // scriptctl watch (with the path the compiler reported, for editors' problem matchers).
    CHECK(callOk(client, "status")["buildDiagnostics"] == diagnostics["diagnostics"]);
    const std::string located = first["file"].get<std::string>() + "(" +
                                std::to_string(first["line"].get<int>()) + "," +
                                std::to_string(first["column"].get<int>()) + "): error CS1525: ";
    const Scriptctl status = scriptctl(socket, {"status"});
    CHECK(status.code == 0);
    CHECK_MESSAGE(status.out.find("\n" + located) != std::string::npos, status.out);
    CHECK_MESSAGE(
        waitUntil([&] { return watch.output().find("\n" + located) != std::string::npos; }, 20s),
        watch.output());

    // The old generation still runs: frames advance and it is still generation 1.
    const std::int64_t frame = callOk(client, "status")["frame"];
    REQUIRE(waitUntil([&] { return callOk(client, "status")["frame"] > frame + 5; }, 20s));
    CHECK(callOk(client, "status")["generation"] == 1);

    writeFile(spinner, good);
    const json fixed = nextEvent("reload");
    CHECK(fixed["success"] == true);
    CHECK(fixed["toGeneration"] == 2);
    CHECK(nextEvent("diagnostics")["diagnostics"].empty());
    CHECK(callOk(client, "status")["buildDiagnostics"] == json::array());
    CHECK_MESSAGE(waitUntil(
                      [&] {
                          return watch.output().find("diagnostics: clean\ndiagnostics end\n") !=
                                 std::string::npos;
                      },
                      20s),
                  watch.output());
    CHECK(scriptctl(socket, {"status"}).out.find("error CS1525") == std::string::npos);
    stopHost(client, host);
}

TEST_CASE("daemon: the watchdog stops a runaway Update and the host serves on, and a script that "
          "will not stop ends the host with code 70 and its stack") {
    TempDir dir("daemon-watchdog");
    const fs::path scripts = dir.path() / "scripts";
    writeFile(scripts / "Runaway.cs",
              "using UEngine;\n"
              "public class Runaway : UMonoScriptComponent {\n"
              "  [SerializeField] bool loop;\n"
              "  public override void Update(float dt) { while (loop) { } }\n"
              "}\n");
    writeFile(scripts / "Hostage.cs",
              "using UEngine;\n"
              "public class Hostage : UMonoScriptComponent {\n"
              "  [SerializeField] bool hold;\n"
              "  public override void Update(float dt) {\n"
              "    if (!hold) return;\n"
              "    try { } finally { while (true) { } }\n" // an abort waits for the finally
              "  }\n"
              "}\n");
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host({"run", "--headless", "--scripts", scripts.string(), "--control",
                      socket.string(), "--watchdog-ms", "200", "--watchdog-grace-ms", "700",
                      "--no-supervise"}); // the exit itself is the subject, not the restart
    ControlClient client = connectTo(socket, host);

    callOk(client, "set",
           {{"entity", "Runaway"}, {"script", "Runaway"}, {"field", "loop"}, {"value", true}});
    REQUIRE_MESSAGE(host.waitForOutput("ran past the watchdog's time budget", 30s), host.output());
    CHECK_MESSAGE(host.output().find("Runaway.cs:4") != std::string::npos, host.output());
    const std::int64_t frame = callOk(client, "status")["frame"];
    REQUIRE(waitUntil([&] { return callOk(client, "status")["frame"] > frame + 10; }, 20s));

    callOk(client, "set",
           {{"entity", "Hostage"}, {"script", "Hostage"}, {"field", "hold"}, {"value", true}});
    const int code = host.wait(30s);
    CHECK_MESSAGE(code == 70, host.output());
    CHECK_MESSAGE(host.output().find("did not stop when aborted") != std::string::npos,
                  host.output());
    CHECK_MESSAGE(host.output().find("Hostage.Update") != std::string::npos, host.output());
}

TEST_CASE("daemon: coroutines lists each running coroutine with what it waits for, and "
          "entities counts them per script") {
    TempDir dir("daemon-coroutines");
    const fs::path scripts = dir.path() / "scripts";
    writeFile(scripts / "Blinker.cs", R"(using UEngine;
using System.Collections;
public class Blinker : UMonoScriptComponent {
    public override void Initialize() { StartCoroutine(Blink()); StartCoroutine(Wait()); }
    IEnumerator Blink() { while (true) yield return new WaitForSeconds(1000f); }
    IEnumerator Wait() { yield return Inner(); }
    IEnumerator Inner() { yield return new WaitUntil(() => false); }
}
)");
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(
        {"run", "--headless", "--scripts", scripts.string(), "--control", socket.string()});
    ControlClient client = connectTo(socket, host);
    const json running = callOk(client, "coroutines")["coroutines"];
    REQUIRE_MESSAGE(running.size() == 2, running.dump());
    CHECK(running[0]["class"] == "Blinker");
    CHECK(running[0]["method"] == "Blink");
    CHECK(running[0]["waitingFor"].get<std::string>().rfind("WaitForSeconds: ", 0) == 0);
    CHECK(running[1]["method"] == "Wait > Inner");
    CHECK(running[1]["waitingFor"].get<std::string>().rfind("WaitUntil", 0) == 0);
    CHECK(running[0]["script"] == running[1]["script"]);

    const json entities = callOk(client, "entities")["entities"];
    REQUIRE(entities.size() == 1);
    CHECK(entities[0]["scripts"][0]["coroutines"].size() == 2);

    const Scriptctl table = scriptctl(socket, {"coroutines"});
    CHECK(table.code == 0);
    CHECK_MESSAGE(table.out.find("Blinker") != std::string::npos, table.out);
    CHECK(table.out.find("Wait > Inner") != std::string::npos);
    stopHost(client, host);
}

TEST_CASE("daemon: a game module that crashes is named in status, and the host keeps answering "
          "and ticking") {
    TempDir dir("daemon-module-crash");
    const fs::path scripts = dir.path() / "scripts";
    writeFile(scripts / "Idle.cs", "using UEngine;\npublic class Idle : UMonoScriptComponent {}\n");
    const fs::path socket = dir.path() / "control.sock";
    ::setenv("SCRIPTHOST_TEST_CRASH_FRAME", "0", 1); // only when asked through CrashNow
    HostProcess host({"run", "--headless", "--scripts", scripts.string(), "--game",
                      CRASHING_GAME_MODULE, "--control", socket.string()});
    ::unsetenv("SCRIPTHOST_TEST_CRASH_FRAME");
    ControlClient client = connectTo(socket, host);
    const json before = callOk(client, "status");
    CHECK(before["gameModule"] == "crashing game");
    CHECK(before["gameModuleCrash"].is_null());

    callOk(client, "input", {{"action", "CrashNow"}, {"value", 1}});
    json after;
    REQUIRE_MESSAGE(waitUntil(
                        [&] {
                            after = callOk(client, "status");
                            return !after["gameModuleCrash"].is_null();
                        },
                        30s),
                    host.output());
    const std::string crash = after["gameModuleCrash"];
    CHECK_MESSAGE(crash.starts_with("system 'crasher' (before scripts): SIGSEGV (no memory at "
                                    "0x0) in crashing_game_write_through_null"),
                  crash);
    // Still ticking after the crash.
    const std::int64_t frame = after["frame"];
    CHECK(waitUntil(
        [&] { return callOk(client, "status")["frame"].get<std::int64_t>() > frame + 5; }, 30s));
    stopHost(client, host);
}

TEST_CASE("daemon: scriptctl active and parent switch an entity off and put it under another: its "
          "script stops and starts, its place in the world stays, a cycle is refused") {
    TempDir dir("daemon-hierarchy");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(demoArgs(scripts, socket));
    ControlClient client = connectTo(socket, host);
    auto entity = [&](const std::string& name) {
        const json listed =
            callOk(client, "entities"); // held: a loop over a temporary's member dangles
        for (const json& e : listed["entities"])
            if (e["name"] == name)
                return e;
        FAIL("no entity " << name);
        return json();
    };
    auto snapshotOf = [&](const std::string& name) {
        const json snapshot = callOk(client, "snapshot");
        for (const json& e : snapshot["snapshot"]["entities"])
            if (e["name"] == name)
                return e;
        FAIL("no entity " << name << " in the snapshot");
        return json();
    };
    auto framesPass = [&](int frames) {
        const std::int64_t from = callOk(client, "status")["frame"];
        REQUIRE(waitUntil([&] { return callOk(client, "status")["frame"] >= from + frames; }, 30s));
    };
    auto near = [](const json& v, std::array<double, 3> e) {
        return std::abs(v[0].get<double>() - e[0]) < 1e-4 &&
               std::abs(v[1].get<double>() - e[1]) < 1e-4 &&
               std::abs(v[2].get<double>() - e[2]) < 1e-4;
    };
    framesPass(3);

    // Off: Spinner A's Spinner stops turning it.
    const Scriptctl off = scriptctl(socket, {"active", "Spinner A", "false"});
    REQUIRE_MESSAGE(off.code == 0, off.out);
    CHECK(off.out.find("activeInHierarchy") != std::string::npos);
    CHECK(entity("Spinner A")["active"] == false);
    const json frozen = snapshotOf("Spinner A")["transform"]["rotation"];
    framesPass(5);
    CHECK(snapshotOf("Spinner A")["transform"]["rotation"] == frozen);

    // Under Spinner B, whose native script turns it about X: A sits on B's X axis, 10 units
    // away, so it stays where it is in the world while its local position is (-10, 0, 0).
    const Scriptctl moved = scriptctl(socket, {"parent", "Spinner A", "Spinner B"});
    REQUIRE_MESSAGE(moved.code == 0, moved.out);
    const json spinnerB = entity("Spinner B");
    CHECK(entity("Spinner A")["parent"] == spinnerB["id"]);
    framesPass(3);
    CHECK_MESSAGE(near(entity("Spinner A")["position"], {-5, 1, 4}), entity("Spinner A").dump());
    CHECK_MESSAGE(near(snapshotOf("Spinner A")["transform"]["position"], {-10, 0, 0}),
                  snapshotOf("Spinner A").dump());
    // Its local rotation is its own script's alone to change.
    const json underB = snapshotOf("Spinner A")["transform"]["rotation"];

    const Scriptctl cycle = scriptctl(socket, {"parent", "Spinner B", "Spinner A"});
    CHECK(cycle.code == 1);
    CHECK_MESSAGE(cycle.out.find("the parent lies below it") != std::string::npos, cycle.out);
    auto notBool = client.call("active", {{"entity", "Spinner A"}, {"value", "yes"}}, kCallTimeout);
    REQUIRE(notBool.has_value());
    CHECK((*notBool)["error"]["code"] == "bad_request");

    // On again, but under a parent switched off: still inactive in the hierarchy. Spinner B's
    // native script stops too.
    REQUIRE(scriptctl(socket, {"active", "Spinner B", "false"}).code == 0);
    const json frozenB = snapshotOf("Spinner B")["transform"]["rotation"];
    const json on = callOk(client, "active", {{"entity", "Spinner A"}, {"value", true}});
    CHECK(on["active"] == true);
    CHECK(on["activeInHierarchy"] == false);
    framesPass(3);
    CHECK(snapshotOf("Spinner A")["transform"]["rotation"] == underB);
    CHECK(snapshotOf("Spinner B")["transform"]["rotation"] == frozenB);

    // Back to a root: it turns again.
    const Scriptctl root = scriptctl(socket, {"parent", "Spinner A", "none"});
    REQUIRE_MESSAGE(root.code == 0, root.out);
    CHECK(entity("Spinner A")["parent"].is_null());
    const json asRoot = snapshotOf("Spinner A")["transform"]["rotation"];
    REQUIRE(
        waitUntil([&] { return snapshotOf("Spinner A")["transform"]["rotation"] != asRoot; }, 30s));
    stopHost(client, host);
}
