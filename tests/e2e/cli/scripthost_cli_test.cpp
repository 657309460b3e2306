// End-to-end tests of the scripthost executable: real binary, real mcs, real temp folders.
#include "../support/host_process.hpp"

#include <boost/process.hpp>
#include <csignal>
#include <doctest/doctest.h>

namespace bp = boost::process;
using namespace scripthost::testing;

namespace {

/// `run` without a control socket: these tests are about the loop, and tests running in
/// parallel must not compete for the default socket path (daemon_cli_tests covers it).
std::vector<std::string> withoutControl(std::vector<std::string> args) {
    if (!args.empty() && args.front() == "run")
        args.push_back("--no-control");
    return args;
}

/// The shared HostProcess, with `run` kept off the default control socket.
class CliHost : public HostProcess {
public:
    explicit CliHost(std::vector<std::string> args) : HostProcess(withoutControl(std::move(args))) {}
};

const std::string kDemoScripts = std::string(SCRIPTHOST_SOURCE_DIR) + "/demo-game/scripts";
const std::string kDemoScene = std::string(SCRIPTHOST_SOURCE_DIR) + "/demo-game/scene.json";

} // namespace

TEST_CASE("scripthost run: the demo runs headless for 300 frames and prints frame statistics") {
    CliHost host({"run", "--scripts", kDemoScripts, "--scene", kDemoScene, "--game",
                      DEMO_GAME_MODULE, "--headless", "--frames", "300", "--fps", "0"});
    const int code = host.wait();
    const std::string out = host.output();
    CHECK_MESSAGE(code == 0, out);
    CHECK(out.find("running 6 entities, 6 scripts for 300 frames") != std::string::npos);
    CHECK(out.find("stopped after 300 frames") != std::string::npos);
    CHECK(out.find("frame statistics: 300 frames") != std::string::npos);
    CHECK(out.find("script failure") == std::string::npos);
}

TEST_CASE("scripthost run: a syntax error prints the diagnostic and exits non-zero") {
    TempDir dir("cli-syntax");
    writeFile(dir / "Bad.cs",
              "using UEngine;\npublic class Bad : UMonoScriptComponent {\n  int x = \"no\";\n}\n");
    CliHost host({"run", "--scripts", dir.path().string(), "--headless", "--frames", "3"});
    const int code = host.wait();
    const std::string out = host.output();
    CHECK(code == 1);
    CHECK_MESSAGE(
        out.find("Bad.cs(3,11): error CS0029: Cannot implicitly convert type `string' to `int'") !=
            std::string::npos,
        out);
    CHECK(out.find("nothing was run") != std::string::npos);
}

TEST_CASE(
    "scripthost run: a missing folder, a missing class, a non-script class: one clear line each") {
    TempDir dir("cli-bad");
    {
        CliHost host({"run", "--scripts", (dir / "nope").string(), "--frames", "3"});
        CHECK(host.wait() == 1);
        CHECK(host.output().find("script folder " + (dir / "nope").string() + " does not exist") !=
              std::string::npos);
    }
    writeFile(dir / "scripts" / "Plain.cs",
              "public class Plain { public int x; }\n"
              "public class Real : UEngine.UMonoScriptComponent { }\n");
    writeFile(dir / "missing.json", R"({"entities": [{"name": "E", "scripts": ["Ghost"]}]})");
    writeFile(dir / "plain.json", R"({"entities": [{"name": "E", "scripts": ["Plain"]}]})");
    {
        CliHost host({"run", "--scripts", (dir / "scripts").string(), "--scene",
                          (dir / "missing.json").string(), "--headless", "--frames", "3"});
        CHECK(host.wait() == 1);
        CHECK_MESSAGE(host.output().find("entity \"E\": no script class named Ghost") !=
                          std::string::npos,
                      host.output());
    }
    {
        CliHost host({"run", "--scripts", (dir / "scripts").string(), "--scene",
                          (dir / "plain.json").string(), "--headless", "--frames", "3"});
        CHECK(host.wait() == 1);
        CHECK_MESSAGE(
            host.output().find("class Plain does not derive from UEngine.UMonoScriptComponent") !=
                std::string::npos,
            host.output());
    }
    {
        writeFile(dir / "empty" / "readme.txt", "no scripts here");
        CliHost host({"run", "--scripts", (dir / "empty").string(), "--frames", "3"});
        CHECK(host.wait() == 1);
        CHECK(host.output().find("no .cs files under") != std::string::npos);
    }
}

TEST_CASE("scripthost run: SIGTERM stops the loop cleanly between frames") {
    CliHost host({"run", "--scripts", kDemoScripts, "--scene", kDemoScene, "--game",
                      DEMO_GAME_MODULE, "--headless"});
    REQUIRE_MESSAGE(host.waitForOutput("running 6 entities", std::chrono::seconds(30)),
                    host.output());
    host.signal(SIGTERM);
    const int code = host.wait();
    CHECK_MESSAGE(code == 0, host.output());
    CHECK(host.output().find("(signal)") != std::string::npos);
    CHECK(host.output().find("frame statistics:") != std::string::npos);
}

