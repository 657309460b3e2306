// Bad input on both backends: each case gives a clear result, never a crash or a hang.
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/source_files.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "compiler_test_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using namespace scripthost::testing;

namespace {

std::unique_ptr<Compiler> makeCompiler(Backend backend) {
    if (backend == Backend::Warm) {
        return std::make_unique<WarmCompiler>();
    }
    return std::make_unique<ColdCompiler>();
}

const Backend bothBackends[] = {Backend::Cold, Backend::Warm};

} // namespace

TEST_CASE("bad input: an empty file builds an empty library") {
    for (const Backend backend : bothBackends) {
        CAPTURE(backendName(backend));
        TempDir dir("bad");
        writeFile(dir / "Empty.cs", "");
        const CompileResult result =
            makeCompiler(backend)->compile(libraryRequest(dir.path(), {dir / "Empty.cs"}));
        CHECK_MESSAGE(result.success, describe(result));
        CHECK(result.backend == backend);
        CHECK(std::filesystem::is_regular_file(result.output));
    }
}

TEST_CASE("bad input: invalid UTF-8 in a source and in an identifier") {
    for (const Backend backend : bothBackends) {
        CAPTURE(backendName(backend));
        TempDir dir("bad");
        // In a string literal mcs accepts it (replacement characters)...
        writeFile(dir / "Bytes.cs",
                  "public class Bytes { public string S = \"\xff\xfe \xc3 end\"; }\n");
        auto compiler = makeCompiler(backend);
        const CompileResult inString =
            compiler->compile(libraryRequest(dir.path(), {dir / "Bytes.cs"}));
        CHECK_MESSAGE(inString.success, describe(inString));
        // ...as code it is an error, reported with a location, and the message text survives.
        writeFile(dir / "Code.cs", "public class Code { int \xff\xfe = \xc3; }\n");
        const CompileResult inCode =
            compiler->compile(libraryRequest(dir / "2", {dir / "Code.cs"}));
        CHECK_FALSE(inCode.success);
        CHECK(inCode.backend == backend);
        REQUIRE(inCode.errorCount() >= 1);
        CHECK(inCode.diagnostics[0].file == (dir / "Code.cs").string());
        CHECK(inCode.diagnostics[0].line == 1);
    }
}

TEST_CASE("bad input: a 5 MB generated file builds") {
    TempDir dir("bad");
    std::string source = "public class Big {\n";
    for (int i = 0; source.size() < 5 * 1024 * 1024; ++i) {
        source += "    public int Method" + std::to_string(i) + "(int x) { return x * " +
                  std::to_string(i % 97) + " + " + std::to_string(i) + "; }\n";
    }
    writeFile(dir / "Big.cs", source + "}\n");
    WarmCompiler compiler;
    const CompileResult result = compiler.compile(libraryRequest(dir.path(), {dir / "Big.cs"}));
    CHECK_MESSAGE(result.success, describe(result));
    CHECK(result.backend == Backend::Warm);
    CHECK(std::filesystem::file_size(result.output) > 1024 * 1024);
}

TEST_CASE("bad input: a file deleted between the change event and the build") {
    for (const Backend backend : bothBackends) {
        CAPTURE(backendName(backend));
        TempDir dir("bad");
        writeFile(dir / "Kept.cs", "public class Kept {}\n");
        writeFile(dir / "Gone.cs", "public class Gone {}\n");
        const auto sources = collectSources(dir.path()); // the event's view of the folder
        std::filesystem::remove(dir / "Gone.cs");
        const CompileResult result =
            makeCompiler(backend)->compile(libraryRequest(dir.path(), sources));
        CHECK_FALSE(result.success);
        CHECK(result.backend == backend);
        REQUIRE(result.errorCount() == 1);
        CHECK(result.diagnostics[0].code == "CS2001");
        CHECK(result.diagnostics[0].message.find("Gone.cs") != std::string::npos);
    }
}

TEST_CASE("bad input: a folder with no .cs files is 'nothing to build'") {
    for (const Backend backend : bothBackends) {
        CAPTURE(backendName(backend));
        TempDir dir("bad");
        writeFile(dir / "notes.txt", "no code here");
        const CompileResult result =
            makeCompiler(backend)->compile(libraryRequest(dir.path(), collectSources(dir.path())));
        CHECK(result.nothingToBuild);
        CHECK_FALSE(result.success);
        REQUIRE(result.errorCount() == 1);
        CHECK(result.diagnostics[0].message == "nothing to build: no source files");
        CHECK_FALSE(std::filesystem::exists(dir / "out"));
    }
}
