// collectSources: the .cs files of a script folder.
#include "compiler_bridge/source_files.hpp"
#include "compiler_test_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using namespace scripthost::testing;

TEST_CASE("sources: .cs files, recursively, sorted, skipping bin/obj/hidden folders") {
    TempDir dir("sources");
    writeFile(dir / "b.cs", "");
    writeFile(dir / "a.cs", "");
    writeFile(dir / "sub" / "deeper" / "c.cs", "");
    writeFile(dir / "notes.txt", "");
    writeFile(dir / "a.cs.bak", "");
    writeFile(dir / "bin" / "gen.cs", "");
    writeFile(dir / "obj" / "gen.cs", "");
    writeFile(dir / ".git" / "x.cs", "");
    writeFile(dir / ".#lock.cs", "");
    const auto sources = collectSources(dir.path());
    const std::vector<std::filesystem::path> expected{dir / "a.cs", dir / "b.cs",
                                                      dir / "sub" / "deeper" / "c.cs"};
    CHECK(sources == expected);
}

TEST_CASE("sources: an empty folder or a missing one gives an empty list") {
    TempDir dir("sources");
    writeFile(dir / "readme.md", "");
    CHECK(collectSources(dir.path()).empty());
    CHECK(collectSources(dir / "missing").empty());
}
