// WarmCompiler: the resident compile server, its state across builds, and its fallbacks.
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "compiler_test_support.hpp"
#include "server_protocol.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <doctest/doctest.h>
#include <optional>

using namespace scripthost::compiler;
using namespace scripthost::testing;

namespace {

/// A source whose class name is unique per generation (so each dll is recognisable), valid or
/// with one error.
std::string generationSource(int generation, bool broken) {
    const std::string name = "Generation" + std::to_string(generation);
    return "public class " + name + " {\n  public int Value() { return " +
           (broken ? "notDeclared" + std::to_string(generation) : std::to_string(generation)) +
           "; }\n}\n";
}

/// The shell line of a fake server announcing itself with the protocol version we speak.
std::string readyLine() {
    return "echo 'READY " + std::to_string(protocol::version) + " fake'\n";
}

} // namespace

TEST_CASE("warm: the compile server is found beside the executable") {
    CHECK(std::filesystem::is_regular_file(defaultCompileServerPath()));
    CHECK(defaultCompileServerPath().parent_path() == executableDirectory());
}

TEST_CASE("warm: 20 builds in a row, errors followed by fixed code, all correct") {
    TempDir dir("warm");
    CapturedLog log;
    WarmCompiler compiler;
    compiler.warmUp();
    REQUIRE(compiler.serverPid().has_value());
    const auto source = dir / "Script.cs";
    std::string previousDll;
    for (int i = 0; i < 20; ++i) {
        CAPTURE(i);
        const bool broken = i % 3 == 1; // bad, then the next build fixes it
        writeFile(source, generationSource(i, broken));
        auto request = libraryRequest(dir / ("gen" + std::to_string(i)), {source}, "Scripts");
        const CompileResult result = compiler.compile(request);
        CHECK_MESSAGE(result.backend == Backend::Warm, describe(result));
        CHECK(result.fallbackReason.empty());
        if (broken) {
            CHECK_FALSE(result.success);
            REQUIRE(result.errorCount() == 1);
            CHECK(result.diagnostics[0].code == "CS0103");
            CHECK(result.diagnostics[0].file == source.string());
            CHECK(result.diagnostics[0].line == 2);
            CHECK(result.diagnostics[0].message.find("notDeclared" + std::to_string(i)) !=
                  std::string::npos);
            CHECK_FALSE(std::filesystem::exists(request.output));
        } else {
            REQUIRE_MESSAGE(result.success, describe(result));
            CHECK(result.diagnostics.empty());
            CHECK(std::filesystem::is_regular_file(result.symbols));
            const std::string dll = readFile(result.output);
            CHECK(dll.find("Generation" + std::to_string(i)) != std::string::npos);
            CHECK(dll != previousDll);
            previousDll = dll;
        }
    }
    const WarmCompilerStats stats = compiler.stats();
    CHECK(stats.warmBuilds == 20);
    CHECK(stats.coldFallbacks == 0);
    CHECK(stats.serverStarts == 1);
    CHECK(log.warnings() == 0);
}

TEST_CASE("warm: a rebuilt reference is seen by the next build (no stale reference cache)") {
    TempDir dir("warm");
    WarmCompiler compiler;
    const auto core = dir / "Core.cs";
    const auto user = dir / "User.cs";
    const auto coreDll = dir / "core" / "Core.dll";
    writeFile(core, "public class Core { public static int Old() { return 1; } }\n");
    auto coreRequest = libraryRequest(dir.path(), {core});
    coreRequest.output = coreDll;
    REQUIRE(compiler.compile(coreRequest).success);

    writeFile(user, "public class User { public int F() { return Core.New(); } }\n");
    auto userRequest = libraryRequest(dir / "u1", {user}, "User");
    userRequest.references = {coreDll};
    const CompileResult before = compiler.compile(userRequest);
    CHECK_FALSE(before.success); // Core.New does not exist yet
    CHECK(before.backend == Backend::Warm);

    writeFile(core, "public class Core { public static int New() { return 2; } }\n");
    REQUIRE(compiler.compile(coreRequest).success); // same path, new content
    userRequest.output = dir / "u2" / "User.dll";
    const CompileResult after = compiler.compile(userRequest);
    CHECK_MESSAGE(after.success, describe(after));
    CHECK(after.backend == Backend::Warm);
}

