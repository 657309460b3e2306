// copyLibraryBuild: a real library copied whole under a read lease; refused while this process
// (or any) has it open for writing, refused when cut short or no ELF object (nothing left
// behind), and a copy already there replaced by a new file rather than rewritten in place.
#include "../../support/test_support.hpp"
#include "host/modules/library_copy.hpp"
#include "posix/unique_fd.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;
using Reason = LibraryCopyRefusal::Reason;

namespace {

std::uintmax_t inodeOf(const fs::path& file) {
    struct stat info {};
    REQUIRE(::stat(file.c_str(), &info) == 0);
    return info.st_ino;
}

} // namespace

TEST_CASE("copyLibraryBuild: a finished library is copied whole with its stamp") {
    TempDir dir("library-copy");
    fs::copy_file(PROBE_GAME_MODULE, dir / "libprobe.so");
    auto copy = copyLibraryBuild(dir / "libprobe.so", dir / "copies" / "libprobe.2.so");
    REQUIRE_MESSAGE(copy, (copy ? "" : copy.error().message));
    CHECK(copy->path == dir / "copies" / "libprobe.2.so");
    CHECK(readFile(copy->path) == readFile(PROBE_GAME_MODULE));
    CHECK(copy->stamp == stampOf(dir / "libprobe.so"));
    // The tests run as the files' owner, so the kernel grants the lease.
    CHECK(copy->writersChecked);
    CHECK_FALSE(fs::exists(dir / "copies" / "libprobe.2.so.part"));

    // A copy of that name already there is replaced by another file, not rewritten in place
    // (a loaded one stays intact under the loader).
    const auto before = inodeOf(copy->path);
    REQUIRE(copyLibraryBuild(dir / "libprobe.so", dir / "copies" / "libprobe.2.so"));
    CHECK(inodeOf(dir / "copies" / "libprobe.2.so") != before);
}

TEST_CASE("copyLibraryBuild: a library still open for writing is refused until its writer "
          "closes it") {
    TempDir dir("library-copy");
    fs::copy_file(PROBE_GAME_MODULE, dir / "libprobe.so");
    posix::UniqueFd writer(::open((dir / "libprobe.so").c_str(), O_WRONLY | O_CLOEXEC));
    REQUIRE(writer);
    auto refused = copyLibraryBuild(dir / "libprobe.so", dir / "libprobe.2.so");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().reason == Reason::BeingWritten);
    CHECK_MESSAGE(refused.error().message.find("still open for writing") != std::string::npos,
                  refused.error().message);
    CHECK(refused.error().stamp == stampOf(dir / "libprobe.so"));
    CHECK_FALSE(fs::exists(dir / "libprobe.2.so"));
    writer.reset();
    CHECK(copyLibraryBuild(dir / "libprobe.so", dir / "libprobe.2.so"));
}

TEST_CASE("copyLibraryBuild: a library cut short, or a file that is none, is refused and "
          "leaves nothing behind") {
    TempDir dir("library-copy");
    const std::string bytes = readFile(PROBE_GAME_MODULE);
    writeFile(dir / "libprobe.so", bytes.substr(0, bytes.size() / 2));
    auto cut = copyLibraryBuild(dir / "libprobe.so", dir / "libprobe.2.so");
    REQUIRE_FALSE(cut);
    CHECK(cut.error().reason == Reason::NotWhole);
    CHECK_MESSAGE(cut.error().message.rfind((dir / "libprobe.so").string() + " is cut short", 0) ==
                      0,
                  cut.error().message);
    CHECK(cut.error().stamp == stampOf(dir / "libprobe.so"));
    CHECK_FALSE(fs::exists(dir / "libprobe.2.so"));
    CHECK_FALSE(fs::exists(dir / "libprobe.2.so.part"));

    writeFile(dir / "libprobe.so", "not a library");
    auto text = copyLibraryBuild(dir / "libprobe.so", dir / "libprobe.2.so");
    REQUIRE_FALSE(text);
    CHECK(text.error().reason == Reason::NotWhole);
    CHECK(text.error().message.find("is not an ELF shared library") != std::string::npos);
}

TEST_CASE("copyLibraryBuild: a library that is not there cannot be copied") {
    TempDir dir("library-copy");
    auto missing = copyLibraryBuild(dir / "libprobe.so", dir / "libprobe.2.so");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().reason == Reason::Failed);
    CHECK_MESSAGE(missing.error().message.find("cannot copy") != std::string::npos,
                  missing.error().message);
    CHECK_FALSE(missing.error().stamp.has_value());
}
