// End-to-end tests of `scripthost smoke`: real binary, real mcs, real temp copies of scripts.
#include "../../support/test_support.hpp"
#include "../support/host_process.hpp"

#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace scripthost::testing;

namespace {

const fs::path kDemoScripts = fs::path(SCRIPTHOST_SOURCE_DIR) / "demo-game" / "scripts";
const fs::path kDemoScene = fs::path(SCRIPTHOST_SOURCE_DIR) / "demo-game" / "scene.json";
constexpr auto kSmokeDeadline = std::chrono::seconds(180);

/// Copies the demo game's scripts into `dir`/scripts and returns that folder.
fs::path copyDemoScripts(const TempDir& dir) {
    const fs::path scripts = dir / "scripts";
    fs::create_directories(scripts);
    for (const auto& entry : fs::directory_iterator(kDemoScripts))
        fs::copy_file(entry.path(), scripts / entry.path().filename());
    return scripts;
}

bool contains(const std::string& text, const std::string& needle) {
    return text.find(needle) != std::string::npos;
}

/// The JUnit file's shape: one testsuites with one testsuite, balanced elements, and the
/// counts given; returns the document.
std::string checkJUnit(const fs::path& file, int tests, int failures, int skipped) {
    REQUIRE_MESSAGE(fs::exists(file), file.string());
    const std::string xml = readFile(file);
    CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 0) == 0);
    CHECK(countOf(xml, "<testsuites ") == 1);
    CHECK(countOf(xml, "</testsuites>") == 1);
    CHECK(countOf(xml, "<testsuite ") == 1);
    CHECK(countOf(xml, "</testsuite>") == 1);
    const std::string counts = "tests=\"" + std::to_string(tests) + "\" failures=\"" +
                               std::to_string(failures) + "\" errors=\"0\" skipped=\"" +
                               std::to_string(skipped) + "\"";
    CHECK_MESSAGE(countOf(xml, counts) == 2, xml); // on testsuites and testsuite
    CHECK_MESSAGE(countOf(xml, "<testcase ") == static_cast<std::size_t>(tests), xml);
    CHECK(countOf(xml, "<failure ") == static_cast<std::size_t>(failures));
    CHECK(countOf(xml, "</failure>") == static_cast<std::size_t>(failures));
    CHECK(countOf(xml, "<skipped ") == static_cast<std::size_t>(skipped));
    CHECK(contains(xml, "<testcase name=\"compile\" classname=\"scripthost.smoke\" time=\""));
    return xml;
}

} // namespace

TEST_CASE("scripthost smoke: the demo passes 120 frames and 10 reloads with a clean JUnit file") {
    TempDir dir("smoke-demo");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path junit = dir / "out" / "smoke.xml";
    HostProcess host({"smoke", "--scripts", scripts.string(), "--scene", kDemoScene.string(),
                      "--game", DEMO_GAME_MODULE, "--junit", junit.string()});
    const int code = host.wait(kSmokeDeadline);
    const std::string out = host.output();
    CHECK_MESSAGE(code == 0, out);
    CHECK_MESSAGE(contains(out, "smoke passed: 6 script(s) on 6 entit(ies) ran 240 frame(s) (120 "
                                "before the first reload, 12 after each) and 10 reload(s), "
                                "generation 1 -> 11"),
                  out);
    CHECK(contains(out, "game module demo arena 1.0 attached"));
    // BallScript 3 + Heartbeat 3 + PlayerInput 2 + Spinner 2 × 2 + Spawner 6.
    CHECK(contains(out, "18 serialized field(s) in 6 script(s) checked per reload"));
    CHECK(contains(out, "reload swap frame median "));
    CHECK(!contains(out, "FAILED"));
    const std::string xml = checkJUnit(junit, 12, 0, 0);
    CHECK(contains(xml, "<testcase name=\"frames\""));
    CHECK(contains(xml, "<testcase name=\"reload 1\""));
    CHECK(contains(xml, "<testcase name=\"reload 10\""));
}

TEST_CASE("scripthost smoke: a syntax error fails as a compile error naming the file and line") {
    TempDir dir("smoke-syntax");
    const fs::path scripts = copyDemoScripts(dir);
    std::string spinner = readFile(scripts / "Spinner.cs");
    const std::string anchor = "        public override void Update";
    REQUIRE(contains(spinner, anchor));
    spinner.insert(spinner.find(anchor), "        int broken = ;\n");
    writeFile(scripts / "Spinner.cs", spinner);
    const int line = lineOf(scripts / "Spinner.cs", "int broken = ;");
    REQUIRE(line > 0);
    const fs::path junit = dir / "smoke.xml";

    HostProcess host(
        {"smoke", "--scripts", scripts.string(), "--cold-compiler", "--junit", junit.string()});
    const int code = host.wait(kSmokeDeadline);
    const std::string out = host.output();
    CHECK(code == 1);
    const std::string where = (scripts / "Spinner.cs").string() + ":" + std::to_string(line) + ":";
    CHECK_MESSAGE(contains(out, "smoke FAILED: compile error: " + where + " error CS1525: "), out);
    CHECK(!contains(out, "smoke passed"));
    const std::string xml = checkJUnit(junit, 12, 1, 11);
    CHECK(contains(xml, "<testcase name=\"compile\" classname=\"scripthost.smoke\" time=\""));
    CHECK_MESSAGE(contains(xml, "<failure message=\"compile error: " + where), xml);
    // mcs's message quotes the symbol as `;' — the apostrophe is escaped in the attribute.
    CHECK(contains(xml, "Unexpected symbol `;&apos;"));
    CHECK(contains(xml, "<testcase name=\"frames\" classname=\"scripthost.smoke\" time=\"0.000\">"
                        "\n      <skipped message=\"not run: an earlier step failed\"/>"));
}