TEST_CASE("warm: relative paths mean the same as for mcs (the server builds in our folder)") {
    TempDir dir("warm");
    writeFile(dir / "Rel.cs", "public class Rel {}\n");
    const auto previous = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    WarmCompiler compiler;
    CompileRequest request;
    request.sources = {"Rel.cs"};
    request.output = "out/Rel.dll";
    const CompileResult result = compiler.compile(request);
    std::filesystem::current_path(previous);
    CHECK_MESSAGE(result.success, describe(result));
    CHECK(result.backend == Backend::Warm);
    CHECK(std::filesystem::is_regular_file(dir / "out" / "Rel.dll"));
}

TEST_CASE("warm: killing the server mid-build falls back to cold once, then recovers") {
    TempDir dir("warm");
    CapturedLog log;
    const auto source = dir / "Script.cs";
    WarmCompilerOptions options;
    bool killNext = false;
    int killedPid = 0;
    options.onRequestSent = [&](int pid) {
        if (killNext) {
            killNext = false;
            killedPid = pid;
            ::kill(pid, SIGKILL); // the server has the request: it dies mid-build
        }
    };
    WarmCompiler compiler(options);

    writeFile(source, generationSource(1, false));
    const CompileResult first = compiler.compile(libraryRequest(dir / "g1", {source}));
    REQUIRE_MESSAGE(first.success, describe(first));
    CHECK(first.backend == Backend::Warm);
    const std::optional<int> firstPid = compiler.serverPid();
    REQUIRE(firstPid.has_value());

    killNext = true;
    writeFile(source, generationSource(2, false));
    const CompileResult fallback = compiler.compile(libraryRequest(dir / "g2", {source}));
    CHECK(killedPid == *firstPid);
    REQUIRE_MESSAGE(fallback.success, describe(fallback));
    CHECK(fallback.backend == Backend::Cold);
    CHECK(fallback.fallbackReason.find("exited") != std::string::npos);
    CHECK(fileContains(fallback.output, "Generation2"));
    CHECK(log.warnings() == 1);

    writeFile(source, generationSource(3, true));
    const CompileResult next = compiler.compile(libraryRequest(dir / "g3", {source}));
    CHECK(next.backend == Backend::Warm);
    CHECK_FALSE(next.success);
    CHECK(next.errorCount() == 1);
    REQUIRE(compiler.serverPid().has_value());
    CHECK(*compiler.serverPid() != *firstPid);

    const WarmCompilerStats stats = compiler.stats();
    CHECK(stats.coldFallbacks == 1);
    CHECK(stats.warmBuilds == 2);
    CHECK(stats.serverStarts == 2);
    CHECK(log.warnings() == 1);
}

TEST_CASE("warm: a hung server is killed at the request's timeout and the build runs cold") {
    TempDir dir("warm");
    CapturedLog log;
    // Announces itself, then reads requests forever without answering.
    const auto hung =
        writeScript(dir / "hung-server", readyLine() + "while read line; do :; done\n");
    WarmCompilerOptions options;
    options.mono = "/bin/sh"; // runs `/bin/sh <server> --mcs=... --warmup`
    options.server = hung;
    WarmCompiler compiler(options);
    compiler.warmUp();
    const std::optional<int> hungPid = compiler.serverPid();
    REQUIRE(hungPid.has_value());
    writeFile(dir / "A.cs", generationSource(1, false));
    auto request = libraryRequest(dir.path(), {dir / "A.cs"});
    request.timeout =
        std::chrono::seconds(3); // the cold fallback gets the same: room for mcs on a busy machine
    const CompileResult result = compiler.compile(request);
    CHECK_MESSAGE(result.success, describe(result));
    CHECK(result.backend == Backend::Cold);
    CHECK(result.fallbackReason.find("in time") != std::string::npos);
    CHECK(log.warnings() == 1);
    CHECK(compiler.stats().serverStarts == 2); // the replacement was started at once
    // The hung server was killed and reaped: no process, not even a zombie, is left.
    CHECK(::kill(*hungPid, 0) == -1);
    CHECK(errno == ESRCH);
}

