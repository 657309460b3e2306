// InotifyBackend on its own (no SourceWatcher): what create() indexes and refuses, and the
// sets its run() loop publishes for files created, modified, renamed, deleted and moved out,
// folders moved in, filtered paths, a root missing at start, deleted or swapped, a queue
// overflow, running out of watches, a requested rescan, and a stop.

#include "inotify_backend.hpp"
#include "support/backend_loop.hpp"
#include "support/printers.hpp"
#include "support/temp_folder.hpp"
#include "support/watch_helpers.hpp"

#include <cerrno>
#include <cstdio>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace scripthost::watcher;
using namespace scripthost::watcher::test;
using scripthost::watcher::detail::FileIndex;
using scripthost::watcher::detail::InotifyBackend;
using scripthost::watcher::detail::LoopContext;
using scripthost::watcher::detail::MissingRoots;

namespace {

// The backend with the state it refers to, and its loop. Declared in this order so the loop
// thread is joined before the backend goes.
struct Watched {
    PathFilter filter = PathFilter::scriptSources();
    MissingRoots missing;
    std::unique_ptr<InotifyBackend> backend;
    std::unique_ptr<BackendLoop> loop;
    InotifyBackend::Outcome outcome = InotifyBackend::Outcome::Failed;

    // Creates the backend (failing the test when it cannot) without running it.
    explicit Watched(Paths roots, std::size_t watchLimit = 0) {
        auto created = InotifyBackend::create(std::move(roots), filter, watchLimit, missing);
        REQUIRE_MESSAGE(created.has_value(), (created ? "" : created.error().message));
        backend = std::move(*created);
    }
    // Starts run() on the loop thread, from the files create() found.
    void run() {
        loop = std::make_unique<BackendLoop>(backend->takeInitialIndex());
        loop->start([this](LoopContext& context) { outcome = backend->run(context); });
    }
};

long readProcNumber(const char* file) {
    std::ifstream in(file);
    long value = 0;
    in >> value;
    return in ? value : -1;
}

} // namespace

TEST_CASE("InotifyBackend: create() indexes the accepted files below every root with stamps") {
    TempFolder temp;
    writeFile(temp / "a/A.cs", "a");
    writeFile(temp / "a/sub/deep/B.cs", "bb");
    writeFile(temp / "a/notes.txt", "refused: another extension");
    writeFile(temp / "a/bin/Gen.cs", "refused: build output");
    writeFile(temp / "a/.git/X.cs", "refused: a hidden folder");
    writeFile(temp / "b/C.cs", "ccc");
    Watched watched({temp / "a", temp / "b"});

    const FileIndex index = watched.backend->takeInitialIndex();
    Paths files;
    for (const auto& [file, stamp] : index) {
        files.push_back(file);
        CHECK(detail::stampOf(file) == stamp);
    }
    CHECK(files == Paths{temp / "a/A.cs", temp / "a/sub/deep/B.cs", temp / "b/C.cs"});
    CHECK(index.at(temp / "a/sub/deep/B.cs").size == 2);
    CHECK(watched.missing.list().empty());
}

TEST_CASE("InotifyBackend: a file created, modified, renamed and deleted is reported step by "
          "step") {
    TempFolder temp;
    Watched watched({temp.path()});
    watched.run();
    BackendLoop& loop = *watched.loop;

    putFile(temp / "A.cs", "v1");
    CHECK(loop.awaitSet(changes({temp / "A.cs"})) == changes({temp / "A.cs"}));

    writeFile(temp / "A.cs", "v2, written in place");
    CHECK(loop.awaitSet(changes({}, {temp / "A.cs"})) == changes({}, {temp / "A.cs"}));

    fs::rename(temp / "A.cs", temp / "B.cs");
    const ChangeSet renamed = changes({temp / "B.cs"}, {}, {temp / "A.cs"});
    CHECK(loop.awaitSet(renamed) == renamed);

    fs::remove(temp / "B.cs");
    CHECK(loop.awaitSet(changes({}, {}, {temp / "B.cs"})) == changes({}, {}, {temp / "B.cs"}));

    CHECK(loop.stop());
    CHECK(watched.outcome == InotifyBackend::Outcome::Stopped);
}

