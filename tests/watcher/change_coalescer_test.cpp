#include "change_coalescer.hpp"
#include "support/printers.hpp"
#include "support/temp_folder.hpp"

#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace scripthost::watcher;
using namespace scripthost::watcher::detail;
using scripthost::watcher::test::TempFolder;
using scripthost::watcher::test::writeFile;
using Paths = std::vector<fs::path>;
using Clock = ChangeCoalescer::Clock;

// flush() stats the files it reports as existing, so these tests replay observations over a
// real temp folder whose final contents match what the observations claim.

namespace {

FileIndex indexOf(const std::vector<fs::path>& files) {
    FileIndex index;
    for (const auto& file : files) {
        index.emplace(file, stampOf(file).value());
    }
    return index;
}

} // namespace

TEST_SUITE("ChangeCoalescer") {
    TEST_CASE("the final state of each touched file decides what is reported") {
        TempFolder temp;
        writeFile(temp / "Kept.cs", "v2");
        writeFile(temp / "Recreated.cs", "v2");
        writeFile(temp / "New.cs", "v1");
        writeFile(temp / "Gone.cs", "v1");
        ChangeCoalescer coalescer(
            indexOf({temp / "Kept.cs", temp / "Recreated.cs", temp / "Gone.cs"}), 30ms, 1s);
        fs::remove(temp / "Gone.cs");

        const auto t = Clock::now();
        coalescer.noteExists(temp / "Kept.cs", t);    // written in place
        coalescer.noteGone(temp / "Recreated.cs", t); // delete + create = modified
        coalescer.noteExists(temp / "Recreated.cs", t);
        coalescer.noteExists(temp / "New.cs", t);   // created
        coalescer.noteExists(temp / "Flash.cs", t); // create + delete cancels out
        coalescer.noteGone(temp / "Flash.cs", t);
        coalescer.noteGone(temp / "Gone.cs", t);
        const ChangeSet set = coalescer.flush();
        CHECK(set.added == Paths{temp / "New.cs"});
        CHECK(set.modified == Paths{temp / "Kept.cs", temp / "Recreated.cs"});
        CHECK(set.removed == Paths{temp / "Gone.cs"});
        CHECK_FALSE(coalescer.hasPending());
        CHECK(coalescer.known().contains(temp / "New.cs"));
        CHECK_FALSE(coalescer.known().contains(temp / "Gone.cs"));
    }

    TEST_CASE("a file seen created but gone by flush time is not reported") {
        TempFolder temp;
        ChangeCoalescer coalescer({}, 30ms, 1s);
        coalescer.noteExists(temp / "Vanished.cs", Clock::now()); // never written to disk
        CHECK(coalescer.flush().empty());
        CHECK(coalescer.known().empty());
    }

    TEST_CASE("a removed folder removes every known and pending file below it") {
        TempFolder temp;
        writeFile(temp / "sub/A.cs", "x");
        writeFile(temp / "sub/deep/B.cs", "x");
        writeFile(temp / "subway/C.cs", "x"); // shares a string prefix, not a folder
        ChangeCoalescer coalescer(
            indexOf({temp / "sub/A.cs", temp / "sub/deep/B.cs", temp / "subway/C.cs"}), 30ms, 1s);
        writeFile(temp / "sub/Fresh.cs", "x");
        const auto t = Clock::now();
        coalescer.noteExists(temp / "sub/Fresh.cs", t);
        fs::remove_all(temp / "sub");
        coalescer.noteSubtreeGone(temp / "sub", t);
        const ChangeSet set = coalescer.flush();
        CHECK(set.removed == Paths{temp / "sub/A.cs", temp / "sub/deep/B.cs"});
        CHECK(set.added.empty());
        CHECK(set.modified.empty());
    }

    TEST_CASE("deadline: quiet window after the last event, capped by max latency") {
        ChangeCoalescer coalescer({}, 30ms, 100ms);
        CHECK_FALSE(coalescer.deadline().has_value());
        const auto t0 = Clock::now();
        coalescer.noteExists("/r/a.cs", t0);
        CHECK(coalescer.deadline() == t0 + 30ms);
        CHECK_FALSE(coalescer.due(t0 + 29ms));
        CHECK(coalescer.due(t0 + 30ms));
        coalescer.noteExists("/r/a.cs", t0 + 20ms); // another event extends the window
        CHECK(coalescer.deadline() == t0 + 50ms);
        coalescer.noteExists("/r/a.cs", t0 + 90ms);
        CHECK(coalescer.deadline() == t0 + 100ms); // max latency wins
        CHECK_FALSE(coalescer.overdue(t0 + 99ms));
        CHECK(coalescer.overdue(t0 + 100ms));
    }

    TEST_CASE("deadline: at once when every pending file was closed or moved into place") {
        ChangeCoalescer coalescer({}, 30ms, 1s, /*flushCompleteSaves*/ true);
        const auto t0 = Clock::now();
        coalescer.noteExists("/r/a.cs", t0); // IN_MODIFY: still being written
        CHECK(coalescer.deadline() == t0 + 30ms);
        coalescer.noteExists("/r/a.cs", t0 + 2ms, true); // IN_CLOSE_WRITE: the save is done
        CHECK(coalescer.deadline() == t0 + 2ms);
        CHECK(coalescer.due(t0 + 2ms));
        coalescer.noteExists("/r/b.cs", t0 + 3ms); // another file opened for writing
        CHECK(coalescer.deadline() == t0 + 33ms);
        coalescer.noteExists("/r/b.cs", t0 + 4ms, true); // renamed into place
        CHECK(coalescer.deadline() == t0 + 4ms);
    }

    TEST_CASE("deadline: saves right after a flush wait for the quiet window (autosave bursts)") {
        TempFolder temp;
        writeFile(temp / "a.cs", "v1");
        ChangeCoalescer coalescer({}, 30ms, 1s, true);
        const auto t0 = Clock::now();
        coalescer.noteExists(temp / "a.cs", t0, true);
        REQUIRE(coalescer.due(t0));
        (void)coalescer.flush();
        coalescer.noteExists(temp / "a.cs", t0 + 10ms, true); // 10 ms later: a burst
        CHECK(coalescer.deadline() == t0 + 40ms);
        (void)coalescer.flush();
        coalescer.noteExists(temp / "a.cs", t0 + 80ms, true); // after a quiet window: at once
        CHECK(coalescer.deadline() == t0 + 80ms);
    }

    TEST_CASE("deadline: a deletion waits for the quiet window (a backup rename's first half)") {
        TempFolder temp;
        writeFile(temp / "a.cs", "v1");
        ChangeCoalescer coalescer(indexOf({temp / "a.cs"}), 30ms, 1s, true);
        const auto t0 = Clock::now();
        coalescer.noteGone(temp / "a.cs", t0); // vim: a.cs -> a.cs~
        CHECK(coalescer.deadline() == t0 + 30ms);
        CHECK_FALSE(coalescer.due(t0 + 29ms));
        writeFile(temp / "a.cs", "v2"); // the new a.cs, written and closed
        coalescer.noteExists(temp / "a.cs", t0 + 1ms, true);
        CHECK(coalescer.due(t0 + 1ms));
        const ChangeSet changes = coalescer.flush();
        CHECK(changes.modified == Paths{temp / "a.cs"});
        CHECK(changes.removed.empty());
    }

    TEST_CASE("flush lists as complete the files whose last note said they are whole") {
        TempFolder temp;
        writeFile(temp / "closed.so", "v2");
        writeFile(temp / "written.so", "v2");
        writeFile(temp / "reopened.so", "v2");
        ChangeCoalescer coalescer(indexOf({temp / "reopened.so"}), 30ms, 1s, true);
        const auto t0 = Clock::now();
        coalescer.noteExists(temp / "closed.so", t0);
        coalescer.noteExists(temp / "closed.so", t0 + 1ms, true); // IN_CLOSE_WRITE
        coalescer.noteExists(temp / "written.so", t0 + 2ms);      // IN_MODIFY, still open
        coalescer.noteExists(temp / "reopened.so", t0 + 3ms, true);
        coalescer.noteExists(temp / "reopened.so", t0 + 4ms); // written again after the close
        const ChangeSet set = coalescer.flush();
        CHECK(set.added == Paths{temp / "closed.so", temp / "written.so"});
        CHECK(set.modified == Paths{temp / "reopened.so"});
        CHECK(set.complete == Paths{temp / "closed.so"});
    }

    TEST_CASE("deadline: without flushCompleteSaves a complete save still waits the quiet window") {
        ChangeCoalescer coalescer({}, 30ms, 1s);
        const auto t0 = Clock::now();
        coalescer.noteExists("/r/a.cs", t0, true);
        CHECK(coalescer.deadline() == t0 + 30ms);
    }

    TEST_CASE("rescan diffs a full scan against the last reported state and drops pending") {
        TempFolder temp;
        writeFile(temp / "Same.cs", "x");
        writeFile(temp / "Edited.cs", "x");
        writeFile(temp / "Deleted.cs", "x");
        ChangeCoalescer coalescer(
            indexOf({temp / "Same.cs", temp / "Edited.cs", temp / "Deleted.cs"}), 30ms, 1s);
        coalescer.noteExists(temp / "Same.cs", Clock::now()); // superseded by the rescan

        writeFile(temp / "Edited.cs", "longer content"); // size changes
        fs::remove(temp / "Deleted.cs");
        writeFile(temp / "Added.cs", "x");
        const ChangeSet set =
            coalescer.rescan(indexOf({temp / "Same.cs", temp / "Edited.cs", temp / "Added.cs"}));
        CHECK(set.rescanned);
        CHECK(set.added == Paths{temp / "Added.cs"});
        CHECK(set.modified == Paths{temp / "Edited.cs"});
        CHECK(set.removed == Paths{temp / "Deleted.cs"});
        CHECK_FALSE(coalescer.hasPending());
        CHECK(coalescer.known().size() == 3);
    }
    TEST_CASE("a noted rescan waits for the quiet window and flags the flushed set") {
        TempFolder temp;
        writeFile(temp / "Kept.cs", "v1");
        ChangeCoalescer coalescer(indexOf({temp / "Kept.cs"}), 30ms, 1s, true);
        const auto t0 = Clock::now();
        coalescer.noteRescanNeeded(t0); // a root came back
        CHECK(coalescer.hasPending());
        CHECK(coalescer.rescanNeeded());
        CHECK(coalescer.deadline() == t0 + 30ms);
        writeFile(temp / "New.cs", "v1");
        coalescer.noteExists(temp / "New.cs", t0 + 5ms, true); // complete, but not flushed at once
        CHECK(coalescer.deadline() == t0 + 35ms);
        CHECK_FALSE(coalescer.due(t0 + 34ms));

        const ChangeSet set = coalescer.flush();
        CHECK(set.rescanned);
        CHECK_FALSE(set.firstSeen.has_value());
        CHECK(set.added == Paths{temp / "New.cs"});
        CHECK_FALSE(coalescer.hasPending());
        CHECK_FALSE(coalescer.rescanNeeded());

        // Nothing else noted: the next set is an ordinary one.
        writeFile(temp / "Kept.cs", "v2, longer");
        coalescer.noteExists(temp / "Kept.cs", t0 + 100ms, true);
        const ChangeSet next = coalescer.flush();
        CHECK_FALSE(next.rescanned);
        CHECK(next.modified == Paths{temp / "Kept.cs"});
    }

    TEST_CASE("a noted rescan alone still makes a (rescanned, empty) set, and rescan() clears it") {
        ChangeCoalescer coalescer({}, 30ms, 1s);
        const auto t0 = Clock::now();
        coalescer.noteRescanNeeded(t0);
        const ChangeSet alone = coalescer.flush();
        CHECK(alone.rescanned);
        CHECK(alone.empty());

        coalescer.noteRescanNeeded(t0 + 50ms);
        const ChangeSet rescanned = coalescer.rescan({});
        CHECK(rescanned.rescanned);
        CHECK_FALSE(coalescer.hasPending());
        CHECK_FALSE(coalescer.rescanNeeded());
        CHECK_FALSE(coalescer.deadline().has_value());
    }
}
