// PollingBackend on its own (no SourceWatcher): what its constructor scans, and the sets its
// run() loop publishes for files created, modified, renamed, deleted and moved out, folders
// moved in, a root deleted or swapped for another folder, a requested rescan, and a stop.

#include "polling_backend.hpp"
#include "support/backend_loop.hpp"
#include "support/printers.hpp"
#include "support/temp_folder.hpp"
#include "support/watch_helpers.hpp"

#include <cstdio>
#include <doctest/doctest.h>
#include <fcntl.h>

namespace fs = std::filesystem;
using namespace scripthost::watcher;
using namespace scripthost::watcher::test;
using scripthost::watcher::detail::FileIndex;
using scripthost::watcher::detail::LoopContext;
using scripthost::watcher::detail::MissingRoots;
using scripthost::watcher::detail::PollingBackend;

namespace {

// The backend with the state it refers to, and its loop. Declared in this order so the loop
// thread is joined before the backend goes.
struct Polled {
    PathFilter filter = PathFilter::scriptSources();
    MissingRoots missing;
    PollingBackend backend;
    std::unique_ptr<BackendLoop> loop;

    explicit Polled(Paths roots, std::chrono::milliseconds interval = testPollInterval)
        : backend(std::move(roots), filter, interval, missing) {}
    // Starts run() on the loop thread, from the files the constructor found.
    void run() {
        loop = std::make_unique<BackendLoop>(backend.lastScan());
        loop->start([this](LoopContext& context) { backend.run(context); });
    }
};

// A scan interval no test waits for: whatever happens within it is the test's doing.
constexpr std::chrono::minutes longInterval{1};

} // namespace

TEST_CASE("PollingBackend: the constructor scans the roots there and marks the missing ones") {
    TempFolder temp;
    writeFile(temp / "a/A.cs", "a");
    writeFile(temp / "a/sub/deep/B.cs", "bb");
    writeFile(temp / "a/notes.txt", "refused: another extension");
    writeFile(temp / "a/obj/Gen.cs", "refused: build output");
    writeFile(temp / "a/.hidden/X.cs", "refused: a hidden folder");
    Polled polled({temp / "a", temp / "missing"});

    Paths files;
    for (const auto& [file, stamp] : polled.backend.lastScan()) {
        files.push_back(file);
        CHECK(detail::stampOf(file) == stamp);
    }
    CHECK(files == Paths{temp / "a/A.cs", temp / "a/sub/deep/B.cs"});
    CHECK(polled.backend.lastScan().at(temp / "a/sub/deep/B.cs").size == 2);
    CHECK(polled.missing.list() == Paths{temp / "missing"});
}

TEST_CASE("PollingBackend: a file created, modified, renamed and deleted is reported step by "
          "step") {
    TempFolder temp;
    Polled polled({temp.path()});
    polled.run();
    BackendLoop& loop = *polled.loop;

    putFile(temp / "A.cs", "v1");
    CHECK(loop.awaitSet(changes({temp / "A.cs"})) == changes({temp / "A.cs"}));

    writeFile(temp / "A.cs", "v2, written in place");
    CHECK(loop.awaitSet(changes({}, {temp / "A.cs"})) == changes({}, {temp / "A.cs"}));

    fs::rename(temp / "A.cs", temp / "B.cs");
    const ChangeSet renamed = changes({temp / "B.cs"}, {}, {temp / "A.cs"});
    CHECK(loop.awaitSet(renamed) == renamed);

    fs::remove(temp / "B.cs");
    CHECK(loop.awaitSet(changes({}, {}, {temp / "B.cs"})) == changes({}, {}, {temp / "B.cs"}));
}

