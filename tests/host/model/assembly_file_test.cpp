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

TEST_CASE("AssemblyFile: a file of many buffers' worth comes back byte for byte") {
    TempDir dir("assembly-file-large");
    std::string image(3 * 1024 * 1024 + 7, '\0');
    for (std::size_t i = 0; i < image.size(); ++i)
        image[i] = static_cast<char>((i * 2654435761U) >> 13); // every byte value, no pattern
    writeFile(dir / "Large.dll", image);
    writeFile(dir / "Large.dll.mdb", image.substr(5, 70001));

    auto large = AssemblyFile::read(dir / "Large.dll");
    REQUIRE(large);
    REQUIRE(large->image.size() == image.size());
    CHECK(std::string(large->image.begin(), large->image.end()) == image);
    CHECK(std::string(large->symbols.begin(), large->symbols.end()) == image.substr(5, 70001));
}

TEST_CASE("AssemblyFile: a missing file, a folder or an empty file is an error that names it") {
    TempDir dir("assembly-file-bad");
    writeFile(dir / "Empty.dll", "");
    const auto missing = AssemblyFile::read(dir / "Missing.dll");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message == "cannot read " + (dir / "Missing.dll").string());
    std::filesystem::create_directory(dir / "Folder.dll");
    const auto folder = AssemblyFile::read(dir / "Folder.dll");
    REQUIRE_FALSE(folder);
    CHECK(folder.error().message ==
          "cannot read " + (dir / "Folder.dll").string() + ": it is a folder");
    const auto empty = AssemblyFile::read(dir / "Empty.dll");
    REQUIRE_FALSE(empty);
    CHECK(empty.error().message == (dir / "Empty.dll").string() + " is empty");
}
