// End-to-end: calls that would end or hang the host are refused when the scripts load,
// naming file and line — on the first build (nothing runs) and on a reload (the old
// generation keeps running). The real scripthost binary, real mcs.
#include "../support/host_process.hpp"

#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace scripthost::testing;
using namespace std::chrono_literals;

namespace {

// Logs a line every 30 frames with its generation's mark, so the test sees who ticks.
std::string ticker(const std::string& mark) {
    return "using UEngine;\n"
           "public class Ticker : UMonoScriptComponent {\n"
           "    int frames;\n"
           "    public override void Update(float dt) {\n"
           "        if (++frames % 30 == 0) Debug.Log(\"" +
           mark +
           " tick \" + frames);\n"
           "    }\n"
           "}\n";
}

} // namespace

TEST_CASE("scripthost run: a first build that calls Environment.Exit is refused naming file and "
          "line, and nothing runs") {
    TempDir dir("cli-forbidden-first");
    const fs::path scripts = dir.path() / "scripts";
    writeFile(scripts / "Ticker.cs", ticker("good"));
    writeFile(scripts / "Quitter.cs", "using UEngine;\n"
                                      "public class Quitter : UMonoScriptComponent {\n"
                                      "    public override void Update(float dt) {\n"
                                      "        if (dt > 1) {\n"
                                      "            System.Environment.Exit(3); // the call\n"
                                      "        }\n"
                                      "    }\n"
                                      "}\n");
    const int line = lineOf(scripts / "Quitter.cs", "// the call");
    HostProcess host(
        {"run", "--scripts", scripts.string(), "--headless", "--frames", "30", "--no-control"});
    const int code = host.wait(60s);
    const std::string out = host.output();
    CHECK_MESSAGE(code == 1, out);
    CHECK_MESSAGE(out.find("Quitter.cs:" + std::to_string(line) +
                           ": Quitter.Update calls System.Environment.Exit, which would end "
                           "the host; scripts may not call it") != std::string::npos,
                  out);
    CHECK(out.find("cannot load the scripts") != std::string::npos);
    CHECK(out.find("good tick") == std::string::npos); // nothing ran
}

TEST_CASE(
    "scripthost run: a save that adds Environment.FailFast is refused naming file and line, and "
    "the old generation ticks to the last frame") {
    TempDir dir("cli-forbidden-reload");
    const fs::path scripts = dir.path() / "scripts";
    writeFile(scripts / "Ticker.cs", ticker("gen1"));
    HostProcess host({"run", "--scripts", scripts.string(), "--headless", "--frames", "600",
                      "--fps", "30", "--no-control"});
    REQUIRE_MESSAGE(host.waitForOutput("gen1 tick 30", 60s), host.output());

    // Two forbidden calls in the new file: both are named, each with its line.
    writeFile(scripts / "Doom.cs",
              "using UEngine;\n"
              "public class Doom : UMonoScriptComponent {\n"
              "    public override void Update(float dt) {\n"
              "        if (dt > 1) System.Environment.FailFast(\"bye\"); // fail fast\n"
              "        System.Action<int> later = System.Environment.Exit; // by delegate\n"
              "    }\n"
              "}\n");
    const std::string failFast =
        "Doom.cs:" + std::to_string(lineOf(scripts / "Doom.cs", "// fail fast")) +
        ": Doom.Update calls System.Environment.FailFast";
    const std::string exitByDelegate =
        "Doom.cs:" + std::to_string(lineOf(scripts / "Doom.cs", "// by delegate")) +
        ": Doom.Update calls System.Environment.Exit";
    REQUIRE_MESSAGE(host.waitForOutput("reload #1 failed in load", 60s), host.output());
    REQUIRE_MESSAGE(host.waitForOutput(exitByDelegate, 10s), host.output());
    CHECK_MESSAGE(host.output().find(failFast) != std::string::npos, host.output());

    // The old generation goes on ticking after the refusal, to the last frame.
    const std::size_t ticksAtRefusal = countOf(host.output(), "gen1 tick");
    CHECK_MESSAGE(
        waitUntil([&] { return countOf(host.output(), "gen1 tick") > ticksAtRefusal; }, 60s),
        host.output());
    const int code = host.wait(90s);
    const std::string out = host.output();
    CHECK_MESSAGE(code == 0, out);
    CHECK(out.find("stopped after 600 frames") != std::string::npos);
}

TEST_CASE("scripthost run: Environment.Exit reached through reflection, which the load-time scan "
          "cannot see, throws in the script and the host ticks to its last frame") {
    TempDir dir("cli-exit-by-reflection");
    const fs::path scripts = dir.path() / "scripts";
    writeFile(scripts / "Ticker.cs", ticker("alive"));
    writeFile(
        scripts / "Quitter.cs",
        "using UEngine;\n"
        "public class Quitter : UMonoScriptComponent {\n"
        "    public override void Update(float dt) {\n"
        "        typeof(System.Environment).GetMethod(\"Exit\").Invoke(null, new object[] { 3 });\n"
        "    }\n"
        "}\n");
    HostProcess host({"run", "--scripts", scripts.string(), "--headless", "--frames", "60",
                      "--no-control", "--no-supervise", "--disable-after", "0"});
    const int code = host.wait(90s);
    const std::string out = host.output();
    CHECK_MESSAGE(code == 0, out);
    CHECK_MESSAGE(out.find("Environment.Exit(3) is refused: scripts cannot end the host") !=
                      std::string::npos,
                  out);
    CHECK_MESSAGE(out.find("alive tick 60") != std::string::npos, out);
    CHECK(out.find("stopped after 60 frames") != std::string::npos);
}
