// parseMcsDiagnostics / format, on output produced by the real mcs.
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/diagnostic.hpp"
#include "compiler_test_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using scripthost::testing::libraryRequest;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;

namespace {

/// Runs real mcs and returns its raw output.
std::string mcsOutput(const CompileRequest& request) {
    return ColdCompiler().compile(request).log;
}

} // namespace

TEST_CASE("real mcs errors and warnings parse with file, line, column, code and message") {
    TempDir dir("diag");
    const auto bad = dir / "Bad.cs";
    writeFile(bad, "class Bad {\n"
                   "    int F() { int unused = 1; return 0; }\n"
                   "    int G() { return missingName; }\n"
                   "    int H() { int x = \"text\"; return x; }\n"
                   "}\n");
    const std::string log = mcsOutput(libraryRequest(dir.path(), {bad}));
    const auto diagnostics = parseMcsDiagnostics(log);
    REQUIRE_MESSAGE(diagnostics.size() == 3, log);

    CHECK(diagnostics[0].file == bad.string());
    CHECK(diagnostics[0].line == 2);
    CHECK(diagnostics[0].severity == Severity::Warning);
    CHECK(diagnostics[0].code == "CS0219");

    CHECK(diagnostics[1].line == 3);
    CHECK(diagnostics[1].column == 22);
    CHECK(diagnostics[1].severity == Severity::Error);
    CHECK(diagnostics[1].code == "CS0103");
    CHECK(diagnostics[1].message.find("missingName") != std::string::npos);

    CHECK(diagnostics[2].line == 4);
    CHECK(diagnostics[2].code == "CS0029");
    CHECK(diagnostics[2].message.find("`string'") != std::string::npos);
}

TEST_CASE("a missing source file gives an error without a location") {
    TempDir dir("diag");
    const std::string log = mcsOutput(libraryRequest(dir.path(), {dir / "Nowhere.cs"}));
    const auto diagnostics = parseMcsDiagnostics(log);
    REQUIRE_MESSAGE(diagnostics.size() == 1, log);
    CHECK(diagnostics[0].file.empty());
    CHECK(diagnostics[0].line == 0);
    CHECK(diagnostics[0].column == 0);
    CHECK(diagnostics[0].code == "CS2001");
    CHECK(diagnostics[0].message.find("Nowhere.cs") != std::string::npos);
}

TEST_CASE("paths with spaces and parentheses keep their whole file name") {
    TempDir dir("diag");
    const auto odd = dir / "My Scripts (copy)" / "Odd (1).cs";
    writeFile(odd, "class Odd {\n  void F() { undefinedCall(1, 2); }\n}\n");
    const std::string log = mcsOutput(libraryRequest(dir.path(), {odd}));
    const auto diagnostics = parseMcsDiagnostics(log);
    REQUIRE_MESSAGE(diagnostics.size() == 1, log);
    CHECK(diagnostics[0].file == odd.string());
    CHECK(diagnostics[0].line == 2);
    CHECK(diagnostics[0].column == 14);
    CHECK(diagnostics[0].code == "CS0103");
}

TEST_CASE("summary lines, blank lines and CRLF endings are not diagnostics") {
    const auto diagnostics =
        parseMcsDiagnostics("A.cs(1,2): error CS1525: Unexpected symbol `}'\r\n\r\nCompilation "
                            "failed: 1 error(s), 0 warnings\n");
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].message == "Unexpected symbol `}'");
    CHECK(parseMcsDiagnostics("").empty());
}

TEST_CASE("format prints the way mcs does, with or without a location or a code") {
    CHECK(format({"File.cs", 12, 5, Severity::Error, "CS0103", "The name `x' does not exist"}) ==
          "File.cs(12,5): error CS0103: The name `x' does not exist");
    CHECK(format({"", 0, 0, Severity::Warning, "CS2002",
                  "Source file `a.cs' specified multiple times"}) ==
          "warning CS2002: Source file `a.cs' specified multiple times");
    CHECK(format({"", 0, 0, Severity::Error, "", "no .cs files under scripts"}) ==
          "error: no .cs files under scripts");
    const Diagnostic original{"Dir (x)/A b.cs", 3, 9, Severity::Warning, "CS0168", "unused"};
    const auto reparsed = parseMcsDiagnostics(format(original));
    REQUIRE(reparsed.size() == 1);
    CHECK(reparsed[0] == original);
}

TEST_CASE("a 1 MB diagnostic line parses whole, without exhausting the stack") {
    // Found with fuzz_mcs_diagnostics: the std::regex parser recursed once per character
    // and a 200 KB line overflowed the stack.
    const std::string message(1'000'000, 'x');
    const auto diagnostics =
        parseMcsDiagnostics("A.cs(7,3): error CS0029: " + message + "\nerror CS2001: " + message);
    REQUIRE(diagnostics.size() == 2);
    CHECK(diagnostics[0].file == "A.cs");
    CHECK(diagnostics[0].line == 7);
    CHECK(diagnostics[0].message.size() == message.size());
    CHECK(diagnostics[1].code == "CS2001");
    CHECK(diagnostics[1].message.size() == message.size());
}

TEST_CASE("a location without a file name is no location, so format and parse agree") {
    // Found by fuzz_mcs_diagnostics: "(1,2): error ..." parsed with an empty file and line 1,
    // which format() prints without the location.
    const auto diagnostics = parseMcsDiagnostics("(1,2): error CS1002: ; expected");
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].file.empty());
    CHECK(diagnostics[0].line == 0);
    CHECK(diagnostics[0].column == 0);
    CHECK(diagnostics[0].message == "; expected");
    CHECK(parseMcsDiagnostics(format(diagnostics[0])) == diagnostics);
}

TEST_CASE("the file is the longest prefix before a valid location") {
    const auto diagnostics =
        parseMcsDiagnostics("a(1,2): error CS1: b(3,4): warning CS2: c\nx(9,z): error CS3: m(");
    REQUIRE(diagnostics.size() == 2);
    CHECK(diagnostics[0].file == "a(1,2): error CS1: b");
    CHECK(diagnostics[0].line == 3);
    CHECK(diagnostics[0].severity == Severity::Warning);
    CHECK(diagnostics[0].message == "c");
    CHECK(diagnostics[1].file.empty()); // "(9,z)" is no location
    CHECK(diagnostics[1].code == "CS3");
    CHECK(diagnostics[1].message == "m(");
}
