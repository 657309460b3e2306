// checkElf: the probe game module is whole, a text file is no ELF object, and the module cut
// short anywhere (a writer killed mid-write) is told apart before dlopen would map past its end.
#include "../../support/test_support.hpp"
#include "host/modules/elf_check.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;

TEST_CASE("checkElf: a built library is whole") {
    const ElfCheck check = checkElf(PROBE_GAME_MODULE);
    CHECK(check.shape == ElfCheck::Shape::Whole);
    CHECK(check.whole());
    CHECK(check.size == fs::file_size(PROBE_GAME_MODULE));
    CHECK(check.needed <= check.size);
    CHECK(check.why.empty());
}

TEST_CASE("checkElf: a file without the ELF magic, or none at all, is not ELF") {
    TempDir dir("elf-check");
    writeFile(dir / "libgame.so", "this is not a shared library\n");
    const ElfCheck text = checkElf(dir / "libgame.so");
    CHECK(text.shape == ElfCheck::Shape::NotElf);
    CHECK_MESSAGE(text.why == (dir / "libgame.so").string() + " is not an ELF shared library",
                  text.why);
    const ElfCheck missing = checkElf(dir / "nothing.so");
    CHECK(missing.shape == ElfCheck::Shape::NotElf);
    CHECK_MESSAGE(missing.why.find("cannot read") != std::string::npos, missing.why);
}

TEST_CASE("checkElf: a library cut short anywhere is told apart and named as asked") {
    TempDir dir("elf-check");
    const std::string bytes = readFile(PROBE_GAME_MODULE);
    REQUIRE(bytes.size() > 4096);
    for (const std::size_t keep :
         {std::size_t{20}, std::size_t{64}, std::size_t{200}, bytes.size() / 2, bytes.size() - 1}) {
        CAPTURE(keep);
        writeFile(dir / "cut.so", bytes.substr(0, keep));
        const ElfCheck check = checkElf(dir / "cut.so", "libgame.so");
        CHECK(check.shape == ElfCheck::Shape::CutShort);
        CHECK(check.size == keep);
        CHECK(check.needed > keep);
        CHECK_MESSAGE(
            check.why.rfind("libgame.so is cut short: " + std::to_string(keep) + " bytes", 0) == 0,
            check.why);
    }
}
