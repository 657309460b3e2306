// End-to-end: threads a generation started are stopped when a reload unloads it, and named;
// a thread that will not stop does not hang the host. The real scripthost binary, real
// mcs, a script edited while the host runs.
#include "../support/host_process.hpp"

#include <algorithm>
#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace scripthost::testing;
using namespace std::chrono_literals;

namespace {

// Generation `mark` starts `threads` (C# statements) on its second frame, and logs a tick
// with its mark every 30 frames. Threads print through Console (Debug.Log is main-thread only).
std::string starter(const std::string& mark, const std::string& threads) {
    return "using UEngine;\n"
           "using System;\n"
           "using System.Threading;\n"
           "public class Worker {\n"
           "    public static void Say(string s) { Console.WriteLine(s); Console.Out.Flush(); }\n"
           "    public static void Run() {\n"
           "        try { while (true) Thread.Sleep(10); } finally { Say(\"Worker.Run ended " +
           mark +
           "\"); }\n"
           "    }\n"
           "}\n"
           "public class Starter : UMonoScriptComponent {\n"
           "    static readonly object gate = new object();\n"
           "    static volatile int spin;\n"
           "    int frames;\n"
           "    public override void Update(float dt) {\n"
           "        if (++frames == 2) {\n" +
           threads + "            Debug.Log(\"" + mark +
           " started its threads\");\n"
           "        }\n"
           "        if (frames % 30 == 0) Debug.Log(\"" +
           mark +
           " tick \" + frames);\n"
           "    }\n"
           "}\n";
}

} // namespace

TEST_CASE("scripthost run: threads generation 1 started are stopped when a reload unloads it, "
          "named in the report and the log, and the host ticks to the last frame") {
    TempDir dir("cli-threads");
    const fs::path scripts = dir.path() / "scripts";
    // A sleeper with a name, an unnamed one (named by its start method), a background one,
    // one that spins without sleeping and one blocked in Monitor.Wait.
    const std::string threads =
        "            new Thread(() => { try { while (true) Thread.Sleep(10); }\n"
        "                finally { Worker.Say(\"poller ended\"); } }) { Name = \"poller\" "
        "}.Start();\n"
        "            new Thread(Worker.Run).Start();\n"
        "            new Thread(() => { try { while (true) Thread.Sleep(10); }\n"
        "                finally { Worker.Say(\"background ended\"); } })\n"
        "                { Name = \"background\", IsBackground = true }.Start();\n"
        "            new Thread(() => { try { while (true) spin++; }\n"
        "                finally { Worker.Say(\"spinner ended\"); } }) { Name = \"spinner\" "
        "}.Start();\n"
        "            new Thread(() => { try { lock (gate) Monitor.Wait(gate); }\n"
        "                finally { Worker.Say(\"waiter ended\"); } }) { Name = \"waiter\" "
        "}.Start();\n";
    writeFile(scripts / "Starter.cs", starter("gen1", threads));
    HostProcess host({"run", "--scripts", scripts.string(), "--headless", "--frames", "600",
                      "--fps", "30", "--no-control"});
    REQUIRE_MESSAGE(host.waitForOutput("gen1 tick 30", 60s), host.output());
    REQUIRE(host.output().find("gen1 started its threads") != std::string::npos);

    writeFile(scripts / "Starter.cs", starter("gen2", ""));
    REQUIRE_MESSAGE(host.waitForOutput("reload #1 ok: generation 1 -> 2", 60s), host.output());
    REQUIRE_MESSAGE(
        host.waitForOutput("generation 1 unloaded; stopped 5 thread(s) it started", 30s),
        host.output());
    const std::string out = host.output();
    // The report names them, and so does the unloader's line: in the order each thread
    // registered itself (on its own thread, so under load not always the order of creation).
    auto namesAfter = [&](const std::string& prefix) {
        const std::size_t at = out.find(prefix);
        if (at == std::string::npos)
            return std::vector<std::string>{};
        const std::size_t start = at + prefix.size();
        std::string list = out.substr(start, out.find('\n', start) - start);
        std::vector<std::string> names;
        for (std::size_t from = 0;;) {
            const std::size_t comma = list.find(", ", from);
            names.push_back(list.substr(from, comma - from));
            if (comma == std::string::npos)
                break;
            from = comma + 2;
        }
        std::sort(names.begin(), names.end());
        return names;
    };
    const std::vector<std::string> started{"Worker.Run", "background", "poller", "spinner",
                                           "waiter"};
    CHECK_MESSAGE(namesAfter("stopping 5 thread(s) generation 1 started: ") == started, out);
    CHECK_MESSAGE(namesAfter("stopped 5 thread(s) it started: ") == started, out);
    // Each thread really ended: its finally block ran.
    for (const char* ended : {"poller ended", "Worker.Run ended gen1", "background ended",
                              "spinner ended", "waiter ended"})
        CHECK_MESSAGE(out.find(ended) != std::string::npos, ended);

    const std::size_t ticks = countOf(host.output(), "gen2 tick");
    CHECK(waitUntil([&] { return countOf(host.output(), "gen2 tick") > ticks; }, 60s));
    const int code = host.wait(90s);
    CHECK_MESSAGE(code == 0, host.output());
    CHECK(host.output().find("stopped after 600 frames") != std::string::npos);
}

TEST_CASE("scripthost run: a thread that will not stop (a loop in its finally block) is reported "
          "and its generation left loaded, and the host ticks on and exits 0") {
    TempDir dir("cli-threads-stuck");
    const fs::path scripts = dir.path() / "scripts";
    const std::string threads =
        "            new Thread(() => { try { while (true) Thread.Sleep(10); }\n"
        "                finally { Worker.Say(\"stubborn holds on\"); while (true) spin++; } })\n"
        "                { Name = \"stubborn\" }.Start();\n";
    writeFile(scripts / "Starter.cs", starter("gen1", threads));
    HostProcess host({"run", "--scripts", scripts.string(), "--headless", "--frames", "600",
                      "--fps", "30", "--no-control"});
    REQUIRE_MESSAGE(host.waitForOutput("gen1 tick 30", 60s), host.output());

    writeFile(scripts / "Starter.cs", starter("gen2", ""));
    REQUIRE_MESSAGE(host.waitForOutput("reload #1 ok: generation 1 -> 2", 60s), host.output());
    REQUIRE_MESSAGE(host.waitForOutput("generation 1 was not unloaded: 1 thread(s) it started did "
                                       "not stop within 2000 ms",
                                       30s),
                    host.output());
    CHECK(host.output().find("stubborn holds on") != std::string::npos);
    CHECK(host.output().find("stopping 1 thread(s) generation 1 started: stubborn") !=
          std::string::npos);

    const std::size_t ticks = countOf(host.output(), "gen2 tick");
    CHECK(waitUntil([&] { return countOf(host.output(), "gen2 tick") > ticks; }, 60s));
    const int code = host.wait(90s);
    CHECK_MESSAGE(code == 0, host.output());
    CHECK(host.output().find("stopped after 600 frames") != std::string::npos);
    CHECK(host.output().find("1 script thread(s) would not stop") != std::string::npos);
}
