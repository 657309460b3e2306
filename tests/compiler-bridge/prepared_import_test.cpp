// The compile server's prepared import (compiler-bridge/server/PreparedImport.cs): between
// builds it reads and imports the references of a build like the last one; the next build
// uses that import only when it fits, and its output is exactly what mcs writes without it.
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "compiler_test_support.hpp"

#include <doctest/doctest.h>
#include <optional>

using namespace scripthost::compiler;
using namespace scripthost::testing;
namespace fs = std::filesystem;

namespace {

/// A script that uses what a game script uses: a referenced library's types, generics,
/// lambdas, an iterator, a struct, attributes, a nested type and an async method; with
/// `assemblyAttributes` ("[assembly: …]" lines) after its usings.
std::string scriptSource(const std::string& name, int value,
                         const std::string& assemblyAttributes = "") {
    return "using System;\nusing System.Collections.Generic;\nusing System.Threading.Tasks;\n" +
           assemblyAttributes +
           "namespace Game {\n"
           "  public struct " +
           name + "Pair<T> { public T A, B; }\n  [Serializable] public class " + name +
           " {\n"
           "    public Shape Shape = new Shape();\n"
           "    readonly List<Func<int, int>> steps = new List<Func<int, int>>();\n"
           "    public int Value() { steps.Add(x => x + " +
           std::to_string(value) +
           "); return steps[0](Shape.Sides()); }\n"
           "    public IEnumerable<int> Count() { for (int i = 0; i < 3; ++i) yield return i; }\n"
           "    public async Task<int> Later() { await Task.Yield(); return Value(); }\n"
           "    class Inner { public " +
           name +
           "Pair<string> P; }\n"
           "  }\n}\n";
}

/// A library the scripts reference, written long enough ago that the server prepares with it
/// (an assembly written in the last second may have been read half-written, so it is not).
fs::path buildShapes(const fs::path& dir, const std::string& body) {
    writeFile(dir / "Shapes.cs", "public class Shape { " + body + " }\n");
    CompileRequest request = libraryRequest(dir / "shapes", {dir / "Shapes.cs"}, "Shapes");
    ColdCompiler cold;
    const CompileResult result = cold.compile(request);
    REQUIRE_MESSAGE(result.success, describe(result));
    fs::last_write_time(result.output, fs::file_time_type::clock::now() - std::chrono::seconds(10));
    return result.output;
}

CompileRequest scriptsRequest(const fs::path& dir, const std::string& generation,
                              std::vector<fs::path> sources, const fs::path& shapes) {
    CompileRequest request = libraryRequest(dir / generation, std::move(sources), "Scripts");
    request.references = {shapes};
    return request;
}

std::vector<std::string> formatted(const CompileResult& result) {
    std::vector<std::string> lines;
    for (const Diagnostic& d : result.diagnostics)
        lines.push_back(format(d));
    return lines;
}

WarmCompiler unprepared() {
    WarmCompilerOptions options;
    options.prepareReferences = false;
    return WarmCompiler(options);
}

} // namespace

TEST_CASE("prepared: the next build uses the imported references and writes the same bytes") {
    TempDir dir("prepared-same");
    const fs::path shapes = buildShapes(dir.path(), "public int Sides() { return 4; }");
    const fs::path a = dir / "A.cs";
    const fs::path b = dir / "B.cs";
    writeFile(b, scriptSource("Second", 2));

    std::optional<WarmCompiler> compiler(std::in_place);
    writeFile(a, scriptSource("First", 1));
    const CompileResult first = compiler->compile(scriptsRequest(dir.path(), "g1", {a, b}, shapes));
    REQUIRE_MESSAGE(first.success, describe(first));
    CHECK_FALSE(first.referencesPrepared); // nothing to prepare from before the first build
    const std::optional<int> pid = compiler->serverPid();
    REQUIRE(pid.has_value());

    // An edit, as a save makes it: same files, same arguments, new text.
    REQUIRE(compiler->settle());
    writeFile(a, scriptSource("First", 100));
    const CompileResult edited =
        compiler->compile(scriptsRequest(dir.path(), "g2", {a, b}, shapes));
    REQUIRE_MESSAGE(edited.success, describe(edited));
    CHECK(edited.referencesPrepared);
    CHECK(edited.backend == Backend::Warm);

    // The same sources built without any prepared import, under the same file name.
    WarmCompiler baseline = unprepared();
    const CompileResult expected =
        baseline.compile(scriptsRequest(dir.path(), "baseline", {a, b}, shapes));
    REQUIRE_MESSAGE(expected.success, describe(expected));
    CHECK_FALSE(expected.referencesPrepared);
    CHECK_FALSE(baseline.settle());                  // it never prepares
    CHECK(formatted(edited) == formatted(expected)); // the same warnings (CS0649 for Inner.P)
    CHECK(formatted(edited).size() == 2);
    CHECK(readFile(edited.output) == readFile(expected.output));
    CHECK(readFile(edited.symbols) == readFile(expected.symbols));
    CHECK(readFile(edited.output) != readFile(first.output));

    // The server's scratch folder goes with it.
    const fs::path scratch =
        fs::temp_directory_path() / ("scripthost-compile-server-" + std::to_string(*pid));
    CHECK(fs::exists(scratch / "prepared"));
    compiler.reset(); // QUIT
    CHECK_FALSE(fs::exists(scratch));
}

