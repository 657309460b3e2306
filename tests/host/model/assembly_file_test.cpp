// AssemblyFile::read: an assembly's bytes and its .mdb's, read once into memory.
#include "../../support/test_support.hpp"
#include "host/model/assembly_file.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("AssemblyFile: reads the image and, when there is one, the .mdb beside it") {
    TempDir dir("assembly-file");
    writeFile(dir / "Scripts.dll", std::string("MZ\0\x01image", 8));
    writeFile(dir / "Scripts.dll.mdb", "symbols");
    writeFile(dir / "Bare.dll", "MZbare");

    auto withSymbols = AssemblyFile::read(dir / "Scripts.dll");
    REQUIRE(withSymbols);
    CHECK(withSymbols->name == "Scripts.dll");
    CHECK(withSymbols->path == dir / "Scripts.dll");
    CHECK(std::string(withSymbols->image.begin(), withSymbols->image.end()) ==
          std::string("MZ\0\x01image", 8)); // bytes, not text: the NUL stays
    CHECK(std::string(withSymbols->symbols.begin(), withSymbols->symbols.end()) == "symbols");

    auto bare = AssemblyFile::read(dir / "Bare.dll");
    REQUIRE(bare);
    CHECK(bare->symbols.empty());
}

TEST_CASE("AssemblyFile: a missing or empty file is an error that names it") {
    TempDir dir("assembly-file-bad");
    writeFile(dir / "Empty.dll", "");
    const auto missing = AssemblyFile::read(dir / "Missing.dll");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message == "cannot read " + (dir / "Missing.dll").string());
    const auto empty = AssemblyFile::read(dir / "Empty.dll");
    REQUIRE_FALSE(empty);
    CHECK(empty.error().message == (dir / "Empty.dll").string() + " is empty");
}
