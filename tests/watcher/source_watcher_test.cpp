// SourceWatcher's contract: start() errors, delivery, backend choice and fallback, rescans.

#include "support/printers.hpp"
#include "support/temp_folder.hpp"
#include "support/watch_helpers.hpp"
#include "watcher/source_watcher.hpp"

#include <atomic>
#include <condition_variable>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace scripthost::watcher;
using namespace scripthost::watcher::test;

namespace {

// Lets a test hold the watcher thread before it reads events, then let it go.
class Gate {
public:
    void wait() {
        std::unique_lock lock(mutex_);
        opened_.wait(lock, [this] { return open_; });
    }
    void open() {
        {
            const std::lock_guard lock(mutex_);
            open_ = true;
        }
        opened_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable opened_;
    bool open_ = false;
};

long readProcNumber(const char* file) {
    std::ifstream in(file);
    long value = 0;
    in >> value;
    return in ? value : -1;
}

} // namespace

TEST_SUITE("SourceWatcher") {
    TEST_CASE("start() refuses a missing root and names it") {
        TempFolder temp;
        WatchOptions options;
        options.roots = {temp.path(), temp / "no-such-folder"};
        const auto started = SourceWatcher::start(options);
        REQUIRE_FALSE(started.has_value());
        CHECK(started.error().code == WatchError::Code::RootMissing);
        CHECK(started.error().message.find((temp / "no-such-folder").string()) !=
              std::string::npos);
    }

    TEST_CASE("start() refuses a root that is a file, and no roots at all") {
        TempFolder temp;
        writeFile(temp / "file.cs", "x");
        WatchOptions options;
        options.roots = {temp / "file.cs"};
        const auto fileRoot = SourceWatcher::start(options);
        REQUIRE_FALSE(fileRoot.has_value());
        CHECK(fileRoot.error().code == WatchError::Code::RootNotDirectory);
        CHECK(fileRoot.error().message.find((temp / "file.cs").string()) != std::string::npos);

        const auto none = SourceWatcher::start(WatchOptions{});
        REQUIRE_FALSE(none.has_value());
        CHECK(none.error().code == WatchError::Code::NoRoots);
    }

    TEST_CASE_TEMPLATE("add, modify, remove: the same change sets from both backends", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        writeFile(temp / "Old.cs", "x");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));
        CHECK(watcher->backend() == B::value);
        CHECK_FALSE(watcher->poll().has_value()); // nothing happened yet, and poll() never waits

        writeFile(temp / "New.cs", "class New {}");
        auto added = collectUntilSilent(*watcher);
        REQUIRE(added.size() == 1);
        CHECK(added[0] == ChangeSet{.added = {temp / "New.cs"}, .modified = {}, .removed = {}});

        writeFile(temp / "Old.cs", "class Old { int changed; }");
        auto modified = collectUntilSilent(*watcher);
        REQUIRE(modified.size() == 1);
        CHECK(modified[0] == ChangeSet{.added = {}, .modified = {temp / "Old.cs"}, .removed = {}});