TEST_CASE("warm: a server answering garbage is replaced and the build runs cold") {
    TempDir dir("warm");
    CapturedLog log;
    const auto noisy =
        writeScript(dir / "garbage-server",
                    readyLine() + "while read line; do echo 'Unhandled Exception: boom'; done\n");
    WarmCompilerOptions options;
    options.mono = "/bin/sh";
    options.server = noisy;
    WarmCompiler compiler(options);
    writeFile(dir / "A.cs", generationSource(1, true));
    const CompileResult result = compiler.compile(libraryRequest(dir.path(), {dir / "A.cs"}));
    CHECK(result.backend == Backend::Cold);
    CHECK(result.fallbackReason.find("garbage") != std::string::npos);
    CHECK_FALSE(result.success);
    CHECK(result.errorCount() == 1); // the real error, found by the cold build
    CHECK(log.warnings() == 1);
}

TEST_CASE("warm: a server that cannot start means cold builds and one warning") {
    TempDir dir("warm");
    CapturedLog log;
    WarmCompilerOptions options;
    options.server = dir / "missing-server.exe";
    WarmCompiler compiler(options);
    writeFile(dir / "A.cs", generationSource(1, false));
    for (int i = 0; i < 3; ++i) {
        const CompileResult result =
            compiler.compile(libraryRequest(dir / std::to_string(i), {dir / "A.cs"}));
        CHECK_MESSAGE(result.success, describe(result));
        CHECK(result.backend == Backend::Cold);
        CHECK(result.fallbackReason.find("server") != std::string::npos);
    }
    CHECK(log.warnings() == 1); // not one per build: retried only after retryStartAfter
    CHECK(log.text().find("missing-server.exe") != std::string::npos);
    CHECK(compiler.stats().coldFallbacks == 3);
}

TEST_CASE("warm: a server that exits at start-up is reported, builds still succeed") {
    TempDir dir("warm");
    CapturedLog log;
    const auto dying =
        writeScript(dir / "dying-server", "echo 'cannot load mcs.exe' >&2\nexit 3\n");
    WarmCompilerOptions options;
    options.mono = "/bin/sh";
    options.server = dying;
    WarmCompiler compiler(options);
    writeFile(dir / "A.cs", generationSource(1, false));
    const CompileResult result = compiler.compile(libraryRequest(dir.path(), {dir / "A.cs"}));
    CHECK(result.success);
    CHECK(result.backend == Backend::Cold);
    CHECK(log.text().find("cannot load mcs.exe") != std::string::npos);
    CHECK(log.warnings() == 1);
}

TEST_CASE("warm: recycling after N builds restarts the server and keeps results right") {
    TempDir dir("warm");
    WarmCompilerOptions options;
    options.recycleAfterBuilds = 2;
    options.serverWarmUp = false;
    WarmCompiler compiler(options);
    for (int i = 0; i < 5; ++i) {
        writeFile(dir / "A.cs", generationSource(i, false));
        const CompileResult result =
            compiler.compile(libraryRequest(dir / std::to_string(i), {dir / "A.cs"}));
        CHECK_MESSAGE(result.success, describe(result));
        CHECK(result.backend == Backend::Warm);
        CHECK(fileContains(result.output, "Generation" + std::to_string(i)));
    }
    CHECK(compiler.stats().serverStarts == 3); // 2 + 2 + 1 builds
}

namespace {

/// MONO_GC_PARAMS in a running process's environment (nullopt when it has none).
std::optional<std::string> gcParamsOf(int pid) {
    const std::string environ = readFile("/proc/" + std::to_string(pid) + "/environ");
    const std::string key = "MONO_GC_PARAMS=";
    for (std::size_t at = 0; at < environ.size();) {
        const std::size_t end = std::min(environ.find('\0', at), environ.size());
        if (environ.compare(at, key.size(), key) == 0) {
            return environ.substr(at + key.size(), end - at - key.size());
        }
        at = end + 1;
    }
    return std::nullopt;
}

} // namespace

