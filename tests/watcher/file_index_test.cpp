#include "file_index.hpp"
#include "support/printers.hpp"
#include "support/temp_folder.hpp"

#include <doctest/doctest.h>
#include <ranges>

namespace fs = std::filesystem;
using namespace scripthost::watcher;
using namespace scripthost::watcher::detail;
using scripthost::watcher::test::TempFolder;
using scripthost::watcher::test::writeFile;
using Paths = std::vector<fs::path>;

namespace {

Paths keys(const FileIndex& index) {
    Paths paths;
    for (const auto& [file, stamp] : index) {
        paths.push_back(file);
    }
    return paths;
}

FileStamp stamp(std::int64_t mtime, std::uintmax_t size, std::uint64_t inode) {
    return FileStamp{.mtimeNs = mtime, .ctimeNs = mtime, .size = size, .inode = inode};
}

} // namespace

TEST_SUITE("FileIndex") {
    TEST_CASE("isWithin is component-wise, not a string prefix") {
        CHECK(isWithin("/a/b", "/a/b"));
        CHECK(isWithin("/a/b/c.cs", "/a/b"));
        CHECK(isWithin("/a/b/c.cs", "/a/b/"));
        CHECK_FALSE(isWithin("/a/bc/d.cs", "/a/b"));
        CHECK_FALSE(isWithin("/a", "/a/b"));
    }

    TEST_CASE("stampOf reports regular files only and sees size and inode") {
        TempFolder temp;
        writeFile(temp / "a.cs", "12345");
        const auto a = stampOf(temp / "a.cs");
        REQUIRE(a.has_value());
        CHECK(a->size == 5);
        CHECK_FALSE(stampOf(temp.path()).has_value()); // a folder
        CHECK_FALSE(stampOf(temp / "missing.cs").has_value());

        // Replacing by rename keeps the size but not the inode.
        writeFile(temp / "a.cs.new", "54321");
        fs::rename(temp / "a.cs.new", temp / "a.cs");
        const auto replaced = stampOf(temp / "a.cs");
        REQUIRE(replaced.has_value());
        CHECK(replaced->size == 5);
        CHECK_FALSE(*replaced == *a);
    }

    TEST_CASE("scanRoots lists accepted files below every root, skipping ignored folders") {
        TempFolder temp;
        writeFile(temp / "game/Player.cs", "x");
        writeFile(temp / "game/AI/Enemy.cs", "x");
        writeFile(temp / "game/bin/Gen.cs", "x");
        writeFile(temp / "game/notes.txt", "x");
        writeFile(temp / "lib/Util.cs", "x");
        fs::create_symlink(temp / "lib", temp / "game/linked-lib"); // folder links: not followed
        const PathFilter filter({".cs"}, {"bin/"});
        const FileIndex index = scanRoots({temp / "game", temp / "lib"}, filter);
        CHECK(keys(index) ==
              Paths{temp / "game/AI/Enemy.cs", temp / "game/Player.cs", temp / "lib/Util.cs"});
    }

    TEST_CASE("diffIndexes reports added, removed and re-stamped files, sorted") {
        const FileIndex before{{"/r/gone.cs", stamp(1, 1, 1)},
                               {"/r/same.cs", stamp(1, 1, 2)},
                               {"/r/touched.cs", stamp(1, 1, 3)},
                               {"/r/z/replaced.cs", stamp(1, 1, 4)}};
        const FileIndex after{{"/r/new.cs", stamp(2, 1, 5)},
                              {"/r/same.cs", stamp(1, 1, 2)},
                              {"/r/touched.cs", stamp(2, 1, 3)},
                              {"/r/z/replaced.cs", stamp(1, 1, 6)}};
        const ChangeSet diff = diffIndexes(before, after);
        CHECK(diff.added == Paths{"/r/new.cs"});
        CHECK(diff.modified == Paths{"/r/touched.cs", "/r/z/replaced.cs"});
        CHECK(diff.removed == Paths{"/r/gone.cs"});
        CHECK_FALSE(diff.rescanned);
    }
}