        fs::remove(temp / "Old.cs");
        fs::remove(temp / "New.cs");
        auto removed = collectUntilSilent(*watcher);
        REQUIRE(removed.size() == 1);
        CHECK(removed[0] == ChangeSet{.added = {},
                                      .modified = {},
                                      .removed = {temp / "New.cs", temp / "Old.cs"}});
    }

    TEST_CASE_TEMPLATE("create+delete in one window cancels out, delete+create is a modification",
                       B, InotifyTag, PollingTag) {
        TempFolder temp;
        writeFile(temp / "Stays.cs", "v1");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        writeFile(temp / "Flash.cs", "x");
        fs::remove(temp / "Flash.cs");
        fs::remove(temp / "Stays.cs");
        writeFile(temp / "Stays.cs", "v2");

        auto sets = collectUntilSilent(*watcher);
        REQUIRE(sets.size() == 1);
        CHECK(sets[0] == ChangeSet{.added = {}, .modified = {temp / "Stays.cs"}, .removed = {}});
    }

    TEST_CASE("several roots, nested ones merged into their parent") {
        TempFolder temp;
        fs::create_directories(temp / "game/scripts");
        fs::create_directories(temp / "lib");
        WatchOptions options = testOptions(temp / "game", Backend::Automatic);
        options.roots = {temp / "lib", temp / "game/scripts", temp / "game"};
        auto watcher = startOrFail(std::move(options));
        CHECK(watcher->roots() == Paths{temp / "game", temp / "lib"});

        writeFile(temp / "lib/Util.cs", "x");
        writeFile(temp / "game/scripts/Player.cs", "x");
        auto sets = collectUntilSilent(*watcher);
        REQUIRE(sets.size() == 1);
        CHECK(sets[0].added == Paths{temp / "game/scripts/Player.cs", temp / "lib/Util.cs"});
    }

    TEST_CASE("onChange is called after a set is queued") {
        TempFolder temp;
        std::atomic<int> calls{0};
        WatchOptions options = testOptions(temp.path(), Backend::Inotify);
        options.onChange = [&calls] { ++calls; };
        auto watcher = startOrFail(std::move(options));

        writeFile(temp / "A.cs", "x");
        const auto set = nextChangeSet(*watcher);
        REQUIRE(set.has_value());
        CHECK(set->added == Paths{temp / "A.cs"});
        // The callback runs right after the push, so it may trail waitFor() by a moment.
        CHECK(waitUntil([&calls] { return calls.load() == 1; }));
        CHECK_FALSE(watcher->waitFor(std::chrono::steady_clock::now() + silenceWindow));
        CHECK(calls.load() == 1); // one set, one call
    }

    TEST_CASE_TEMPLATE("requestRescan() reports a rescanned set listing what differs", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        writeFile(temp / "A.cs", "x");
        auto watcher = startOrFail(testOptions(temp.path(), B::value));

        watcher->requestRescan();
        const auto set = nextChangeSet(*watcher);
        REQUIRE(set.has_value());
        CHECK(set->rescanned);
        CHECK(set->empty()); // nothing changed since start
    }

    TEST_CASE("inotify queue overflow triggers a rescan that finds the missed changes") {
        const long queueLimit = readProcNumber("/proc/sys/fs/inotify/max_queued_events");
        if (queueLimit <= 0 || queueLimit > 200'000) {
            MESSAGE("skipped: max_queued_events is " << queueLimit << ", too costly to overflow");
            return;
        }
        TempFolder temp;
        writeFile(temp / "HammerA.cs", "");
        writeFile(temp / "HammerB.cs", "");
        writeFile(temp / "Old.cs", "x");
        auto gate = std::make_shared<Gate>();
        WatchOptions options = testOptions(temp.path(), Backend::Inotify);
        options.testHooks.beforeWait = [gate] { gate->wait(); }; // hold the reader
        auto watcher = startOrFail(std::move(options));

        {
            // Alternating writes are never merged by the kernel: each is one queued event.
            const int a = ::open((temp / "HammerA.cs").c_str(), O_WRONLY | O_APPEND);
            const int b = ::open((temp / "HammerB.cs").c_str(), O_WRONLY | O_APPEND);
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
        gate->open();

        const auto sets =
            collectUntil(*watcher, [](const ChangeSet& all) { return all.rescanned; });
        REQUIRE_FALSE(sets.empty());
        const ChangeSet& rescan = sets.back();
        CHECK(rescan.rescanned);
        CHECK(rescan.added == Paths{temp / "New.cs"});
        CHECK(rescan.modified == Paths{temp / "HammerA.cs", temp / "HammerB.cs"});
        CHECK(rescan.removed == Paths{temp / "Old.cs"});
        CHECK(watcher->backend() == Backend::Inotify);
    }

    TEST_CASE("out of inotify watches at start: Automatic falls back to polling, Inotify fails") {
        TempFolder temp;
        fs::create_directories(temp / "sub");
        WatchOptions options = testOptions(temp.path(), Backend::Automatic);
        options.testHooks.inotifyWatchLimit = 1; // the root fits, sub/ does not

        auto watcher = startOrFail(options);
        CHECK(watcher->backend() == Backend::Polling);
        writeFile(temp / "sub/A.cs", "x");
        const auto set = nextChangeSet(*watcher);
        REQUIRE(set.has_value());
        CHECK(set->added == Paths{temp / "sub/A.cs"});

        options.backend = Backend::Inotify;
        const auto refused = SourceWatcher::start(options);
        REQUIRE_FALSE(refused.has_value());
        CHECK(refused.error().code == WatchError::Code::InotifyUnavailable);
    }

    TEST_CASE("running out of inotify watches later switches to polling without losing files") {
        TempFolder temp;
        WatchOptions options = testOptions(temp.path(), Backend::Automatic);
        options.testHooks.inotifyWatchLimit = 2; // root + one subfolder
        auto watcher = startOrFail(std::move(options));
        REQUIRE(watcher->backend() == Backend::Inotify);

        writeFile(temp / "one/A.cs", "x");
        writeFile(temp / "two/B.cs", "x"); // needs a third watch
        const auto sets = collectUntil(*watcher, [&](const ChangeSet& all) {
            return all.added == Paths{temp / "one/A.cs", temp / "two/B.cs"};
        });
        CHECK(merged(sets).added == Paths{temp / "one/A.cs", temp / "two/B.cs"});
        CHECK(merged(sets).rescanned); // the switch itself is reported as a rescan
        CHECK(watcher->backend() == Backend::Polling);

        // Polling now sees changes anywhere.
        writeFile(temp / "two/C.cs", "x");
        const auto later = collectUntilSilent(*watcher);
        REQUIRE(later.size() == 1);
        CHECK(later[0].added == Paths{temp / "two/C.cs"});
    }
}