TEST_CASE("scripthost smoke: a script whose Update throws fails naming the exception") {
    TempDir dir("smoke-update");
    const fs::path scripts = copyDemoScripts(dir);
    writeFile(scripts / "Boom.cs", "using UEngine;\n"
                                   "public class Boom : UMonoScriptComponent {\n"
                                   "  [SerializeField] int frames;\n"
                                   "  public override void Update(float dt) {\n"
                                   "    if (++frames == 5) Explode(); // CALL\n"
                                   "  }\n"
                                   "  void Explode() {\n"
                                   "    throw new System.InvalidOperationException(\"boom <5>\");\n"
                                   "  }\n"
                                   "}\n");
    const fs::path junit = dir / "smoke.xml";
    // No --scene: the default scene has one entity per class, Boom included.
    HostProcess host({"smoke", "--scripts", scripts.string(), "--frames", "30", "--reloads", "2",
                      "--junit", junit.string()});
    const int code = host.wait(kSmokeDeadline);
    const std::string out = host.output();
    CHECK(code == 1);
    CHECK_MESSAGE(contains(out, "smoke FAILED: script exception in frame 5: Boom #"), out);
    CHECK(contains(out, "threw System.InvalidOperationException in Update: boom <5>"));
    // The managed stack, with file:line of the caller's frame.
    CHECK(contains(out, "Boom.cs:" + std::to_string(lineOf(scripts / "Boom.cs", "// CALL"))));
    const std::string xml = checkJUnit(junit, 4, 1, 2);
    CHECK(contains(xml, "<testcase name=\"compile\" classname=\"scripthost.smoke\" time=\""));
    CHECK_MESSAGE(contains(xml, "<failure message=\"script exception in frame 5: Boom #"), xml);
    CHECK(contains(xml, "System.InvalidOperationException in Update: boom &lt;5&gt;\""));
}

TEST_CASE("scripthost smoke: OnAfterReload that throws rolls the reload back and fails") {
    TempDir dir("smoke-hook");
    const fs::path scripts = copyDemoScripts(dir);
    writeFile(scripts / "Stubborn.cs",
              "using UEngine;\n"
              "public class Stubborn : UMonoScriptComponent {\n"
              "  public override void OnAfterReload() {\n"
              "    throw new System.NotSupportedException(\"will not reload\");\n"
              "  }\n"
              "}\n");
    const fs::path junit = dir / "smoke.xml";
    HostProcess host({"smoke", "--scripts", scripts.string(), "--frames", "10", "--reloads", "3",
                      "--junit", junit.string()});
    const int code = host.wait(kSmokeDeadline);
    const std::string out = host.output();
    CHECK(code == 1);
    CHECK_MESSAGE(contains(out, "smoke FAILED: reload 1 rolled back in phase hooks: "
                                "OnAfterReload of Stubborn #"),
                  out);
    CHECK(contains(out, "System.NotSupportedException: will not reload"));
    const std::string xml = checkJUnit(junit, 5, 1, 2);
    CHECK(contains(xml, "<testcase name=\"frames\" classname=\"scripthost.smoke\" time=\""));
    CHECK_MESSAGE(contains(xml, "<failure message=\"reload 1 rolled back in phase hooks: "), xml);
    CHECK(contains(xml, "<testcase name=\"reload 3\""));
}

TEST_CASE("scripthost smoke: a value a reload changes is reported as a mismatch") {
    TempDir dir("smoke-mismatch");
    writeFile(dir / "scripts" / "Bumper.cs",
              "using UEngine;\n"
              "public class Bumper : UMonoScriptComponent {\n"
              "  [SerializeField] int reloads;\n"
              "  [SerializeField] float nan = float.NaN;\n"
              "  [SerializeField] float negativeZero = -0f;\n"
              "  public override void OnAfterReload() { reloads++; }\n"
              "}\n");
    HostProcess host(
        {"smoke", "--scripts", (dir / "scripts").string(), "--frames", "3", "--reloads", "2"});
    const int code = host.wait(kSmokeDeadline);
    const std::string out = host.output();
    CHECK(code == 1);
    // NaN and -0 carried bit for bit are not mismatches: only the counter is.
    CHECK_MESSAGE(contains(out, "smoke FAILED: reload 1: 1 of 3 value(s) did not round-trip "
                                "exactly (first: Bumper/Bumper.reloads: before 0 after 1)"),
                  out);
    CHECK(contains(out, "  Bumper/Bumper.reloads: before 0 after 1\n"));
}

TEST_CASE("scripthost smoke: a game module that cannot be loaded fails with the reason") {
    TempDir dir("smoke-game");
    const fs::path scripts = copyDemoScripts(dir);
    const fs::path notAModule = dir / "libgame.so";
    writeFile(notAModule, "not a shared library");
    HostProcess host({"smoke", "--scripts", scripts.string(), "--game", notAModule.string()});
    const int code = host.wait(kSmokeDeadline);
    CHECK(code == 1);
    CHECK_MESSAGE(contains(host.output(), "cannot load game module " + notAModule.string()),
                  host.output());
}