TEST_CASE("warm: the server runs with its GC parameters, unless the environment sets its own") {
    TempDir dir("warm-gc");
    const auto source = dir / "Script.cs";
    writeFile(source, generationSource(1, false));
    const char* exported = std::getenv("MONO_GC_PARAMS");
    const std::optional<std::string> saved =
        exported ? std::optional<std::string>(exported) : std::nullopt;
    ::unsetenv("MONO_GC_PARAMS");
    {
        WarmCompilerOptions options;
        options.serverGcParams = "nursery-size=16m";
        WarmCompiler compiler(options);
        const CompileResult result = compiler.compile(libraryRequest(dir / "a", {source}, "A"));
        CHECK_MESSAGE(result.success, describe(result));
        CHECK(result.backend == Backend::Warm);
        REQUIRE(compiler.serverPid().has_value());
        CHECK(gcParamsOf(*compiler.serverPid()) == std::optional<std::string>("nursery-size=16m"));
    }
    {
        WarmCompilerOptions options;
        options.serverGcParams = "";
        WarmCompiler compiler(options);
        compiler.warmUp();
        REQUIRE(compiler.serverPid().has_value());
        CHECK(gcParamsOf(*compiler.serverPid()) == std::nullopt);
    }
    ::setenv("MONO_GC_PARAMS", "nursery-size=8m", 1);
    {
        WarmCompiler compiler; // the default nursery-size=32m yields to the exported value
        compiler.warmUp();
        REQUIRE(compiler.serverPid().has_value());
        CHECK(gcParamsOf(*compiler.serverPid()) == std::optional<std::string>("nursery-size=8m"));
    }
    if (saved) {
        ::setenv("MONO_GC_PARAMS", saved->c_str(), 1);
    } else {
        ::unsetenv("MONO_GC_PARAMS");
    }
}

TEST_CASE("warm: every default reference of mcs is still there (System.Xml, dynamic, LINQ)") {
    // The server first builds without System.Xml and Microsoft.CSharp (CompileServer.cs,
    // LeanArguments); a script that needs them must still build, warm.
    TempDir dir("warm-refs");
    WarmCompiler compiler;
    const auto xml = dir / "Xml.cs";
    writeFile(xml, "using System.Xml;\npublic class UsesXml {\n"
                   "  public string F() { var d = new XmlDocument(); d.LoadXml(\"<a>7</a>\"); "
                   "return d.DocumentElement.InnerText; }\n}\n");
    const auto dyn = dir / "Dynamic.cs";
    writeFile(dyn, "public class UsesDynamic {\n"
                   "  public object F(dynamic d) { return d.Length + 1; }\n}\n");
    const auto linq = dir / "Linq.cs";
    writeFile(linq, "using System.Linq;\nusing System.Collections.Generic;\n"
                    "public class UsesLinq {\n"
                    "  public int F(List<int> xs) { return xs.Where(x => x > 1).Sum() + "
                    "new Queue<int>().Count; }\n}\n");
    int n = 0;
    for (const auto& source : {xml, dyn, linq}) {
        CAPTURE(source);
        const CompileResult result =
            compiler.compile(libraryRequest(dir / ("g" + std::to_string(n++)), {source}, "S"));
        CHECK_MESSAGE(result.success, describe(result));
        CHECK(result.backend == Backend::Warm);
        CHECK(result.diagnostics.empty());
    }
    // A qualified name from System.Xml, with no using, too.
    const auto qualified = dir / "Qualified.cs";
    writeFile(qualified, "public class Q { public System.Xml.XmlNode Node; }\n");
    const CompileResult result = compiler.compile(libraryRequest(dir / "q", {qualified}, "Q"));
    CHECK_MESSAGE(result.success, describe(result));
    CHECK(fileContains(result.output, "System.Xml"));
}

