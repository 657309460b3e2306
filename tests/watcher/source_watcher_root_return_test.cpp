// Watch roots that go away and come back: deleted and re-created, moved away and back,
// replaced by another folder, missing at start. Each scenario runs over both backends, which
// must report the same sets: the files gone when the root goes, then everything in the root
// in one rescanned set when it is back, then ordinary sets again.

#include "support/printers.hpp"
#include "support/temp_folder.hpp"
#include "support/watch_helpers.hpp"

#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace scripthost::watcher;
using namespace scripthost::watcher::test;

namespace {

// Putting a root back takes several steps (mkdir, then each file). A quiet window this long
// keeps them in one set even when the test thread is preempted between two steps on a loaded
// 2-core box; the sets asserted to be one are made by back-to-back calls.
constexpr std::chrono::milliseconds returnQuietWindow{250};
// After a set, a straggler from another window would arrive within a quiet window and a few
// poll intervals: this is four windows.
constexpr std::chrono::milliseconds returnSilence{4 * returnQuietWindow};

WatchOptions returnOptions(Paths roots, Backend backend) {
    WatchOptions options = testOptions(roots.front(), backend);
    options.roots = std::move(roots);
    options.quietWindow = returnQuietWindow;
    return options;
}

// Waits (up to arrivalTimeout) until the watcher lists exactly these roots as missing.
bool missingBecomes(const SourceWatcher& watcher, const Paths& expected) {
    return waitUntil([&] { return watcher.missingRoots() == expected; });
}

// The sets reporting a root's files removed, merged: until all of `files` are, at most
// arrivalTimeout.
ChangeSet removalOf(SourceWatcher& watcher, const Paths& files) {
    return merged(
        collectUntil(watcher, [&](const ChangeSet& all) { return all.removed == files; }));
}

} // namespace