TEST_CASE("prepared: builds that go back and forth between two assemblies each use an import "
          "kept for them, with the same bytes, until a reference is rebuilt") {
    TempDir dir("prepared-two");
    const fs::path shapes = buildShapes(dir.path(), "public int Sides() { return 4; }");
    const fs::path left = dir / "left" / "Left.cs";
    const fs::path right = dir / "right" / "Right.cs";
    auto request = [&](const fs::path& source, const std::string& generation) {
        CompileRequest r = libraryRequest(dir / generation, {source}, source.stem().string());
        r.references = {shapes};
        return r;
    };
    WarmCompiler compiler;
    int edit = 0;
    auto build = [&](const fs::path& source) {
        writeFile(source, scriptSource(source.stem().string(), ++edit));
        const CompileResult result = compiler.compile(request(source, "g" + std::to_string(edit)));
        REQUIRE_MESSAGE(result.success, describe(result));
        REQUIRE(compiler.settle()); // imported for this one, the other's kept
        return result;
    };
    CHECK_FALSE(build(left).referencesPrepared);
    CHECK_FALSE(build(right).referencesPrepared);
    for (int round = 0; round < 3; ++round) {
        CAPTURE(round);
        CHECK(build(left).referencesPrepared);
        CHECK(build(right).referencesPrepared);
    }
    const CompileResult last = build(left);
    CHECK(last.referencesPrepared);
    WarmCompiler baseline = unprepared();
    const CompileResult expected = baseline.compile(request(left, "baseline"));
    REQUIRE_MESSAGE(expected.success, describe(expected));
    CHECK(readFile(last.output) == readFile(expected.output));

    // Shapes rebuilt: neither kept import fits any more.
    (void)buildShapes(dir.path(), "public int Sides() { return 5; } public int More;");
    writeFile(right, scriptSource("Right", ++edit));
    CHECK_FALSE(compiler.compile(request(right, "after-right")).referencesPrepared);
    writeFile(left, scriptSource("Left", ++edit));
    CHECK_FALSE(compiler.compile(request(left, "after-left")).referencesPrepared);
}