TEST_CASE("warm: builds that need more references than the last one, and fewer, all build") {
    // The server starts with mscorlib only and moves up a set of references (System and
    // System.Core, then as asked) when a build needed more (CompileServer.cs, LeanArguments);
    // every build must still succeed as it would cold, in any order.
    TempDir dir("warm-ref-levels");
    WarmCompiler compiler;
    const std::vector<std::pair<std::string, std::string>> sources{
        {"Plain", "using System.Collections.Generic;\npublic class Plain { public List<int> Xs = "
                  "new List<int>(); public int F() { return Xs.Count + Xs.Capacity; } }\n"},
        {"Watch", "public class Watch { public long F() { var w = "
                  "System.Diagnostics.Stopwatch.StartNew(); return w.ElapsedTicks; } }\n"},
        {"Plain2", "public class Plain2 { public string F(int x) { return x.ToString(); } }\n"},
        {"Linq", "using System.Linq;\npublic class Linq { public int F(int[] xs) { return "
                 "xs.Where(x => x > 1).Count(); } }\n"},
        {"Xml", "public class Xml { public System.Xml.XmlNode Node; }\n"},
        {"Plain3", "public class Plain3 { public int F() { return 3; } }\n"},
        {"Broken", "public class Broken { public int F() { return nothing; } }\n"},
        {"Plain4", "public class Plain4 { public int F() { return 4; } }\n"}};
    int n = 0;
    for (const auto& [name, text] : sources) {
        CAPTURE(name);
        const auto source = dir / (name + ".cs");
        writeFile(source, text);
        const CompileResult result =
            compiler.compile(libraryRequest(dir / ("g" + std::to_string(n++)), {source}, name));
        CHECK(result.backend == Backend::Warm);
        if (name == "Broken") {
            CHECK_FALSE(result.success);
            CHECK(describe(result).find("CS0103") != std::string::npos);
            continue;
        }
        CHECK_MESSAGE(result.success, describe(result));
        CHECK(result.diagnostics.empty());
        CHECK(std::filesystem::exists(result.output));
    }
}

TEST_CASE("warm: a failing build reports exactly what cold mcs reports") {
    TempDir dir("warm-same-errors");
    WarmCompiler warm;
    ColdCompiler cold;
    const auto source = dir / "Broken.cs";
    writeFile(source, "using System.Xml;\nusing Nowhere.AtAll;\n"
                      "public class Broken {\n  XmlDocument doc;\n  Missing m;\n"
                      "  int F() { return undefinedName; }\n}\n");
    const CompileResult w = warm.compile(libraryRequest(dir / "w", {source}, "B"));
    const CompileResult c = cold.compile(libraryRequest(dir / "c", {source}, "B"));
    CHECK(w.backend == Backend::Warm);
    CHECK_FALSE(w.success);
    CHECK_FALSE(c.success);
    REQUIRE(w.diagnostics.size() == c.diagnostics.size());
    // Nowhere and Missing (mcs stops before method bodies); XmlDocument resolves.
    REQUIRE(w.errorCount() == 2);
    for (std::size_t i = 0; i < w.diagnostics.size(); ++i) {
        CAPTURE(i);
        CHECK(format(w.diagnostics[i]) == format(c.diagnostics[i]));
    }
}

TEST_CASE("warm: unsafe code builds only when the request allows it") {
    TempDir dir("warm-unsafe");
    writeFile(dir / "A.cs", "public class A { public unsafe int Peek() { int x = 3; int* p = &x; "
                            "return *p; } }\n");
    WarmCompiler compiler;
    CompileRequest request = libraryRequest(dir.path(), {dir / "A.cs"});
    const CompileResult refused = compiler.compile(request);
    CHECK_FALSE(refused.success);
    CHECK(refused.backend == Backend::Warm);
    REQUIRE(refused.errorCount() == 1);
    CHECK(refused.diagnostics[0].code == "CS0227");
    request.allowUnsafeCode = true;
    const CompileResult built = compiler.compile(request);
    CHECK_MESSAGE(built.success, describe(built));
    CHECK(built.backend == Backend::Warm);
}
