// Editors' save sequences must reach the consumer as exactly one modification of the real file.
// Each scenario runs over both backends.

#include "support/printers.hpp"
#include "support/temp_folder.hpp"
#include "support/watch_helpers.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace scripthost::watcher;
using namespace scripthost::watcher::test;

namespace {

// Asserts that exactly one change set arrives and that it is one modification of `file`.
void expectSingleModification(SourceWatcher& watcher, const fs::path& file) {
    const std::vector<ChangeSet> sets = collectUntilSilent(watcher);
    REQUIRE(sets.size() == 1);
    CHECK(sets[0].modified == Paths{file});
    CHECK(sets[0].added.empty());
    CHECK(sets[0].removed.empty());
    CHECK_FALSE(sets[0].rescanned);
}

void writeWithSyscalls(const fs::path& file, int flags, std::string_view first,
                       std::string_view second) {
    const int fd = ::open(file.c_str(), flags, 0644);
    REQUIRE(fd >= 0);
    CHECK(::write(fd, first.data(), first.size()) == static_cast<ssize_t>(first.size()));
    CHECK(::write(fd, second.data(), second.size()) == static_cast<ssize_t>(second.size()));
    CHECK(::close(fd) == 0);
}

} // namespace

TEST_SUITE("SourceWatcher editor saves") {
    TEST_CASE_TEMPLATE("atomic save: temp file written then renamed over the real file", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        writeFile(temp / "Player.cs", "class Player {}");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        // The temp name passes the .cs filter on purpose: only coalescing may hide it.
        writeFile(temp / "Player.tmp-8812.cs", "class Player { int hp; }");
        fs::rename(temp / "Player.tmp-8812.cs", temp / "Player.cs");

        expectSingleModification(*watcher, temp / "Player.cs");
    }

    TEST_CASE_TEMPLATE("in-place save: truncate then write (VS Code)", B, InotifyTag, PollingTag) {
        TempFolder temp;
        writeFile(temp / "Enemy.cs", "class Enemy {}");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        writeWithSyscalls(temp / "Enemy.cs", O_WRONLY | O_TRUNC, "class Enemy ", "{ int hp; }");

        expectSingleModification(*watcher, temp / "Enemy.cs");
    }

    TEST_CASE_TEMPLATE("vim save: 4913 probe, backup rename, new file, backup removed", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        writeFile(temp / "Door.cs", "class Door {}");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        writeFile(temp / "4913", ""); // vim checks it may create files in the folder
        fs::remove(temp / "4913");
        fs::rename(temp / "Door.cs", temp / "Door.cs~");
        writeWithSyscalls(temp / "Door.cs", O_WRONLY | O_CREAT | O_TRUNC, "class Door ",
                          "{ bool open; }");
        fs::remove(temp / "Door.cs~");

        expectSingleModification(*watcher, temp / "Door.cs");
    }

    TEST_CASE_TEMPLATE("emacs save: .# lock link, ~ backup by rename, new file", B, InotifyTag,
                       PollingTag) {
        TempFolder temp;
        writeFile(temp / "Lamp.cs", "class Lamp {}");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        // Emacs' lock is a dangling symlink whose name ends in .cs.
        fs::create_symlink("dev@box.4242:1700000000", temp / ".#Lamp.cs");
        fs::rename(temp / "Lamp.cs", temp / "Lamp.cs~");
        writeFile(temp / "Lamp.cs", "class Lamp { bool lit; }");
        fs::remove(temp / ".#Lamp.cs");

        expectSingleModification(*watcher, temp / "Lamp.cs");
        CHECK(fs::exists(temp / "Lamp.cs~")); // the backup stays and is never reported
    }

    TEST_CASE_TEMPLATE("a burst of 100 writes to one file gives a few sets naming only it", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        writeFile(temp / "Hot.cs", "0");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        // The pacing is the scenario (an editor autosaving ~100 times a second), not a wait.
        for (int i = 1; i <= 100; ++i) {
            writeFile(temp / "Hot.cs", "// revision " + std::to_string(i));
            std::this_thread::sleep_for(std::chrono::milliseconds{10});
        }

        const std::vector<ChangeSet> sets = collectUntilSilent(*watcher);
        // maxLatency (1 s) may cut the ~1.1 s burst into a couple of sets, never many.
        CHECK(sets.size() >= 1);
        CHECK(sets.size() <= 4);
        for (const ChangeSet& set : sets) {
            CHECK(set.modified == Paths{temp / "Hot.cs"});
            CHECK(set.added.empty());
            CHECK(set.removed.empty());
        }
    }
}