TEST_CASE("InotifyBackend: a file and a folder moved out are removed and no longer watched") {
    TempFolder temp;
    writeFile(temp / "root/A.cs", "x");
    writeFile(temp / "root/out/B.cs", "x");
    writeFile(temp / "root/out/deep/C.cs", "x");
    fs::create_directory(temp / "outside");
    Watched watched({temp / "root"});
    watched.run();
    BackendLoop& loop = *watched.loop;

    fs::rename(temp / "root/A.cs", temp / "outside/A.cs");
    CHECK(loop.awaitSet(changes({}, {}, {temp / "root/A.cs"})) ==
          changes({}, {}, {temp / "root/A.cs"}));

    fs::rename(temp / "root/out", temp / "outside/out");
    const ChangeSet folderGone =
        changes({}, {}, {temp / "root/out/B.cs", temp / "root/out/deep/C.cs"});
    CHECK(loop.awaitSet(folderGone) == folderGone);

    // Writes in the moved-out folder are not reported: the next set is only the marker's.
    writeFile(temp / "outside/out/deep/D.cs", "x");
    putFile(temp / "root/Marker.cs", "x");
    CHECK(loop.awaitSet(changes({temp / "root/Marker.cs"})) == changes({temp / "root/Marker.cs"}));
}

TEST_CASE("InotifyBackend: a folder made or moved in while running is listed and watched") {
    TempFolder temp;
    writeFile(temp / "outside/in/B.cs", "x");
    writeFile(temp / "outside/in/sub/C.cs", "x");
    fs::create_directory(temp / "root");
    Watched watched({temp / "root"});
    watched.run();
    BackendLoop& loop = *watched.loop;

    // Written right after mkdir: usually before the backend has a watch on c/.
    fs::create_directories(temp / "root/a/b/c");
    writeFile(temp / "root/a/b/c/Early.cs", "x");
    CHECK(loop.awaitSet(changes({temp / "root/a/b/c/Early.cs"})) ==
          changes({temp / "root/a/b/c/Early.cs"}));

    fs::rename(temp / "outside/in", temp / "root/in");
    const ChangeSet movedIn = changes({temp / "root/in/B.cs", temp / "root/in/sub/C.cs"});
    CHECK(loop.awaitSet(movedIn) == movedIn);

    // Both new trees are watched down to their deepest folder.
    putFile(temp / "root/a/b/c/Later.cs", "x");
    putFile(temp / "root/in/sub/D.cs", "x");
    const ChangeSet later = changes({temp / "root/a/b/c/Later.cs", temp / "root/in/sub/D.cs"});
    CHECK(loop.awaitSet(later) == later);
}

TEST_CASE("InotifyBackend: files and folders the filter refuses are not reported") {
    TempFolder temp;
    Watched watched({temp.path()});
    watched.run();
    BackendLoop& loop = *watched.loop;

    writeFile(temp / "notes.txt", "x");
    writeFile(temp / "Player.cs~", "x");
    writeFile(temp / "bin/Gen.cs", "x");
    writeFile(temp / "obj/Debug/Gen.cs", "x");
    writeFile(temp / ".vscode/Settings.cs", "x");
    putFile(temp / "Marker.cs", "x");
    CHECK(loop.awaitSet(changes({temp / "Marker.cs"})) == changes({temp / "Marker.cs"}));
}

TEST_CASE("InotifyBackend: a root missing at create() is followed and rescanned when it appears") {
    TempFolder temp;
    const fs::path root = temp / "later/scripts";
    Watched watched({root});
    CHECK(watched.missing.list() == Paths{root});
    watched.run();
    BackendLoop& loop = *watched.loop;

    fs::create_directories(root);
    writeFile(root / "A.cs", "x");
    writeFile(root / "sub/B.cs", "x");
    const ChangeSet appeared = changes({root / "A.cs", root / "sub/B.cs"}, {}, {}, rescanned);
    CHECK(loop.awaitSet(appeared) == appeared);
    CHECK(watched.missing.list().empty());

    putFile(root / "sub/C.cs", "x");
    CHECK(loop.awaitSet(changes({root / "sub/C.cs"})) == changes({root / "sub/C.cs"}));
}

TEST_CASE("InotifyBackend: a deleted root reports its files removed and is watched again") {
    TempFolder temp;
    const fs::path root = temp / "scripts";
    writeFile(root / "A.cs", "x");
    writeFile(root / "sub/B.cs", "x");
    Watched watched({root});
    watched.run();
    BackendLoop& loop = *watched.loop;

    fs::remove_all(root);
    const ChangeSet gone = changes({}, {}, {root / "A.cs", root / "sub/B.cs"});
    CHECK(loop.awaitSet(gone) == gone);
    CHECK(waitUntil([&] { return watched.missing.list() == Paths{root}; }));

    fs::create_directory(root);
    writeFile(root / "C.cs", "x");
    const ChangeSet back = changes({root / "C.cs"}, {}, {}, rescanned);
    CHECK(loop.awaitSet(back) == back);
    CHECK(watched.missing.list().empty());

    putFile(root / "D.cs", "x");
    CHECK(loop.awaitSet(changes({root / "D.cs"})) == changes({root / "D.cs"}));
}

