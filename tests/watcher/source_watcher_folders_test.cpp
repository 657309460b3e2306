// Folders created, removed, renamed and moved while watching. Each scenario runs over both
// backends.

#include "support/printers.hpp"
#include "support/temp_folder.hpp"
#include "support/watch_helpers.hpp"

#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace scripthost::watcher;
using namespace scripthost::watcher::test;

TEST_SUITE("SourceWatcher folders") {
    TEST_CASE_TEMPLATE("a nested folder created after start is watched, files already in it "
                       "are added",
                       B, InotifyTag, PollingTag) {
        TempFolder temp;
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        // Written immediately after mkdir: usually before the watcher can add a watch on c/.
        fs::create_directories(temp / "a/b/c");
        writeFile(temp / "a/b/c/Early.cs", "x");

        const std::vector<ChangeSet> first = collectUntilSilent(*watcher);
        REQUIRE(first.size() == 1);
        CHECK(first[0].added == Paths{temp / "a/b/c/Early.cs"});
        CHECK(first[0].modified.empty());

        // And the new folder really is watched now.
        writeFile(temp / "a/b/c/Later.cs", "x");
        const std::vector<ChangeSet> second = collectUntilSilent(*watcher);
        REQUIRE(second.size() == 1);
        CHECK(second[0].added == Paths{temp / "a/b/c/Later.cs"});
    }

    TEST_CASE_TEMPLATE("a removed folder reports its files removed", B, InotifyTag, PollingTag) {
        TempFolder temp;
        writeFile(temp / "Keep.cs", "x");
        writeFile(temp / "sub/A.cs", "x");
        writeFile(temp / "sub/deep/B.cs", "x");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        fs::remove_all(temp / "sub");

        const std::vector<ChangeSet> sets = collectUntilSilent(*watcher);
        REQUIRE(sets.size() == 1);
        CHECK(sets[0].removed == Paths{temp / "sub/A.cs", temp / "sub/deep/B.cs"});
        CHECK(sets[0].added.empty());
        CHECK(sets[0].modified.empty());
    }

    TEST_CASE_TEMPLATE("a renamed folder: old paths removed, new paths added, still watched", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        writeFile(temp / "sub/A.cs", "x");
        writeFile(temp / "sub/deep/B.cs", "x");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        fs::rename(temp / "sub", temp / "moved");

        const std::vector<ChangeSet> sets = collectUntilSilent(*watcher);
        REQUIRE(sets.size() == 1);
        CHECK(sets[0].removed == Paths{temp / "sub/A.cs", temp / "sub/deep/B.cs"});
        CHECK(sets[0].added == Paths{temp / "moved/A.cs", temp / "moved/deep/B.cs"});
        CHECK(sets[0].modified.empty());

        writeFile(temp / "moved/deep/C.cs", "x");
        writeFile(temp / "moved/deep/B.cs", "changed");
        const std::vector<ChangeSet> after = collectUntilSilent(*watcher);
        REQUIRE(after.size() == 1);
        CHECK(after[0].added == Paths{temp / "moved/deep/C.cs"});
        CHECK(after[0].modified == Paths{temp / "moved/deep/B.cs"});
    }

    TEST_CASE_TEMPLATE("folders moved out of and into the root", B, InotifyTag, PollingTag) {
        TempFolder temp;
        writeFile(temp / "root/out/A.cs", "x");
        writeFile(temp / "outside/in/B.cs", "x");
        writeFile(temp / "outside/in/sub/C.cs", "x");
        auto watcher = startOrFail(testOptions(temp / "root", B::value));

        fs::rename(temp / "root/out", temp / "outside/out");
        fs::rename(temp / "outside/in", temp / "root/in");

        const std::vector<ChangeSet> sets = collectUntilSilent(*watcher);
        REQUIRE(sets.size() == 1);
        CHECK(sets[0].removed == Paths{temp / "root/out/A.cs"});
        CHECK(sets[0].added == Paths{temp / "root/in/B.cs", temp / "root/in/sub/C.cs"});

        // The moved-out folder is no longer watched; the moved-in one is.
        writeFile(temp / "outside/out/Ignored.cs", "x");
        writeFile(temp / "root/in/sub/D.cs", "x");
        const std::vector<ChangeSet> after = collectUntilSilent(*watcher);
        REQUIRE(after.size() == 1);
        CHECK(after[0].added == Paths{temp / "root/in/sub/D.cs"});
        CHECK(after[0].removed.empty());
    }
}
