// OutputGenerations: a fresh output path per build.
#include "compiler_bridge/output_generations.hpp"
#include "compiler_test_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using namespace scripthost::testing;

TEST_CASE("generations: each path is new and named <folder>/gen<N>/<Name>.dll") {
    TempDir dir("gens");
    OutputGenerations generations(dir.path(), "Scripts");
    CHECK(generations.next() == dir / "gen1" / "Scripts.dll");
    CHECK(generations.next() == dir / "gen2" / "Scripts.dll");
}

TEST_CASE("generations: numbering continues above folders already there") {
    TempDir dir("gens");
    std::filesystem::create_directories(dir / "gen7");
    std::filesystem::create_directories(dir / "gen3");
    std::filesystem::create_directories(dir / "genx");
    OutputGenerations generations(dir.path(), "S");
    CHECK(generations.next() == dir / "gen8" / "S.dll");
    std::filesystem::create_directories(dir / "gen9"); // appeared meanwhile
    CHECK(generations.next() == dir / "gen10" / "S.dll");
}

TEST_CASE("generations: prune keeps the newest folders only") {
    TempDir dir("gens");
    OutputGenerations generations(dir.path(), "S");
    for (int i = 0; i < 5; ++i) {
        writeFile(generations.next(), "dll");
    }
    CHECK(generations.prune(2) == 3);
    CHECK_FALSE(std::filesystem::exists(dir / "gen3"));
    CHECK(std::filesystem::exists(dir / "gen4" / "S.dll"));
    CHECK(std::filesystem::exists(dir / "gen5" / "S.dll"));
    CHECK(generations.next() == dir / "gen6" / "S.dll");
}

TEST_CASE("generations: nextFolder shares the numbering, and prune keeps the folders in use") {
    TempDir dir("gens");
    OutputGenerations generations(dir.path(), "S");
    CHECK(generations.next() == dir / "gen1" / "S.dll");
    CHECK(generations.nextFolder() == dir / "gen2");
    CHECK(generations.next() == dir / "gen3" / "S.dll");
    for (const char* gen : {"gen1", "gen2", "gen3"})
        writeFile(dir / gen / "Core.dll", "dll");
    for (int i = 0; i < 3; ++i)
        writeFile(generations.nextFolder() / "Leaf.dll", "dll"); // gen4, gen5, gen6
    // gen2's Core.dll is still reused by the newest set; the path may be given unnormalised.
    CHECK(generations.prune(
              2, {dir / "gen5" / "Leaf.dll", dir / "x" / ".." / "gen2" / "Core.dll"}) == 3);
    CHECK(std::filesystem::exists(dir / "gen2" / "Core.dll"));
    CHECK_FALSE(std::filesystem::exists(dir / "gen1"));
    CHECK_FALSE(std::filesystem::exists(dir / "gen3"));
    CHECK_FALSE(std::filesystem::exists(dir / "gen4"));
    CHECK(std::filesystem::exists(dir / "gen5" / "Leaf.dll"));
    CHECK(std::filesystem::exists(dir / "gen6" / "Leaf.dll"));
}

TEST_CASE("generations: a folder that does not exist yet starts at gen1") {
    TempDir dir("gens");
    OutputGenerations generations(dir / "not" / "yet", "S");
    CHECK(generations.next() == dir / "not" / "yet" / "gen1" / "S.dll");
    CHECK(generations.prune(1) == 0);
}
