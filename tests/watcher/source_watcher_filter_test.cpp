// Ignored folders, other extensions and editor artefacts never reach the consumer.

#include "support/printers.hpp"
#include "support/temp_folder.hpp"
#include "support/watch_helpers.hpp"

#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace scripthost::watcher;
using namespace scripthost::watcher::test;

TEST_SUITE("SourceWatcher filter") {
    TEST_CASE_TEMPLATE("ignored paths are never reported", B, InotifyTag, PollingTag) {
        TempFolder temp;
        fs::create_directories(temp / "Game/obj");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        writeFile(temp / "bin/x.cs", "x");
        writeFile(temp / "Game/obj/Debug/Gen.cs", "x");
        writeFile(temp / ".git/objects/ab/z.cs", "x");
        writeFile(temp / "foo.txt", "x");
        writeFile(temp / "Game/Script.cs~", "x");
        // A marker written last: everything above happened before it, so if any of it were
        // reported it would be in the same set or an earlier one.
        writeFile(temp / "Game/Marker.cs", "x");

        const std::vector<ChangeSet> sets = collectUntilSilent(*watcher);
        REQUIRE(sets.size() == 1);
        CHECK(sets[0].added == Paths{temp / "Game/Marker.cs"});
        CHECK(sets[0].modified.empty());
        CHECK(sets[0].removed.empty());

        // Changes inside ignored folders stay invisible afterwards too.
        writeFile(temp / "bin/x.cs", "changed");
        fs::remove_all(temp / "Game/obj");
        writeFile(temp / "Game/Marker.cs", "changed");
        const std::vector<ChangeSet> after = collectUntilSilent(*watcher);
        REQUIRE(after.size() == 1);
        CHECK(after[0].modified == Paths{temp / "Game/Marker.cs"});
        CHECK(after[0].added.empty());
        CHECK(after[0].removed.empty());
    }

    TEST_CASE_TEMPLATE("custom extensions and ignore globs", B, InotifyTag, PollingTag) {
        TempFolder temp;
        WatchOptions options = testOptions(temp.path(), B::value);
        options.filter = PathFilter({".cs", ".json"}, {"*.g.cs", "Generated/"});
        auto watcher = startOrFail(std::move(options));

        writeFile(temp / "bin/Kept.cs", "x"); // bin/ is no longer ignored
        writeFile(temp / "Form.g.cs", "x");
        writeFile(temp / "Generated/Net.cs", "x");
        writeFile(temp / "settings.json", "{}");

        const std::vector<ChangeSet> sets = collectUntilSilent(*watcher);
        REQUIRE(sets.size() == 1);
        CHECK(sets[0].added == Paths{temp / "bin/Kept.cs", temp / "settings.json"});
    }
}