TEST_SUITE("SourceWatcher root return") {
    TEST_CASE_TEMPLATE("a deleted root put back by mkdir and a copy is watched again", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        const fs::path root = temp / "s";
        writeFile(root / "A.cs", "v1");
        writeFile(root / "sub/B.cs", "v1");
        auto watcher = startOrFail(returnOptions({root}, B::value));
        CHECK(watcher->missingRoots().empty());

        fs::remove_all(root);
        const ChangeSet removal = removalOf(*watcher, {root / "A.cs", root / "sub/B.cs"});
        CHECK(removal.removed == Paths{root / "A.cs", root / "sub/B.cs"});
        CHECK(removal.added.empty());
        CHECK_FALSE(removal.rescanned);
        CHECK(missingBecomes(*watcher, {root}));

        fs::create_directory(root);
        writeFile(root / "A.cs", "v2");
        writeFile(root / "sub/B.cs", "v2");
        const std::vector<ChangeSet> back = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(back.size() == 1); // one set: the host builds once
        CHECK(back[0].rescanned);
        CHECK(back[0].added == Paths{root / "A.cs", root / "sub/B.cs"});
        CHECK(back[0].modified.empty());
        CHECK(back[0].removed.empty());
        // Marked present before the set is queued.
        CHECK(watcher->missingRoots().empty());

        // Saves in it (and in a folder made after the return) are reported as usual.
        writeFile(root / "A.cs", "v3, longer");
        writeFile(root / "sub/deeper/C.cs", "v1");
        const std::vector<ChangeSet> saved = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(saved.size() == 1);
        CHECK_FALSE(saved[0].rescanned);
        CHECK(saved[0].modified == Paths{root / "A.cs"});
        CHECK(saved[0].added == Paths{root / "sub/deeper/C.cs"});
        CHECK(saved[0].removed.empty());
    }

    TEST_CASE_TEMPLATE("another folder renamed into a deleted root's place is watched", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        const fs::path root = temp / "s";
        writeFile(root / "A.cs", "old");
        writeFile(temp / "other/A.cs", "new content");
        writeFile(temp / "other/D/E.cs", "new");
        auto watcher = startOrFail(returnOptions({root}, B::value));

        fs::remove_all(root);
        CHECK(removalOf(*watcher, {root / "A.cs"}).removed == Paths{root / "A.cs"});
        CHECK(missingBecomes(*watcher, {root}));

        fs::rename(temp / "other", root);
        const std::vector<ChangeSet> back = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(back.size() == 1);
        CHECK(back[0].rescanned);
        CHECK(back[0].added == Paths{root / "A.cs", root / "D/E.cs"});
        CHECK(back[0].modified.empty());
        CHECK(back[0].removed.empty());
        CHECK(watcher->missingRoots().empty());

        writeFile(root / "D/E.cs", "saved after the move");
        const std::vector<ChangeSet> saved = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(saved.size() == 1);
        CHECK_FALSE(saved[0].rescanned);
        CHECK(saved[0].modified == Paths{root / "D/E.cs"});
        CHECK(saved[0].added.empty());
    }

    TEST_CASE_TEMPLATE("a root moved away is not followed there, and is watched when moved back", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        const fs::path root = temp / "s";
        const fs::path away = temp / "s.old";
        writeFile(root / "A.cs", "v1");
        writeFile(root / "sub/B.cs", "v1");
        auto watcher = startOrFail(returnOptions({root}, B::value));

        fs::rename(root, away);
        const ChangeSet removal = removalOf(*watcher, {root / "A.cs", root / "sub/B.cs"});
        CHECK(removal.removed == Paths{root / "A.cs", root / "sub/B.cs"});
        CHECK(removal.added.empty());
        CHECK(missingBecomes(*watcher, {root}));

        // Its old watches are gone: a save where it is now is nobody's business.
        writeFile(away / "sub/B.cs", "saved while away");
        writeFile(away / "Away.cs", "v1");
        CHECK_FALSE(watcher->waitFor(std::chrono::steady_clock::now() + returnSilence));

        fs::rename(away, root);
        const std::vector<ChangeSet> back = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(back.size() == 1);
        CHECK(back[0].rescanned);
        CHECK(back[0].added == Paths{root / "A.cs", root / "Away.cs", root / "sub/B.cs"});
        CHECK(back[0].modified.empty());
        CHECK(back[0].removed.empty());
        CHECK(watcher->missingRoots().empty());

        writeFile(root / "sub/B.cs", "saved after the return");
        const std::vector<ChangeSet> saved = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(saved.size() == 1);
        CHECK_FALSE(saved[0].rescanned);
        CHECK(saved[0].modified == Paths{root / "sub/B.cs"});
    }

    TEST_CASE_TEMPLATE("a root moved away with another folder moved in at once: one rescan", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        const fs::path root = temp / "s";
        writeFile(root / "Same.cs", "old");
        writeFile(root / "OnlyOld.cs", "old");
        writeFile(temp / "other/Same.cs", "new, longer");
        writeFile(temp / "other/OnlyNew.cs", "new");
        auto watcher = startOrFail(returnOptions({root}, B::value));

        fs::rename(root, temp / "s.old"); // what `mv s s.old && mv other s` does
        fs::rename(temp / "other", root);

        const std::vector<ChangeSet> sets = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(sets.size() == 1);
        CHECK(sets[0].rescanned);
        CHECK(sets[0].added == Paths{root / "OnlyNew.cs"});
        CHECK(sets[0].modified == Paths{root / "Same.cs"});
        CHECK(sets[0].removed == Paths{root / "OnlyOld.cs"});
        CHECK(watcher->missingRoots().empty());

        // The new folder is watched, the old one (now s.old) is not.
        writeFile(temp / "s.old/OnlyOld.cs", "saved in the old folder");
        writeFile(root / "OnlyNew.cs", "saved in the new one");
        const std::vector<ChangeSet> saved = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(saved.size() == 1);
        CHECK_FALSE(saved[0].rescanned);
        CHECK(saved[0].modified == Paths{root / "OnlyNew.cs"});
        CHECK(saved[0].added.empty());
        CHECK(saved[0].removed.empty());
    }

    TEST_CASE_TEMPLATE("a root deleted and re-created before the watcher looks: one rescan", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        const fs::path root = temp / "s";
        writeFile(root / "A.cs", "v1");
        writeFile(root / "Gone.cs", "v1");
        auto watcher = startOrFail(returnOptions({root}, B::value));

        // rm -rf s && git checkout s: the folder comes back (maybe with its freed inode
        // number) and is filled before the watcher gets to it.
        fs::remove_all(root);
        writeFile(root / "A.cs", "v2");
        writeFile(root / "New.cs", "v1");

        const std::vector<ChangeSet> sets = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(sets.size() == 1);
        CHECK(sets[0].rescanned);
        CHECK(sets[0].added == Paths{root / "New.cs"});
        CHECK(sets[0].modified == Paths{root / "A.cs"});
        CHECK(sets[0].removed == Paths{root / "Gone.cs"});
        CHECK(watcher->missingRoots().empty());

        writeFile(root / "New.cs", "v2, longer");
        const std::vector<ChangeSet> saved = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(saved.size() == 1);
        CHECK(saved[0].modified == Paths{root / "New.cs"});
    }

    TEST_CASE_TEMPLATE("a root whose parent was deleted too is found again as the path returns", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        const fs::path root = temp / "game/Scripts";
        writeFile(root / "Player.cs", "v1");
        auto watcher = startOrFail(returnOptions({root}, B::value));

        fs::remove_all(temp / "game");
        CHECK(removalOf(*watcher, {root / "Player.cs"}).removed == Paths{root / "Player.cs"});
        CHECK(missingBecomes(*watcher, {root}));

        // Each level comes back separately; the watcher must walk down as they do.
        fs::create_directory(temp / "game");
        fs::create_directory(temp / "game/Other"); // a sibling appearing first is not the root
        fs::create_directory(root);
        writeFile(root / "AI/Enemy.cs", "v1");
        writeFile(root / "Player.cs", "v2");
        const std::vector<ChangeSet> back = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(back.size() == 1);
        CHECK(back[0].rescanned);
        CHECK(back[0].added == Paths{root / "AI/Enemy.cs", root / "Player.cs"});
        CHECK(watcher->missingRoots().empty());

        writeFile(root / "AI/Enemy.cs", "v2, longer");
        const std::vector<ChangeSet> saved = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(saved.size() == 1);
        CHECK(saved[0].modified == Paths{root / "AI/Enemy.cs"});
    }

    TEST_CASE_TEMPLATE("a root whose parent is renamed away is watched again at its path", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        const fs::path root = temp / "game/Scripts";
        writeFile(root / "Player.cs", "v1");
        auto watcher = startOrFail(returnOptions({root}, B::value));

        // The root's own watch hears nothing of this (inotify finds it by checking the path).
        fs::rename(temp / "game", temp / "game.old");
        CHECK(removalOf(*watcher, {root / "Player.cs"}).removed == Paths{root / "Player.cs"});
        CHECK(missingBecomes(*watcher, {root}));

        writeFile(root / "Player.cs", "v2"); // git checkout game
        const std::vector<ChangeSet> back = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(back.size() == 1);
        CHECK(back[0].rescanned);
        CHECK(back[0].added == Paths{root / "Player.cs"});
        CHECK(watcher->missingRoots().empty());

        // The renamed folder is not watched any more, the new one is.
        writeFile(temp / "game.old/Scripts/Player.cs", "saved in the old folder");
        writeFile(root / "Player.cs", "v3, longer");
        const std::vector<ChangeSet> saved = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(saved.size() == 1);
        CHECK_FALSE(saved[0].rescanned);
        CHECK(saved[0].modified == Paths{root / "Player.cs"});
        CHECK(saved[0].added.empty());
    }

    TEST_CASE_TEMPLATE("two roots in one folder: each is listed missing and returns on its own", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        const fs::path a = temp / "a";
        const fs::path b = temp / "b";
        writeFile(a / "A.cs", "v1");
        writeFile(b / "B.cs", "v1");
        auto watcher = startOrFail(returnOptions({a, b}, B::value));

        fs::remove_all(a);
        CHECK(removalOf(*watcher, {a / "A.cs"}).removed == Paths{a / "A.cs"});
        CHECK(missingBecomes(*watcher, {a}));
        // The other root is still watched.
        writeFile(b / "B2.cs", "v1");
        const std::vector<ChangeSet> other = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(other.size() == 1);
        CHECK(other[0].added == Paths{b / "B2.cs"});
        CHECK_FALSE(other[0].rescanned);

        fs::remove_all(b);
        CHECK(removalOf(*watcher, {b / "B.cs", b / "B2.cs"}).removed ==
              Paths{b / "B.cs", b / "B2.cs"});
        CHECK(missingBecomes(*watcher, {a, b}));

        // Both wait on the same parent; one coming back must not stop the wait for the other.
        writeFile(a / "A.cs", "v2");
        const std::vector<ChangeSet> aBack = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(aBack.size() == 1);
        CHECK(aBack[0].rescanned);
        CHECK(aBack[0].added == Paths{a / "A.cs"});
        CHECK(watcher->missingRoots() == Paths{b});

        writeFile(b / "B.cs", "v2");
        const std::vector<ChangeSet> bBack = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(bBack.size() == 1);
        CHECK(bBack[0].rescanned);
        CHECK(bBack[0].added == Paths{b / "B.cs"});
        CHECK(watcher->missingRoots().empty());
    }

    TEST_CASE_TEMPLATE("waitForMissingRoots: a root that appears after start is watched", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        const fs::path root = temp / "later/Scripts";
        WatchOptions options = returnOptions({root}, B::value);
        options.waitForMissingRoots = true;
        auto watcher = startOrFail(std::move(options));
        CHECK(watcher->backend() == B::value);
        CHECK(watcher->roots() == Paths{root});
        CHECK(watcher->missingRoots() == Paths{root});
        CHECK_FALSE(watcher->poll().has_value());

        writeFile(root / "A.cs", "v1");
        writeFile(root / "sub/B.cs", "v1");
        const std::vector<ChangeSet> appeared = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(appeared.size() == 1);
        CHECK(appeared[0].rescanned);
        CHECK(appeared[0].added == Paths{root / "A.cs", root / "sub/B.cs"});
        CHECK(watcher->missingRoots().empty());

        writeFile(root / "sub/B.cs", "v2, longer");
        const std::vector<ChangeSet> saved = collectUntilSilent(*watcher, returnSilence);
        REQUIRE(saved.size() == 1);
        CHECK_FALSE(saved[0].rescanned);
        CHECK(saved[0].modified == Paths{root / "sub/B.cs"});
    }

    TEST_CASE("waitForMissingRoots still refuses a root that is a file") {
        TempFolder temp;
        writeFile(temp / "file.cs", "x");
        WatchOptions options = returnOptions({temp / "file.cs"}, Backend::Automatic);
        options.waitForMissingRoots = true;
        const auto started = SourceWatcher::start(std::move(options));
        REQUIRE_FALSE(started.has_value());
        CHECK(started.error().code == WatchError::Code::RootNotDirectory);
    }
}
