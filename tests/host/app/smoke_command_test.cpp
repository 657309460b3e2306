// runSmoke: `scripthost smoke` run in-process on a project in a real temp folder — real mcs, the
// real runtime, real reloads: a healthy project passes its frames and reloads and writes a JUnit
// report with a case per step, and a script that throws fails the run, in the report too.
#include "smoke_command.hpp"

#include "../support/mono_test_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

SmokeOptions smokeOf(const TempDir& dir, const std::string& script) {
    std::filesystem::create_directories(dir / "scripts");
    writeFile(dir / "scripts" / "Ticker.cs", script);
    SmokeOptions options;
    options.scriptDirs = {dir / "scripts"};
    options.scriptCore = SCRIPTHOST_SCRIPTCORE_DLL;
    options.coldCompiler = true; // mcs per build: no compile server to start for two builds
    options.frames = 20;
    options.reloads = 2;
    options.junit = dir / "report.xml";
    return options;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("runSmoke: a healthy project passes its frames and reloads, with a clean JUnit report") {
    TempDir dir("smoke-pass");
    const SmokeOptions options = smokeOf(dir, R"(using UEngine;
public class Ticker : UMonoScriptComponent {
  [SerializeField] int ticks;
  [SerializeField] string name = "ticker";
  public override void Update(float dt) { ticks++; }
}
)");
    CHECK(runSmoke(options) == 0);
    const std::string report = readFile(options.junit);
    CHECK(report.find("<testsuite") != std::string::npos);
    CHECK(report.find("scripthost smoke") != std::string::npos);
    CHECK(count(report, "<testcase") >= 3); // the frames and each reload
    CHECK(count(report, "<failure") == 0);
    CHECK(count(report, "<error") == 0);
}

TEST_CASE("runSmoke: a script whose Update throws fails the run, in its report too") {
    TempDir dir("smoke-throw");
    const SmokeOptions options = smokeOf(dir, R"(using UEngine;
public class Ticker : UMonoScriptComponent {
  public override void Update(float dt) { throw new System.InvalidOperationException("ticker broke"); }
}
)");
    CHECK(runSmoke(options) == 1);
    const std::string report = readFile(options.junit);
    CHECK(count(report, "<failure") + count(report, "<error") >= 1);
    CHECK(report.find("ticker broke") != std::string::npos);
}

TEST_CASE("runSmoke: a compile error fails the run") {
    TempDir dir("smoke-compile");
    const SmokeOptions options = smokeOf(dir, "public class Ticker : UEngine.UMonoScriptComponent {");
    CHECK(runSmoke(options) == 1);
    const std::string report = readFile(options.junit);
    CHECK(report.find("Ticker.cs") != std::string::npos);
}