TEST_CASE("InotifyBackend: a root swapped with another folder in one rename is rescanned") {
    TempFolder temp;
    const fs::path root = temp / "scripts";
    writeFile(root / "A.cs", "x");
    writeFile(temp / "other/B.cs", "x");
    Watched watched({root});
    watched.run();
    BackendLoop& loop = *watched.loop;

    // The root path never stops naming a folder: only its identity changes.
    REQUIRE(::renameat2(AT_FDCWD, root.c_str(), AT_FDCWD, (temp / "other").c_str(),
                        RENAME_EXCHANGE) == 0);
    const ChangeSet swapped = changes({root / "B.cs"}, {}, {root / "A.cs"}, rescanned);
    CHECK(loop.awaitSet(swapped) == swapped);
    CHECK(watched.missing.list().empty());

    // The old root folder, now elsewhere, is not watched; the new one is.
    writeFile(temp / "other/Old.cs", "x");
    putFile(root / "New.cs", "x");
    CHECK(loop.awaitSet(changes({root / "New.cs"})) == changes({root / "New.cs"}));
}

TEST_CASE("InotifyBackend: a queue overflow makes run() rescan and report what was missed") {
    const long queueLimit = readProcNumber("/proc/sys/fs/inotify/max_queued_events");
    if (queueLimit <= 0 || queueLimit > 200'000) {
        MESSAGE("skipped: max_queued_events is " << queueLimit << ", too costly to overflow");
        return;
    }
    TempFolder temp;
    writeFile(temp / "HammerA.cs", "");
    writeFile(temp / "HammerB.cs", "");
    writeFile(temp / "Old.cs", "x");
    Watched watched({temp.path()});
    {
        // run() is not reading yet: the kernel queues these until it overflows. Alternating
        // writes are never merged by the kernel: each is one queued event.
        const int a = ::open((temp / "HammerA.cs").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
        const int b = ::open((temp / "HammerB.cs").c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
        REQUIRE(a >= 0);
        REQUIRE(b >= 0);
        long written = 0;
        for (long i = 0; i < queueLimit / 2 + 100; ++i) {
            written += ::write(a, "a", 1) + ::write(b, "b", 1);
        }
        CHECK(written == 2 * (queueLimit / 2 + 100));
        ::close(a);
        ::close(b);
    }
    // These events cannot be queued any more: only the rescan can find them.
    fs::remove(temp / "Old.cs");
    writeFile(temp / "New.cs", "x");
    watched.run();

    const ChangeSet rescan = changes({temp / "New.cs"}, {temp / "HammerA.cs", temp / "HammerB.cs"},
                                     {temp / "Old.cs"}, rescanned);
    CHECK(watched.loop->awaitSet(rescan) == rescan);
}

TEST_CASE("InotifyBackend: create() fails with ENOSPC when the roots need more watches") {
    TempFolder temp;
    fs::create_directories(temp / "sub");
    PathFilter filter = PathFilter::scriptSources();
    MissingRoots missing;
    const auto created = InotifyBackend::create({temp.path()}, filter, 1, missing);
    REQUIRE_FALSE(created.has_value());
    CHECK(created.error().error == ENOSPC);
    CHECK(created.error().message.find(temp.path().string()) != std::string::npos);
    CHECK(created.error().message.find("max_user_watches") != std::string::npos);
    // The same tree fits within two watches.
    CHECK(InotifyBackend::create({temp.path()}, filter, 2, missing).has_value());
}

TEST_CASE("InotifyBackend: run() ends with OutOfWatches when a new folder needs one too many") {
    TempFolder temp;
    fs::create_directories(temp / "one");
    Watched watched({temp.path()}, 2); // the root and one/
    watched.run();
    BackendLoop& loop = *watched.loop;

    putFile(temp / "one/A.cs", "x"); // still fits
    CHECK(loop.awaitSet(changes({temp / "one/A.cs"})) == changes({temp / "one/A.cs"}));

    fs::create_directory(temp / "two");
    REQUIRE(loop.finished());
    CHECK(watched.outcome == InotifyBackend::Outcome::OutOfWatches);
}

TEST_CASE("InotifyBackend: a requested rescan publishes a rescanned set, then events go on") {
    TempFolder temp;
    writeFile(temp / "A.cs", "x");
    Watched watched({temp.path()});
    watched.run();
    BackendLoop& loop = *watched.loop;

    loop.requestRescan();
    const auto rescan = loop.next();
    REQUIRE(rescan.has_value());
    CHECK(*rescan == changes({}, {}, {}, rescanned)); // nothing differs from create()'s index

    putFile(temp / "B.cs", "x");
    CHECK(loop.awaitSet(changes({temp / "B.cs"})) == changes({temp / "B.cs"}));
}