TEST_CASE("scripthost run: endless recursion is reported as a stack overflow and the host ticks "
          "to its last frame") {
    TempDir dir("cli-recursion");
    writeFile(dir / "Recurse.cs", "using UEngine;\n"
                                  "public class Recurse : UMonoScriptComponent {\n"
                                  "  int frames;\n"
                                  "  int Down(int n) { return Down(n + 1) + 1; }\n"
                                  "  public override void Update(float dt) {\n"
                                  "    if (++frames == 10) Debug.Log(\"got \" + Down(0));\n"
                                  "  }\n"
                                  "}\n");
    CliHost host({"run", "--scripts", dir.path().string(), "--headless", "--frames", "30",
                      "--fps", "60", "--watchdog-ms", "20000"});
    CHECK(host.wait() == 0);
    const std::string out = host.output();
    CHECK_MESSAGE(out.find("threw in Update: System.StackOverflowException") != std::string::npos,
                  out.substr(0, 4000));
    CHECK(out.find("stopped after 30 frames") != std::string::npos);
    CHECK(out.find("1 script failure(s) during the run") != std::string::npos);
}

TEST_CASE("scripthost run: a script that throws every frame is disabled and the run succeeds") {
    TempDir dir("cli-throw");
    writeFile(
        dir / "Boom.cs",
        "using UEngine;\npublic class Boom : UMonoScriptComponent {\n"
        "  public override void Update(float dt) { throw new System.Exception(\"boom\"); }\n}\n");
    CliHost host({"run", "--scripts", dir.path().string(), "--headless", "--frames", "50",
                      "--fps", "0", "--disable-after", "4"});
    CHECK(host.wait() == 0);
    const std::string out = host.output();
    CHECK_MESSAGE(out.find("Boom.cs:3") != std::string::npos, out);
    CHECK(out.find("disabled after 4 consecutive failures") != std::string::npos);
    CHECK(out.find("4 script failure(s) during the run") != std::string::npos);
}

TEST_CASE("scripthost run: await resumes on the game loop and what async code throws is reported "
          "while the loop goes on") {
    TempDir dir("cli-await");
    writeFile(dir / "Awaiter.cs", R"(using UEngine;
using System.Threading;
using System.Threading.Tasks;
public class Awaiter : UMonoScriptComponent {
    int frames;
    public override void Update(float dt) { if (++frames == 2) Go(); }
    async void Go() {
        int before = Thread.CurrentThread.ManagedThreadId;
        await Task.Delay(20);
        transform.position = transform.position + new Vector3(1, 0, 0);
        Debug.Log("awaited on the loop: " + (Thread.CurrentThread.ManagedThreadId == before) + ", x = " + transform.position.x);
    }
}
)");
    writeFile(dir / "Thrower.cs", R"(using UEngine;
using System.Threading.Tasks;
public class AsyncThrower : UMonoScriptComponent {
    int frames;
    public override void Update(float dt) { if (++frames == 3) Go(); }
    async void Go() {
        await Task.Delay(10);
        throw new System.InvalidOperationException("async void says no");
    }
}
)");
    writeFile(dir / "OffLoop.cs", R"(using UEngine;
using System.Threading.Tasks;
public class OffLoop : UMonoScriptComponent {
    int frames;
    public override void Update(float dt) { if (++frames == 4) Go(); }
    async void Go() {
        await Task.Delay(10).ConfigureAwait(false);
        transform.position = new Vector3(5, 5, 5); // on a pool thread: refused
    }
}
)");
    CliHost host({"run", "--scripts", dir.path().string(), "--headless", "--frames", "120",
                      "--fps", "100", "--no-control"});
    CHECK(host.wait() == 0);
    const std::string out = host.output();
    CHECK_MESSAGE(out.find("awaited on the loop: True, x = 1") != std::string::npos, out);
    CHECK(out.find("stopped after 120 frames") != std::string::npos);
    // The async void's exception is posted to the game loop and charged to its script.
    CHECK_MESSAGE(out.find("script AsyncThrower") != std::string::npos, out);
    CHECK(out.find("threw in an await continuation: System.InvalidOperationException: async "
                   "void says no") != std::string::npos);
    CHECK(out.find("Thrower.cs:8") != std::string::npos);
    // The engine refuses a call from a pool thread; the exception is reported, not fatal.
    CHECK_MESSAGE(out.find("script OffLoop") != std::string::npos, out);
    CHECK(out.find("outside the host's game loop") != std::string::npos);
}
