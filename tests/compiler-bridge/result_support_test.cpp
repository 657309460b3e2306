// The helpers both compiler backends shape a CompileResult with: a failure as one diagnostic,
// "nothing to build", the output folder, and a "success" checked against what is on disk.
#include "compiler_test_support.hpp"
#include "result_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;

TEST_CASE("result support: a failure and nothing-to-build are one location-less error each") {
    CompileRequest request;
    request.output = "/tmp/out/Scripts.dll";
    const CompileResult failed = detail::failedResult(request, Backend::Warm, "the server died");
    CHECK_FALSE(failed.success);
    CHECK(failed.backend == Backend::Warm);
    CHECK(failed.output == request.output);
    REQUIRE(failed.diagnostics.size() == 1);
    CHECK(failed.diagnostics[0] == Diagnostic{"", 0, 0, Severity::Error, "", "the server died"});
    CHECK(failed.errorCount() == 1);
    CHECK_FALSE(failed.nothingToBuild);

    const CompileResult nothing = detail::nothingToBuildResult(request, Backend::Cold);
    CHECK(nothing.nothingToBuild);
    CHECK_FALSE(nothing.success);
    CHECK(nothing.diagnostics.at(0).message == "nothing to build: no source files");
}

TEST_CASE("result support: errorCount counts errors, not warnings") {
    CompileResult result;
    result.diagnostics = {{"a.cs", 1, 1, Severity::Warning, "CS0168", "unused"},
                          {"a.cs", 2, 1, Severity::Error, "CS1002", "; expected"},
                          {"b.cs", 3, 1, Severity::Error, "CS0103", "no such name"}};
    CHECK(result.errorCount() == 2);
}

TEST_CASE("result support: the output folder is made, or the reason it cannot be") {
    TempDir dir("result-support");
    CompileRequest request;
    CHECK(detail::prepareOutputFolder(request) == "no output path given");
    request.output = dir / "gen/3/Scripts.dll";
    CHECK(detail::prepareOutputFolder(request).empty());
    CHECK(std::filesystem::is_directory(dir / "gen/3"));
    writeFile(dir / "file", "not a folder");
    request.output = dir / "file/Scripts.dll";
    CHECK(detail::prepareOutputFolder(request).rfind("cannot create the output folder", 0) == 0);
}

TEST_CASE(
    "result support: a success without the .dll on disk is a failure, and the .mdb is found") {
    TempDir dir("result-support-outputs");
    CompileResult missing;
    missing.success = true;
    missing.output = dir / "Missing.dll";
    detail::checkOutputs(missing);
    CHECK_FALSE(missing.success);
    CHECK(missing.errorCount() == 1);

    writeFile(dir / "Scripts.dll", "MZ");
    writeFile(dir / "Scripts.dll.mdb", "symbols");
    CompileResult written;
    written.success = true;
    written.output = dir / "Scripts.dll";
    detail::checkOutputs(written);
    CHECK(written.success);
    CHECK(written.symbols == dir / "Scripts.dll.mdb");

    CompileResult failed; // a failure stays as it is
    failed.output = dir / "Missing.dll";
    detail::checkOutputs(failed);
    CHECK(failed.diagnostics.empty());
}
