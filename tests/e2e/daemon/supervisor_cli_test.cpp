// `scripthost run` restarts itself after a crash (host/app/src/supervisor.hpp): the real binary,
// real signals, the real control socket, the project's state file.
#include "../support/daemon_client.hpp"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace scripthost;
using namespace scripthost::testing;
using scripthost::control::ControlClient;
namespace fs = std::filesystem;

namespace {

constexpr auto kRestartDeadline = std::chrono::seconds(90);

const char* kKeeper = "using UEngine;\n"
                      "public class Keeper : UMonoScriptComponent {\n"
                      "  [SerializeField] int kept;\n"
                      "  [SerializeField] int ticks;\n"
                      "  public override void Update(float dt) { ticks += 1; }\n"
                      "}\n";

/// A project folder with a config file, as `scripthost new` makes one: its state lives in
/// .scripthost/ beside the config.
struct Project {
    TempDir dir{"supervisor"};
    fs::path socket = dir.path() / "control.sock";
    Project() {
        writeFile(dir.path() / "scripts" / "Keeper.cs", kKeeper);
        writeFile(dir.path() / "scripthost.toml",
                  "[run]\nscripts = [\"scripts\"]\nheadless = true\nstate-interval = 0.2\n");
    }
    [[nodiscard]] std::vector<std::string> args(std::vector<std::string> extra = {}) const {
        std::vector<std::string> a{"run", "--control", socket.string(), "--cold-compiler"};
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    }
};

/// Status from whatever host serves the socket now, or null while none does.
nlohmann::json statusNow(const fs::path& socket) {
    auto status =
        control::ControlClient::request(socket, "status", nlohmann::json::object(),
                                        std::chrono::milliseconds(500), std::chrono::seconds(5));
    return status ? *status : nlohmann::json();
}

/// Waits for a host whose status says `restarts`; returns its status.
nlohmann::json waitForRestart(const fs::path& socket, HostProcess& host, int restarts) {
    nlohmann::json status;
    const bool up = waitUntil(
        [&] {
            status = statusNow(socket);
            return !host.running() ||
                   (status.is_object() && status.value("restarts", -1) == restarts);
        },
        kRestartDeadline);
    REQUIRE_MESSAGE(up, host.output());
    REQUIRE_MESSAGE(status.is_object(), host.output());
    return status;
}

/// Sets Keeper.kept and waits until the state file holds it.
void keep(control::ControlClient& client, const fs::path& stateFile, int value) {
    callOk(client, "set",
           {{"entity", "Keeper"}, {"script", "Keeper"}, {"field", "kept"}, {"value", value}});
    const std::string needle = "\"kept\": " + std::to_string(value);
    REQUIRE(waitUntil(
        [&] {
            std::ifstream in(stateFile);
            std::stringstream text;
            text << in.rdbuf();
            return text.str().find(needle) != std::string::npos;
        },
        30s));
}

/// Waits until the host's last reload is one that failed (the scripts on disk are broken).
void waitForFailedReload(control::ControlClient& client) {
    REQUIRE(waitUntil(
        [&] {
            const nlohmann::json s = callOk(client, "status");
            return s["lastReload"].is_object() && s["lastReload"]["success"] == false;
        },
        60s));
}

} // namespace