TEST_SUITE("SourceWatcher holding changes") {
    TEST_CASE_TEMPLATE("holdingChanges is true from a change until its set is queued", B,
                       InotifyTag, PollingTag) {
        TempFolder temp;
        WatchOptions options = testOptions(temp.path(), B::value);
        options.quietWindow = std::chrono::milliseconds(400);
        auto watcher = startOrFail(std::move(options));
        CHECK_FALSE(watcher->holdingChanges());
        writeFile(temp / "A.cs", "x");
        CHECK(waitUntil([&] { return watcher->holdingChanges(); }));
        const auto set = nextChangeSet(*watcher);
        REQUIRE(set.has_value());
        CHECK(set->added == Paths{temp / "A.cs"});
        CHECK(waitUntil([&] { return !watcher->holdingChanges(); }));
    }

    TEST_CASE("with inotify, holdingChanges is true from the system call that made a change, "
              "before the watcher thread has read it") {
        // A build that read a file in the middle of a save must not be taken for the newest: the
        // save's truncation is in the kernel's queue before the build can finish, however long
        // the watcher thread waits for a CPU.
        TempFolder temp;
        writeFile(temp / "A.cs", "class A {}");
        auto gate = std::make_shared<Gate>();
        WatchOptions options = testOptions(temp.path(), Backend::Inotify);
        options.testHooks.beforeWait = [gate] { gate->wait(); }; // the reader never reads
        auto watcher = startOrFail(std::move(options));
        CHECK_FALSE(watcher->holdingChanges());
        {
            std::ofstream truncated(temp / "A.cs", std::ios::trunc); // half of a save
            CHECK(watcher->holdingChanges());
        }
        CHECK(watcher->holdingChanges());
        gate->open();
        const auto set = nextChangeSet(*watcher);
        REQUIRE(set.has_value());
        CHECK(set->modified == Paths{temp / "A.cs"});
        CHECK(waitUntil([&] { return !watcher->holdingChanges(); }));
    }
}
