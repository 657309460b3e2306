// Compiler::interfaceOf through the compile server (server/AssemblyInterface.cs): what other
// assemblies can see of a build. Each case builds the base library and an edited copy with
// the real server and mcs and compares the two hashes.
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "compiler_test_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using namespace scripthost::testing;
namespace fs = std::filesystem;

namespace {

const std::string kBase = R"(using System;
using System.Collections.Generic;
namespace Lib {
    public struct Point { public int X; }
    public class Thing {
        public const int Limit = 10;
        public int Value(int scale = 2) { return scale * 3; }
        internal int Hidden() { return 1; }
        int Private() { return 2; }
        public event Action Changed;
        public int Count { get; private set; }
        protected virtual void OnChanged() { if (Changed != null) Changed(); }
    }
}
)";

/// kBase with the first `from` replaced by `to`.
std::string edited(const std::string& from, const std::string& to) {
    std::string text = kBase;
    const std::size_t at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    return text.replace(at, from.size(), to);
}

/// `source` with [InternalsVisibleTo] (after its usings).
std::string withFriend(std::string source) {
    const std::string at = "namespace Lib {";
    return source.replace(source.find(at), 0,
                          "[assembly: System.Runtime.CompilerServices.InternalsVisibleTo("
                          "\"Friend\")]\n");
}

/// Builds `source` as Lib.dll in a folder of its own under `dir` and returns its interface.
std::optional<std::string> interfaceOfBuild(WarmCompiler& compiler, const fs::path& dir,
                                            const std::string& name, const std::string& source) {
    const fs::path folder = dir / name;
    writeFile(folder / "Thing.cs", source);
    CompileRequest request = libraryRequest(folder, {folder / "Thing.cs"});
    const CompileResult result = compiler.compile(request);
    REQUIRE_MESSAGE(result.success, describe(result));
    REQUIRE(result.backend == Backend::Warm);
    return compiler.interfaceOf(result.output);
}

} // namespace

TEST_CASE("interfaceOf: an edit of what no other assembly can see keeps the hash, and an edit of "
          "what one can see changes it") {
    TempDir dir{"assembly-interface"};
    WarmCompiler compiler;
    const std::optional<std::string> base = interfaceOfBuild(compiler, dir.path(), "base", kBase);
    REQUIRE(base.has_value());
    CHECK(base->size() == 64);
    CHECK(interfaceOfBuild(compiler, dir.path(), "again", kBase) ==
          base); // (a new MVID each build)

    SUBCASE("kept") {
        const std::vector<std::pair<std::string, std::string>> kept{
            {"a method body", edited("return scale * 3;", "return scale * 4 + Private();")},
            {"a private method and field",
             edited("int Private()", "int other; int Other() { return other; }\n int Private()")},
            {"a lambda and an iterator in bodies (compiler-generated types)",
             edited("return 2; }", "Func<int> f = () => 2; return f(); }\n"
                                   "        IEnumerable<int> Many() { yield return 1; }")},
            {"an internal method, without InternalsVisibleTo",
             edited("internal int Hidden() { return 1; }",
                    "internal int Hidden(int x) { return x; }")},
            {"a comment", edited("namespace Lib {", "// a comment\nnamespace Lib {")},
        };
        for (const auto& [what, source] : kept) {
            CAPTURE(what);
            CHECK(interfaceOfBuild(compiler, dir.path(), "kept", source) == base);
        }
    }
    SUBCASE("changed") {
        const std::vector<std::pair<std::string, std::string>> changed{
            {"a public method added",
             edited("internal int Hidden()", "public void Added() {}\n internal int Hidden()")},
            {"a constant's value (copied into the code that reads it)",
             edited("Limit = 10", "Limit = 11")},
            {"a default value (copied into the caller)", edited("scale = 2", "scale = 3")},
            {"a parameter's name (named arguments)",
             edited("int scale = 2) { return scale", "int factor = 2) { return factor")},
            {"a private field of a struct", edited("public int X;", "public int X; int y;")},
            {"an attribute on a public method",
             edited("public int Value(", "[Obsolete] public int Value(")},
            {"[Conditional], which decides whether a caller's call is compiled",
             edited("protected virtual void OnChanged()",
                    "[System.Diagnostics.Conditional(\"TRACE\")] protected virtual void "
                    "OnChanged()")},
            {"a class made abstract", edited("public class Thing", "public abstract class Thing")},
            {"a protected method made non-virtual",
             edited("protected virtual void", "protected void")},
            {"a property's setter made public", edited("private set;", "set;")},
        };
        for (const auto& [what, source] : changed) {
            CAPTURE(what);
            const std::optional<std::string> hash =
                interfaceOfBuild(compiler, dir.path(), "changed", source);
            REQUIRE(hash.has_value());
            CHECK(*hash != *base);
        }
    }
    SUBCASE("changed: an internal method, with InternalsVisibleTo") {
        const std::string hidden = "internal int Hidden() { return 1; }";
        const std::optional<std::string> before =
            interfaceOfBuild(compiler, dir.path(), "friend", withFriend(kBase));
        const std::optional<std::string> after = interfaceOfBuild(
            compiler, dir.path(), "friend-edited",
            withFriend(edited(hidden, "internal int Hidden(int x) { return x; }")));
        REQUIRE(before.has_value());
        REQUIRE(after.has_value());
        CHECK(*before != *after);
        CHECK(*before != *base); // (the attribute itself is the assembly's)
    }
}

TEST_CASE("interfaceOf: a file that is no assembly, a missing one, or the cold backend: "
          "nullopt (the caller rebuilds what references it)") {
    TempDir dir{"assembly-interface"};
    WarmCompiler compiler;
    writeFile(dir / "NotAnAssembly.dll", "MZ but nothing more");
    CHECK_FALSE(compiler.interfaceOf(dir / "NotAnAssembly.dll").has_value());
    CHECK_FALSE(compiler.interfaceOf(dir / "Missing.dll").has_value());
    CHECK(compiler.stats().serverStarts == 1); // an unreadable file is no server failure

    const std::optional<std::string> built = interfaceOfBuild(compiler, dir.path(), "built", kBase);
    REQUIRE(built.has_value());
    ColdCompiler cold;
    CHECK_FALSE(cold.interfaceOf(dir / "built" / "out" / "Lib.dll").has_value());
}