TEST_CASE("PollingBackend: files and folders moved out are removed, a folder moved in added") {
    TempFolder temp;
    writeFile(temp / "root/A.cs", "x");
    writeFile(temp / "root/out/B.cs", "x");
    writeFile(temp / "root/out/deep/C.cs", "x");
    writeFile(temp / "outside/in/D.cs", "x");
    Polled polled({temp / "root"});
    polled.run();
    BackendLoop& loop = *polled.loop;

    fs::rename(temp / "root/A.cs", temp / "outside/A.cs");
    fs::rename(temp / "root/out", temp / "outside/out");
    const ChangeSet movedOut =
        changes({}, {}, {temp / "root/A.cs", temp / "root/out/B.cs", temp / "root/out/deep/C.cs"});
    CHECK(loop.awaitSet(movedOut) == movedOut);

    fs::rename(temp / "outside/in", temp / "root/in");
    CHECK(loop.awaitSet(changes({temp / "root/in/D.cs"})) == changes({temp / "root/in/D.cs"}));

    // What happens outside the root is not reported: the next set is only the marker's.
    writeFile(temp / "outside/out/E.cs", "x");
    putFile(temp / "root/in/Marker.cs", "x");
    CHECK(loop.awaitSet(changes({temp / "root/in/Marker.cs"})) ==
          changes({temp / "root/in/Marker.cs"}));
}

TEST_CASE("PollingBackend: a deleted root reports its files removed and comes back rescanned") {
    TempFolder temp;
    const fs::path root = temp / "scripts";
    writeFile(root / "A.cs", "x");
    writeFile(root / "sub/B.cs", "x");
    Polled polled({root});
    polled.run();
    BackendLoop& loop = *polled.loop;

    fs::remove_all(root);
    const ChangeSet gone = changes({}, {}, {root / "A.cs", root / "sub/B.cs"});
    CHECK(loop.awaitSet(gone) == gone);
    CHECK(waitUntil([&] { return polled.missing.list() == Paths{root}; }));

    fs::create_directory(root);
    writeFile(root / "C.cs", "x");
    const ChangeSet back = changes({root / "C.cs"}, {}, {}, rescanned);
    CHECK(loop.awaitSet(back) == back);
    CHECK(polled.missing.list().empty());

    putFile(root / "D.cs", "x");
    CHECK(loop.awaitSet(changes({root / "D.cs"})) == changes({root / "D.cs"}));
}

TEST_CASE("PollingBackend: a root swapped with another folder in one rename is rescanned") {
    TempFolder temp;
    const fs::path root = temp / "scripts";
    writeFile(root / "A.cs", "x");
    writeFile(temp / "other/B.cs", "x");
    Polled polled({root});
    polled.run();
    BackendLoop& loop = *polled.loop;

    // The root path never stops naming a folder: only its identity tells the swap.
    REQUIRE(::renameat2(AT_FDCWD, root.c_str(), AT_FDCWD, (temp / "other").c_str(),
                        RENAME_EXCHANGE) == 0);
    const ChangeSet swapped = changes({root / "B.cs"}, {}, {root / "A.cs"}, rescanned);
    CHECK(loop.awaitSet(swapped) == swapped);
    CHECK(polled.missing.list().empty());
}

TEST_CASE("PollingBackend: a requested rescan wakes the loop and reports the scan, rescanned") {
    TempFolder temp;
    writeFile(temp / "Old.cs", "x");
    writeFile(temp / "Changed.cs", "x");
    Polled polled({temp.path()}, longInterval);
    polled.run();
    BackendLoop& loop = *polled.loop;

    // No scan runs within the interval: only the rescan can find these.
    fs::remove(temp / "Old.cs");
    writeFile(temp / "Changed.cs", "longer now");
    writeFile(temp / "New.cs", "x");
    loop.requestRescan();
    const auto rescan = loop.next();
    REQUIRE(rescan.has_value());
    CHECK(*rescan ==
          changes({temp / "New.cs"}, {temp / "Changed.cs"}, {temp / "Old.cs"}, rescanned));
    // The rescan is the new state: the scan after it compares with it.
    REQUIRE(loop.stop());
    CHECK(polled.backend.lastScan().contains(temp / "New.cs"));
    CHECK_FALSE(polled.backend.lastScan().contains(temp / "Old.cs"));
}

TEST_CASE("PollingBackend: run() returns at a stop request without waiting out its interval") {
    TempFolder temp;
    Polled polled({temp.path()}, longInterval);
    polled.run();
    CHECK(polled.loop->stop());
}
