// ColdCompiler: one mcs process per build.
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_test_support.hpp"

#include <cerrno>
#include <csignal>
#include <doctest/doctest.h>

using namespace scripthost::compiler;
using namespace scripthost::testing;

TEST_CASE("cold: a good library builds, with its .mdb beside it") {
    TempDir dir("cold");
    writeFile(dir / "Good.cs", "public class Good { public int Answer() { return 42; } }\n");
    ColdCompiler compiler;
    const CompileResult result = compiler.compile(libraryRequest(dir.path(), {dir / "Good.cs"}));
    REQUIRE_MESSAGE(result.success, describe(result));
    CHECK(result.backend == Backend::Cold);
    CHECK(result.errorCount() == 0);
    CHECK(std::filesystem::is_regular_file(result.output));
    CHECK(fileContains(result.output, "Good"));
    CHECK(result.symbols == std::filesystem::path(result.output.string() + ".mdb"));
    CHECK(std::filesystem::is_regular_file(result.symbols));
    CHECK_FALSE(result.timedOut);
}

TEST_CASE("cold: compile errors give an unsuccessful result with diagnostics") {
    TempDir dir("cold");
    writeFile(dir / "Bad.cs", "public class Bad { public int F() { return nope; } }\n");
    const CompileResult result =
        ColdCompiler().compile(libraryRequest(dir.path(), {dir / "Bad.cs"}));
    CHECK_FALSE(result.success);
    REQUIRE(result.errorCount() == 1);
    CHECK(result.diagnostics[0].code == "CS0103");
    CHECK(result.diagnostics[0].line == 1);
    CHECK_FALSE(std::filesystem::exists(result.output));
}

TEST_CASE("cold: references and defines reach mcs") {
    TempDir dir("cold");
    writeFile(dir / "Base.cs", "public class Base { public static int Value = 3; }\n");
    ColdCompiler compiler;
    const CompileResult base =
        compiler.compile(libraryRequest(dir.path(), {dir / "Base.cs"}, "Base"));
    REQUIRE_MESSAGE(base.success, describe(base));

    writeFile(
        dir / "User.cs",
        "public class User {\n#if FLAVOUR\n public int F() { return Base.Value; }\n#endif\n}\n");
    auto request = libraryRequest(dir / "u", {dir / "User.cs"}, "User");
    request.references = {base.output};
    request.defines = {"FLAVOUR"};
    const CompileResult user = compiler.compile(request);
    CHECK_MESSAGE(user.success, describe(user));

    request.references.clear(); // without the reference, Base is unknown
    const CompileResult unresolved = compiler.compile(request);
    CHECK_FALSE(unresolved.success);
    CHECK(unresolved.errorCount() >= 1);
}

TEST_CASE("cold: a hung compiler is killed at the timeout") {
    TempDir dir("cold");
    writeFile(dir / "A.cs", "class A {}\n");
    // Records its pid, prints a line, then hangs (exec: the shell itself becomes the sleeper).
    const auto pidFile = dir / "pid";
    const auto fake = writeScript(dir / "fake-mcs", "echo $$ > '" + pidFile.string() +
                                                        "'\necho starting\nexec sleep 600\n");
    auto request = libraryRequest(dir.path(), {dir / "A.cs"});
    request.timeout = std::chrono::milliseconds(300);
    const CompileResult result = ColdCompiler(fake).compile(request);
    CHECK(result.timedOut);
    CHECK_FALSE(result.success);
    REQUIRE(result.errorCount() == 1);
    CHECK(result.diagnostics[0].message.find("timed out") != std::string::npos);
    CHECK(result.log.find("starting") != std::string::npos);
    // compile() returned, so the hung process must be gone (killed and reaped), not sleeping on.
    const int pid = std::stoi(readFile(pidFile));
    CHECK(::kill(pid, 0) == -1);
    CHECK(errno == ESRCH);
}