TEST_CASE("prepared: other arguments or a rebuilt reference build without the prepared import") {
    TempDir dir("prepared-misfit");
    const fs::path shapes = buildShapes(dir.path(), "public int Sides() { return 4; }");
    const fs::path a = dir / "A.cs";
    writeFile(a, scriptSource("First", 1));
    WarmCompiler compiler;
    REQUIRE(compiler.compile(scriptsRequest(dir.path(), "g1", {a}, shapes)).success);

    SUBCASE("a file added") {
        REQUIRE(compiler.settle());
        writeFile(dir / "B.cs", scriptSource("Second", 2));
        const CompileResult r =
            compiler.compile(scriptsRequest(dir.path(), "g2", {a, dir / "B.cs"}, shapes));
        CHECK_MESSAGE(r.success, describe(r));
        CHECK_FALSE(r.referencesPrepared);
        CHECK(fileContains(r.output, "Second"));
        // The one after it is prepared with the new file list.
        REQUIRE(compiler.settle());
        const CompileResult next =
            compiler.compile(scriptsRequest(dir.path(), "g3", {a, dir / "B.cs"}, shapes));
        CHECK(next.referencesPrepared);
        CHECK(fileContains(next.output, "Second"));
    }
    SUBCASE("a build that says prepareNext = false leaves the one before it prepared for") {
        REQUIRE(compiler.settle());
        writeFile(dir / "B.cs", scriptSource("Second", 2));
        CompileRequest aside = scriptsRequest(dir.path(), "g2", {dir / "B.cs"}, shapes);
        aside.prepareNext = false;
        const CompileResult r = compiler.compile(aside);
        CHECK_MESSAGE(r.success, describe(r));
        CHECK_FALSE(r.referencesPrepared); // prepared for A's arguments, not these
        // That import went with the build; A's references are imported again.
        REQUIRE(compiler.settle());
        writeFile(a, scriptSource("First", 5));
        const CompileResult next = compiler.compile(scriptsRequest(dir.path(), "g3", {a}, shapes));
        CHECK_MESSAGE(next.success, describe(next));
        CHECK(next.referencesPrepared);
    }
    SUBCASE("a define added") {
        REQUIRE(compiler.settle());
        auto request = scriptsRequest(dir.path(), "g2", {a}, shapes);
        request.defines = {"EDITOR"};
        const CompileResult r = compiler.compile(request);
        CHECK_MESSAGE(r.success, describe(r));
        CHECK_FALSE(r.referencesPrepared);
    }
    SUBCASE("the referenced library rebuilt with a new member the script now uses") {
        REQUIRE(compiler.settle());
        // Same path, new content and time: the import read before is stale.
        const fs::path rebuilt =
            buildShapes(dir.path(), "public int Sides() { return 4; } public int Corners() { "
                                    "return 4; }");
        REQUIRE(rebuilt == shapes);
        fs::last_write_time(shapes, fs::file_time_type::clock::now() - std::chrono::seconds(5));
        writeFile(a, "public class UsesCorners { public int F() { return new "
                     "Shape().Corners(); } }\n");
        const CompileResult r = compiler.compile(scriptsRequest(dir.path(), "g2", {a}, shapes));
        CHECK_MESSAGE(r.success, describe(r));
        CHECK_FALSE(r.referencesPrepared);
    }
    SUBCASE("a reference written in the last second (or dated ahead) is not prepared from") {
        // It may have been read half-written; the clock's direction is all that is checked.
        fs::last_write_time(shapes, fs::file_time_type::clock::now() + std::chrono::seconds(30));
        REQUIRE(compiler.compile(scriptsRequest(dir.path(), "g2", {a}, shapes)).success);
        CHECK_FALSE(compiler.settle());
    }
    CHECK(compiler.stats().coldFallbacks == 0);
}

TEST_CASE("prepared: a failing build reports exactly what cold mcs reports") {
    TempDir dir("prepared-errors");
    const fs::path shapes = buildShapes(dir.path(), "public int Sides() { return 4; }");
    const fs::path a = dir / "A.cs";
    writeFile(a, scriptSource("First", 1));
    WarmCompiler warm;
    REQUIRE(warm.compile(scriptsRequest(dir.path(), "g1", {a}, shapes)).success);
    REQUIRE(warm.settle());

    writeFile(a, "public class Broken {\n  Shape s;\n  Missing m;\n"
                 "  int F() { return s.Corners() + undefinedName; }\n}\n");
    const CompileResult w = warm.compile(scriptsRequest(dir.path(), "g2", {a}, shapes));
    ColdCompiler cold;
    const CompileResult c = cold.compile(scriptsRequest(dir.path(), "cold", {a}, shapes));
    CHECK(w.backend == Backend::Warm);
    CHECK_FALSE(w.success);
    CHECK_FALSE(w.referencesPrepared); // a failure is always reported by a build as asked
    CHECK_FALSE(c.success);
    REQUIRE(w.errorCount() >= 1);
    CHECK(formatted(w) == formatted(c));
    // The fix after it is prepared again.
    REQUIRE(warm.settle());
    writeFile(a, scriptSource("First", 3));
    const CompileResult fixed = warm.compile(scriptsRequest(dir.path(), "g3", {a}, shapes));
    CHECK_MESSAGE(fixed.success, describe(fixed));
    CHECK(fixed.referencesPrepared);
}