TEST_CASE("supervisor: a host killed with SIGSEGV, then SIGABRT, runs again with the values of "
          "its last save, and says so on the control socket and in the log") {
    Project project;
    HostProcess host(project.args(), project.dir.path());
    ControlClient client = connectTo(project.socket, host);
    nlohmann::json status = callOk(client, "status");
    CHECK(status["restarts"] == 0);
    const fs::path stateFile = status["stateFile"].get<std::string>();
    CHECK(stateFile == project.dir.path() / ".scripthost" / "state.json");
    keep(client, stateFile, 4242);

    ::kill(status["pid"].get<int>(), SIGSEGV);
    status = waitForRestart(project.socket, host, 1);
    CHECK(status["pid"] != nullptr);
    CHECK(status["lastCrash"]["restarts"] == 1);
    CHECK_MESSAGE(
        status["lastCrash"]["description"].get<std::string>().starts_with("killed by SIG"),
        status.dump());
    ControlClient again = connectTo(project.socket, host);
    CHECK(fieldValue(again, "Keeper", "Keeper", "kept") == 4242);
    CHECK_MESSAGE(host.output().find("the host crashed: killed by SIG") != std::string::npos,
                  host.output());
    CHECK_MESSAGE(host.output().find("restart 1") != std::string::npos, host.output());

    keep(again, stateFile, 777);
    ::kill(status["pid"].get<int>(), SIGABRT);
    status = waitForRestart(project.socket, host, 2);
    ControlClient third = connectTo(project.socket, host);
    CHECK(fieldValue(third, "Keeper", "Keeper", "kept") == 777);
    const std::string description = status["lastCrash"]["description"];
    CHECK_MESSAGE(description.starts_with("killed by SIGABRT"), status.dump());

    // A stop request still stops it for good, with the host's own exit code.
    callOk(third, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}

TEST_CASE("supervisor: a host that crashes while the scripts on disk do not build, or their "
          "constructor throws, comes back running the code it ran, with its values") {
    Project project;
    HostProcess host(project.args(), project.dir.path());
    ControlClient client = connectTo(project.socket, host);
    nlohmann::json status = callOk(client, "status");
    const fs::path stateFile = status["stateFile"].get<std::string>();
    keep(client, stateFile, 5150);
    std::string broken;
    SUBCASE("a syntax error") {
        broken = "using UEngine;\npublic class Keeper : UMonoScriptComponent {\n"
                 "  [SerializeField] int kept;\n  [SerializeField] int ticks;\n"
                 "  public override void Update(float dt) { ticks += 1 }\n}\n";
    }
    SUBCASE("a throwing constructor") {
        broken = "using UEngine;\npublic class Keeper : UMonoScriptComponent {\n"
                 "  [SerializeField] int kept;\n  [SerializeField] int ticks;\n"
                 "  public Keeper() { throw new System.Exception(\"no\"); }\n}\n";
    }
    writeFile(project.dir.path() / "scripts" / "Keeper.cs", broken);
    waitForFailedReload(client);
    ::kill(status["pid"].get<int>(), SIGSEGV);
    status = waitForRestart(project.socket, host, 1);
    ControlClient again = connectTo(project.socket, host);
    CHECK(fieldValue(again, "Keeper", "Keeper", "kept") == 5150);
    // The restarted host rebuilt the folders: that reload failed as before, and the code it
    // ran at the crash runs on (its Update still counts).
    REQUIRE(waitUntil(
        [&] {
            const nlohmann::json s = callOk(again, "status");
            return s["lastReload"].is_object() && !s["reloadBusy"].get<bool>();
        },
        60s));
    status = callOk(again, "status");
    CHECK(status["lastReload"]["success"] == false);
    const auto ticks = fieldValue(again, "Keeper", "Keeper", "ticks").get<std::int64_t>();
    CHECK(waitUntil([&] { return fieldValue(again, "Keeper", "Keeper", "ticks") > ticks; }, 30s));
    CHECK_MESSAGE(host.output().find("running the code that ran before the crash") !=
                      std::string::npos,
                  host.output());
    callOk(again, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}

TEST_CASE("supervisor: a project of assemblies by folder and a plugin comes back running the "
          "assemblies it ran, with its values, while its scripts do not build") {
    Project project;
    writeFile(project.dir.path() / "scripts" / "Rules" / "Rules.asmdef", R"({"name": "Rules"})");
    writeFile(project.dir.path() / "scripts" / "Rules" / "Step.cs",
              "namespace Rules { public static class Step { public static int By() { return 1; } "
              "} }\n");
    // A plugin, built with the real mcs outside the scripts folder and put in it.
    const fs::path easeSource = project.dir.path() / "plugin" / "Ease.cs";
    writeFile(easeSource, "namespace Tween { public static class Ease { public static int One() "
                          "{ return 1; } } }\n");
    const fs::path tween = project.dir.path() / "scripts" / "Plugins" / "Tween.dll";
    fs::create_directories(tween.parent_path());
    const std::string mcs =
        "mcs -nologo -target:library -out:" + tween.string() + " " + easeSource.string();
    REQUIRE(std::system(mcs.c_str()) == 0);
    writeFile(project.dir.path() / "scripts" / "Keeper.cs",
              "using UEngine;\npublic class Keeper : UMonoScriptComponent {\n"
              "  [SerializeField] int kept;\n  [SerializeField] int ticks;\n"
              "  public override void Update(float dt) { ticks += Rules.Step.By() * "
              "Tween.Ease.One(); }\n}\n");
    HostProcess host(project.args(), project.dir.path());
    ControlClient client = connectTo(project.socket, host);
    nlohmann::json status = callOk(client, "status");
    const fs::path stateFile = status["stateFile"].get<std::string>();
    keep(client, stateFile, 6160);
    writeFile(project.dir.path() / "scripts" / "Keeper.cs", "public class Keeper { broken\n");
    waitForFailedReload(client);
    ::kill(status["pid"].get<int>(), SIGSEGV);
    (void)waitForRestart(project.socket, host, 1);
    ControlClient again = connectTo(project.socket, host);
    CHECK(fieldValue(again, "Keeper", "Keeper", "kept") == 6160);
    const auto ticks = fieldValue(again, "Keeper", "Keeper", "ticks").get<std::int64_t>();
    CHECK(waitUntil([&] { return fieldValue(again, "Keeper", "Keeper", "ticks") > ticks; }, 30s));
    const std::string output = host.output();
    const auto resumed = output.find("running the code that ran before the crash");
    REQUIRE_MESSAGE(resumed != std::string::npos, output);
    const std::string line = output.substr(resumed, output.find('\n', resumed) - resumed);
    CHECK_MESSAGE(line.find("Rules.dll") != std::string::npos, line);
    CHECK_MESSAGE(line.find("Tween.dll") != std::string::npos, line);
    CHECK_MESSAGE(line.find("Scripts.dll") != std::string::npos, line);
    callOk(again, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}

TEST_CASE("supervisor: scriptctl watch stays connected through a crash and prints it") {
    Project project;
    HostProcess host(project.args(), project.dir.path());
    ControlClient client = connectTo(project.socket, host);
    const nlohmann::json status = callOk(client, "status");
    HostProcess watch(SCRIPTCTL_EXE, {"--control", project.socket.string(), "watch"});
    // Subscribed once a save's reload shows (a save before it subscribed shows nothing).
    int saves = 0;
    const bool subscribed = waitUntil(
        [&] {
            writeFile(project.dir.path() / "scripts" / "Keeper.cs",
                      std::string(kKeeper) + "// save " + std::to_string(++saves) + "\n");
            return watch.waitForOutput("reload", 10s);
        },
        90s);
    REQUIRE_MESSAGE(subscribed, watch.output());
    ::kill(status["pid"].get<int>(), SIGKILL);
    REQUIRE_MESSAGE(watch.waitForOutput("reconnected", 90s), (watch.output() + host.output()));
    CHECK_MESSAGE(watch.waitForOutput("host crashed: killed by SIGKILL (restart 1)", 30s),
                  watch.output());
    CHECK(watch.running()); // still watching the restarted host
    ControlClient again = connectTo(project.socket, host);
    callOk(again, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
    CHECK(watch.wait(30s) == 3); // the host stopped for good: its socket is gone
}

TEST_CASE("supervisor: a crash loop stops after 3 crashes within 60 s, and says why") {
    Project project;
    HostProcess host(project.args(), project.dir.path());
    ControlClient client = connectTo(project.socket, host);
    for (int restarts = 0; restarts < 3; ++restarts) {
        const nlohmann::json status = waitForRestart(project.socket, host, restarts);
        ::kill(status["pid"].get<int>(), SIGKILL);
    }
    const int code = host.wait(60s);
    CHECK_MESSAGE(code == 128 + SIGKILL, host.output());
    CHECK_MESSAGE(host.output().find("3 crashes within 60 s: not restarting it") !=
                      std::string::npos,
                  host.output());
}

TEST_CASE("supervisor: --no-supervise leaves a crash a crash, and SIGTERM to the supervisor "
          "stops the host with its state saved") {
    SUBCASE("--no-supervise") {
        Project project;
        HostProcess host(project.args({"--no-supervise"}), project.dir.path());
        ControlClient client = connectTo(project.socket, host);
        const nlohmann::json status = callOk(client, "status");
        CHECK(status["pid"] == host.pid()); // no parent in between
        ::kill(host.pid(), SIGKILL);
        CHECK(host.wait(60s) != 0);
    }
    SUBCASE("SIGTERM") {
        Project project;
        HostProcess host(project.args(), project.dir.path());
        ControlClient client = connectTo(project.socket, host);
        const nlohmann::json status = callOk(client, "status");
        CHECK(status["pid"] != host.pid()); // the supervisor's child
        callOk(client, "set",
               {{"entity", "Keeper"}, {"script", "Keeper"}, {"field", "kept"}, {"value", 31}});
        host.signal(SIGTERM);
        CHECK_MESSAGE(host.wait(60s) == 0, host.output());
        std::ifstream in(status["stateFile"].get<std::string>());
        std::stringstream text;
        text << in.rdbuf();
        CHECK_MESSAGE(text.str().find("\"kept\": 31") != std::string::npos, text.str());
        CHECK(host.output().find("the host crashed") == std::string::npos);
    }
}