TEST_CASE("cold: megabytes of compiler output on both pipes do not deadlock") {
    TempDir dir("cold");
    writeFile(dir / "A.cs", "class A {}\n");
    // 4 MB of diagnostics on stderr and 4 MB of noise on stdout, far above pipe buffers.
    const auto fake =
        writeScript(dir / "loud-mcs",
                    "i=0\nwhile [ $i -lt 40000 ]; do\n"
                    "  echo \"A.cs($i,1): error CS0103: The name \\`x$i' does not exist in the "
                    "current context padding padding\" >&2\n"
                    "  echo \"stdout noise line $i "
                    "........................................................................\"\n"
                    "  i=$((i+1))\ndone\nexit 1\n");
    auto request = libraryRequest(dir.path(), {dir / "A.cs"});
    const CompileResult result = ColdCompiler(fake).compile(request);
    CHECK_FALSE(result.timedOut);
    CHECK_FALSE(result.success);
    CHECK(result.errorCount() == 40000);
    CHECK(result.diagnostics.back().line == 39999);
}

TEST_CASE("cold: thousands of real errors are all reported") {
    TempDir dir("cold");
    std::string source = "class Many {\n";
    for (int i = 0; i < 3000; ++i) {
        source +=
            "  int F" + std::to_string(i) + "() { return missing" + std::to_string(i) + "; }\n";
    }
    writeFile(dir / "Many.cs", source + "}\n");
    const CompileResult result =
        ColdCompiler().compile(libraryRequest(dir.path(), {dir / "Many.cs"}));
    CHECK_FALSE(result.success);
    CHECK(result.errorCount() == 3000);
}

TEST_CASE("cold: a missing mcs is a clear failure") {
    TempDir dir("cold");
    writeFile(dir / "A.cs", "class A {}\n");
    const CompileResult result =
        ColdCompiler("scripthost-no-such-mcs").compile(libraryRequest(dir.path(), {dir / "A.cs"}));
    CHECK_FALSE(result.success);
    REQUIRE(result.errorCount() == 1);
    CHECK(result.diagnostics[0].message.find("scripthost-no-such-mcs") != std::string::npos);
}

TEST_CASE("cold: the command line carries outputs, references, defines and sources") {
    CompileRequest request;
    request.sources = {"a b.cs"};
    request.references = {"/x/ScriptCore.dll"};
    request.defines = {"DEBUG"};
    request.output = "/o/S.dll";
    const auto args = ColdCompiler::arguments(request);
    const std::vector<std::string> expected{
        "-nologo", "-target:library",      "-langversion:7.2", "-out:/o/S.dll",
        "-debug",  "-r:/x/ScriptCore.dll", "-define:DEBUG",    "a b.cs"};
    CHECK(args == expected);
    request.allowUnsafeCode = true;
    request.debugSymbols = false;
    const std::vector<std::string> unsafeArgs{
        "-nologo", "-target:library",      "-langversion:7.2", "-out:/o/S.dll",
        "-unsafe", "-r:/x/ScriptCore.dll", "-define:DEBUG",    "a b.cs"};
    CHECK(ColdCompiler::arguments(request) == unsafeArgs);
}

TEST_CASE("cold: unsafe code builds only when the request allows it") {
    TempDir dir("cold-unsafe");
    writeFile(dir / "A.cs", "public class A { public unsafe int Peek() { int x = 3; int* p = &x; "
                            "return *p; } }\n");
    ColdCompiler compiler;
    CompileRequest request = libraryRequest(dir.path(), {dir / "A.cs"});
    const CompileResult refused = compiler.compile(request);
    CHECK_FALSE(refused.success);
    REQUIRE(refused.errorCount() == 1);
    CHECK(refused.diagnostics[0].code == "CS0227");
    request.allowUnsafeCode = true;
    const CompileResult built = compiler.compile(request);
    CHECK_MESSAGE(built.success, describe(built));
}
