// The failed build's diagnostics as the daemon shows them: which reports hold them, their JSON,
// and the lines the terminal view keeps in sight.

#include "build_diagnostics.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace scripthost;
using compiler::Diagnostic;
using compiler::Severity;

namespace {

ReloadReport failedBuild(std::vector<std::string> errors) {
    ReloadReport report;
    report.failedPhase = "build";
    report.errors = std::move(errors);
    return report;
}

} // namespace

TEST_CASE("build diagnostics: a failed build's errors, none once a build succeeded") {
    const ReloadReport broken = failedBuild(
        {"/work/game/scripts/Game.cs(13,62): error CS1525: Unexpected symbol `}'",
         "/work/game/scripts/AI/Brain.cs(2,1): error CS0246: The type `Foo' could not be found"});
    const auto diagnostics = buildDiagnostics(broken);
    REQUIRE(diagnostics.size() == 2);
    CHECK(diagnostics[0] == Diagnostic{"/work/game/scripts/Game.cs", 13, 62, Severity::Error,
                                       "CS1525", "Unexpected symbol `}'"});
    CHECK(diagnostics[1].file == "/work/game/scripts/AI/Brain.cs");

    ReloadReport live;
    live.success = true;
    CHECK(buildDiagnostics(live).empty());
    // The build worked, the reload did not: nothing for the compiler to say.
    ReloadReport rolledBack;
    rolledBack.failedPhase = "load";
    rolledBack.errors = {"Game.cs(1,1): error CS0000: looks like a diagnostic but is not one"};
    CHECK(buildDiagnostics(rolledBack).empty());
}

TEST_CASE("build diagnostics: a failed build without a compiler message keeps its reason") {
    const auto diagnostics =
        buildDiagnostics(failedBuild({"the build failed:\nmcs: cannot run\nmore"}));
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].file.empty());
    CHECK(diagnostics[0].code.empty());
    CHECK(diagnostics[0].severity == Severity::Error);
    CHECK(diagnostics[0].message == "the build failed:");
}

TEST_CASE("build diagnostics: JSON with every member, severity as a word") {
    const nlohmann::json json =
        diagnosticsJson({{"/s/Game.cs", 13, 62, Severity::Error, "CS1525", "Unexpected symbol"},
                         {"/s/Game.cs", 4, 9, Severity::Warning, "CS0168", "unused"}});
    CHECK(json == nlohmann::json::parse(R"([
        {"file": "/s/Game.cs", "line": 13, "column": 62, "severity": "error",
         "code": "CS1525", "message": "Unexpected symbol"},
        {"file": "/s/Game.cs", "line": 4, "column": 9, "severity": "warning",
         "code": "CS0168", "message": "unused"}])"));
    CHECK(diagnosticsJson({}) == nlohmann::json::array());
}

TEST_CASE("build diagnostics: screen lines name the file inside its script folder, errors only, "
          "the first few, cut to the width") {
    const std::vector<Diagnostic> diagnostics{
        {"/g/scripts/Game.cs", 13, 62, Severity::Error, "CS1525", "Unexpected symbol `}'"},
        {"/g/scripts/Game.cs", 1, 1, Severity::Warning, "CS0168", "a warning"},
        {"/g/scripts/AI/Brain.cs", 2, 5, Severity::Error, "CS0246", "The type `Foo' is missing"},
        {"/elsewhere/Other.cs", 7, 3, Severity::Error, "CS0103", "The name `x' does not exist"},
        {"", 0, 0, Severity::Error, "", "never shown: past the first three"},
    };
    const std::vector<std::filesystem::path> dirs{"/g/scripts"};
    CHECK(diagnosticScreenLines(diagnostics, dirs, 3, 80) ==
          std::vector<std::string>{
              "Game.cs(13,62): error CS1525: Unexpected symbol `}'",
              "AI/Brain.cs(2,5): error CS0246: The type `Foo' is missing",
              "/elsewhere/Other.cs(7,3): error CS0103: The name `x' does not exist"});
    CHECK(diagnosticScreenLines(diagnostics, dirs, 1, 24) ==
          std::vector<std::string>{"Game.cs(13,62): error..."});
    CHECK(diagnosticScreenLines({{"", 0, 0, Severity::Error, "", "the build failed"}}, dirs, 3,
                                80) == std::vector<std::string>{"error: the build failed"});
    CHECK(diagnosticScreenLines({}, dirs, 3, 80).empty());
}
