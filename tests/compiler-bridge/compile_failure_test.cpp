// errorLines / failureText: the text shown for a failed build.
#include "compiler_bridge/compile_failure.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;

namespace {

Diagnostic error(std::string file, int line, std::string code, std::string message) {
    return {std::move(file), line, 1, Severity::Error, std::move(code), std::move(message)};
}

Diagnostic warning(std::string message) {
    return {"W.cs", 3, 1, Severity::Warning, "CS0168", std::move(message)};
}

} // namespace

TEST_SUITE("compile failure text") {
    TEST_CASE("every error diagnostic, formatted, in order, without the warnings") {
        CompileResult result;
        result.diagnostics = {error("A.cs", 1, "CS0103", "The name `x' does not exist"),
                              warning("unused variable"),
                              error("B.cs", 7, "CS1525", "Unexpected symbol `}'")};
        result.log = "raw output that must not be shown when diagnostics explain the failure\n";
        const std::vector<std::string> expected{format(result.diagnostics[0]),
                                                format(result.diagnostics[2])};
        CHECK(errorLines(result) == expected);
        CHECK(failureText(result) == expected[0] + "\n" + expected[1]);
        CHECK(expected[0] == "A.cs(1,1): error CS0103: The name `x' does not exist");
    }

    TEST_CASE("a location-less error (a timeout, mcs failing to start) is one line") {
        CompileResult result;
        result.diagnostics = {error("", 0, "", "the build timed out after 100 ms and was stopped")};
        CHECK(errorLines(result) == std::vector<std::string>{format(result.diagnostics[0])});
        CHECK(failureText(result) == format(result.diagnostics[0]));
    }

    TEST_CASE("no error diagnostic: the compiler's raw log, trimmed, after a heading") {
        CompileResult result;
        result.diagnostics = {warning("only a warning")};
        result.log = "Unhandled Exception: System.Foo\n  at Bar()\n\n";
        CHECK(errorLines(result) ==
              std::vector<std::string>{
                  "the build failed:\nUnhandled Exception: System.Foo\n  at Bar()"});
        CHECK(failureText(result) ==
              "the build failed:\nUnhandled Exception: System.Foo\n  at Bar()");
    }

    TEST_CASE("neither errors nor a log: a plain message, never an empty list") {
        CompileResult result;
        CHECK(errorLines(result) == std::vector<std::string>{"the build failed"});
        CHECK(failureText(result) == "the build failed");
        result.log = " \n\t\n"; // blank output is no clue either
        CHECK(errorLines(result) == std::vector<std::string>{"the build failed"});
    }
}