TEST_CASE("prepared: a script type named like an imported one builds as it does without it") {
    // mcs parses before it imports; the prepared import reverses that, and mcs's parser then
    // fails on a type with the full name of a referenced one. The build must still succeed as
    // mcs builds it (the script's type wins, with warning CS0436), and the server stops
    // preparing for those sources.
    TempDir dir("prepared-shadow");
    const fs::path shapes = buildShapes(dir.path(), "public int Sides() { return 4; }");
    const fs::path a = dir / "A.cs";
    const std::string shadowing =
        "namespace System { public class Random { public int Next() { return 4; } } }\n"
        "public class Shape { public int Sides() { return 5; } }\n"
        "public class Dice { public int Roll() { return new System.Random().Next() + new "
        "Shape().Sides(); } }\n";
    WarmCompiler compiler;
    writeFile(a, scriptSource("Warm", 1));
    REQUIRE(compiler.compile(scriptsRequest(dir.path(), "g1", {a}, shapes)).success);
    REQUIRE(compiler.settle());
    writeFile(a, shadowing);
    const CompileResult prepared = compiler.compile(scriptsRequest(dir.path(), "g2", {a}, shapes));
    REQUIRE_MESSAGE(prepared.success, describe(prepared));
    CHECK_FALSE(prepared.referencesPrepared);
    CHECK_FALSE(compiler.settle());
    const CompileResult again = compiler.compile(scriptsRequest(dir.path(), "g3", {a}, shapes));
    CHECK_MESSAGE(again.success, describe(again));

    WarmCompiler baseline = unprepared();
    const CompileResult expected =
        baseline.compile(scriptsRequest(dir.path(), "baseline", {a}, shapes));
    REQUIRE_MESSAGE(expected.success, describe(expected));
    CHECK(expected.diagnostics.size() >= 1); // CS0436: the script's Shape wins over Shapes.dll's
    CHECK(formatted(prepared) == formatted(expected));
    CHECK(readFile(prepared.output) == readFile(expected.output));
}

TEST_CASE("prepared: assembly attributes build as they do without it, signing ones the old way") {
    // mcs reads the signing attributes when it creates the assembly builder, which the prepared
    // import did before the sources were parsed; every other assembly attribute is applied
    // later, in both orders.
    TempDir dir("prepared-assembly-attributes");
    const fs::path shapes = buildShapes(dir.path(), "public int Sides() { return 4; }");
    const fs::path a = dir / "A.cs";
    WarmCompiler compiler;
    WarmCompiler baseline = unprepared();
    writeFile(a, scriptSource("Warm", 1));
    REQUIRE(compiler.compile(scriptsRequest(dir.path(), "g1", {a}, shapes)).success);

    REQUIRE(compiler.settle());
    writeFile(a, scriptSource("Versioned", 2,
                              "[assembly: System.Reflection.AssemblyVersion(\"1.2.3.4\")]\n"
                              "[assembly: System.Reflection.AssemblyTitle(\"Arena scripts\")]\n"));
    const CompileResult versioned = compiler.compile(scriptsRequest(dir.path(), "g2", {a}, shapes));
    REQUIRE_MESSAGE(versioned.success, describe(versioned));
    CHECK(versioned.referencesPrepared);
    const CompileResult versionedBaseline =
        baseline.compile(scriptsRequest(dir.path(), "b2", {a}, shapes));
    REQUIRE_MESSAGE(versionedBaseline.success, describe(versionedBaseline));
    CHECK(readFile(versioned.output) == readFile(versionedBaseline.output));
    CHECK(fileContains(versioned.output, "Arena scripts")); // the attribute was applied

    REQUIRE(compiler.settle());
    writeFile(a,
              scriptSource("Signed", 3, "[assembly: System.Reflection.AssemblyDelaySign(true)]\n"));
    const CompileResult signed_ = compiler.compile(scriptsRequest(dir.path(), "g3", {a}, shapes));
    CHECK_FALSE(signed_.referencesPrepared);
    const CompileResult signedBaseline =
        baseline.compile(scriptsRequest(dir.path(), "b3", {a}, shapes));
    CHECK(signed_.success == signedBaseline.success);
    // CS1699 (use the compiler option) and CS1607 (no key file), as mcs reports them.
    CHECK(formatted(signed_) == formatted(signedBaseline));
    CHECK(describe(signedBaseline).find("CS1699") != std::string::npos);
    CHECK_FALSE(compiler.settle()); // not prepared again for these arguments
}