TEST_SUITE("SourceWatcher complete saves") {
    // With flushCompleteSaves a save that ends in a close or a rename is reported without
    // waiting out the quiet window — here 20 s, so a set that arrives within 10 s can only
    // have been flushed at once (with the option off the same save takes the full window).
    WatchOptions slowWindow(const fs::path& root, bool flushCompleteSaves) {
        WatchOptions options = testOptions(root, Backend::Inotify);
        options.quietWindow = std::chrono::seconds(20);
        options.maxLatency = std::chrono::seconds(40);
        options.flushCompleteSaves = flushCompleteSaves;
        return options;
    }

    TEST_CASE("a save renamed into place is flushed at once, the next one soon after is not") {
        TempFolder temp;
        writeFile(temp / "Hot.cs", "0");
        auto watcher = startOrFail(slowWindow(temp.path(), true));
        writeFile(temp / "staging.tmp", "// saved atomically");
        fs::rename(temp / "staging.tmp", temp / "Hot.cs");
        auto set = watcher->waitFor(std::chrono::steady_clock::now() + std::chrono::seconds(10));
        REQUIRE(set.has_value());
        CHECK(set->modified == Paths{temp / "Hot.cs"});
        CHECK(set->complete == Paths{temp / "Hot.cs"});
        CHECK(set->firstSeen.has_value());

        // A second save right after it (within a quiet window of the flushed one) is taken for
        // part of a burst: it waits for the window.
        writeWithSyscalls(temp / "Hot.cs", O_WRONLY | O_TRUNC, "// written ", "in place");
        CHECK_FALSE(watcher->waitFor(std::chrono::steady_clock::now() + std::chrono::seconds(2)));
    }

    TEST_CASE("a file closed after writing is complete - one still open is not") {
        TempFolder temp;
        writeFile(temp / "Hot.cs", "0");
        WatchOptions options = testOptions(temp.path(), Backend::Inotify);
        options.flushCompleteSaves = true;
        auto watcher = startOrFail(options);
        const int fd = ::open((temp / "Hot.cs").c_str(), O_WRONLY | O_TRUNC);
        REQUIRE(fd >= 0);
        CHECK(::write(fd, "// half", 7) == 7);
        // Still open: flushed after the quiet window, not complete.
        auto open = watcher->waitFor(std::chrono::steady_clock::now() + std::chrono::seconds(10));
        REQUIRE(open.has_value());
        CHECK(open->modified == Paths{temp / "Hot.cs"});
        CHECK(open->complete.empty());
        CHECK(::write(fd, " and the rest", 13) == 13);
        CHECK(::close(fd) == 0);
        auto closed = watcher->waitFor(std::chrono::steady_clock::now() + std::chrono::seconds(10));
        REQUIRE(closed.has_value());
        CHECK(closed->modified == Paths{temp / "Hot.cs"});
        CHECK(closed->complete == Paths{temp / "Hot.cs"});
    }

    TEST_CASE("without flushCompleteSaves the same save waits for the quiet window") {
        TempFolder temp;
        writeFile(temp / "Hot.cs", "0");
        auto watcher = startOrFail(slowWindow(temp.path(), false));
        writeFile(temp / "staging.tmp", "// saved atomically");
        fs::rename(temp / "staging.tmp", temp / "Hot.cs");
        CHECK_FALSE(watcher->waitFor(std::chrono::steady_clock::now() + std::chrono::seconds(2)));
    }
}
