// LibraryWatch over real files in a temp folder with real library bytes: a build copied over
// the library or renamed into place is ready at once (the settle time is 10 s, so only the
// close or the rename can make it ready), one still open for writing is not, a change with no
// close settles, and without events every change settles.
#include "../../support/test_support.hpp"
#include "host/modules/library_watch.hpp"
#include "posix/unique_fd.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

using namespace scripthost;
using namespace scripthost::testing;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using Ready = LibraryWatch::Ready;
using Clock = LibraryWatch::Clock;

namespace {

struct WatchFixture {
    TempDir dir{"library-watch"};
    fs::path library = dir / "libprobe.so";
    std::string bytes = readFile(PROBE_GAME_MODULE);
    std::unique_ptr<LibraryWatch> watch;

    explicit WatchFixture(LibraryWatchOptions options = {true, 10s}) {
        fs::copy_file(PROBE_GAME_MODULE, library);
        watch = std::make_unique<LibraryWatch>(library, options);
    }

    /// Polls (as frames do) until a build is ready or `timeout` passes; what it said last.
    Ready pollUntilReady(std::chrono::milliseconds timeout) {
        Ready ready = Ready::No;
        waitUntil([&] { return (ready = watch->poll(Clock::now())) != Ready::No; }, timeout);
        return ready;
    }

    /// Polls for `span` (the one bounded wait that is an assertion): nothing may be ready.
    void expectNothingReadyFor(std::chrono::milliseconds span) {
        const auto end = Clock::now() + span;
        while (Clock::now() < end) {
            REQUIRE(watch->poll(Clock::now()) == Ready::No);
            std::this_thread::sleep_for(2ms);
        }
    }

    void writeAll(int fd, std::string_view part) {
        while (!part.empty()) {
            const ssize_t wrote = ::write(fd, part.data(), part.size());
            REQUIRE(wrote > 0);
            part.remove_prefix(static_cast<std::size_t>(wrote));
        }
    }
};

} // namespace

TEST_CASE("LibraryWatch: a build copied over the library is ready once closed, not after the "
          "settle time") {
    WatchFixture f;
    REQUIRE(f.watch->usesEvents());
    CHECK(f.watch->poll(Clock::now()) == Ready::No); // unchanged
    const auto copied = Clock::now();
    fs::copy_file(PROBE_GAME_MODULE, f.library, fs::copy_options::overwrite_existing);
    CHECK(f.pollUntilReady(5s) == Ready::Complete);
    CHECK(Clock::now() - copied < 5s); // the settle time is 10 s
    f.watch->taken(stampOf(f.library));
    CHECK(f.watch->poll(Clock::now()) == Ready::No); // offered once, then taken
}

TEST_CASE("LibraryWatch: a build renamed into place is ready at once") {
    WatchFixture f;
    REQUIRE(f.watch->usesEvents());
    writeFile(f.dir / "libprobe.so.tmp", f.bytes);
    fs::rename(f.dir / "libprobe.so.tmp", f.library);
    CHECK(f.pollUntilReady(5s) == Ready::Complete);
}

TEST_CASE("LibraryWatch: a library still open for writing is not ready until it is closed") {
    WatchFixture f;
    REQUIRE(f.watch->usesEvents());
    posix::UniqueFd writer(::open(f.library.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC));
    REQUIRE(writer);
    f.writeAll(writer.get(), std::string_view(f.bytes).substr(0, f.bytes.size() / 2));
    f.expectNothingReadyFor(1s);
    f.writeAll(writer.get(), std::string_view(f.bytes).substr(f.bytes.size() / 2));
    writer.reset();
    CHECK(f.pollUntilReady(5s) == Ready::Complete);
}

TEST_CASE("LibraryWatch: a build still being written when offered is offered again at its "
          "writer's next close") {
    WatchFixture f;
    REQUIRE(f.watch->usesEvents());
    posix::UniqueFd second(::open(f.library.c_str(), O_WRONLY | O_CLOEXEC)); // a second writer
    REQUIRE(second);
    fs::copy_file(PROBE_GAME_MODULE, f.library, fs::copy_options::overwrite_existing);
    REQUIRE(f.pollUntilReady(5s) == Ready::Complete);
    f.watch->stillBeingWritten(Clock::now()); // what the copy's read lease says
    f.expectNothingReadyFor(300ms);
    f.writeAll(second.get(), "\x7f"); // the same first byte: still the same library
    second.reset();
    CHECK(f.pollUntilReady(5s) == Ready::Complete);
}

TEST_CASE("LibraryWatch: a change that comes without a close settles") {
    WatchFixture f({true, 200ms});
    REQUIRE(f.watch->usesEvents());
    // A hard link put in place of the library: created, never written or closed.
    writeFile(f.dir / "other.so", f.bytes);
    fs::remove(f.library);
    fs::create_hard_link(f.dir / "other.so", f.library);
    const auto linked = Clock::now();
    CHECK(f.pollUntilReady(10s) == Ready::Settled);
    CHECK(Clock::now() - linked >= 200ms);
}

TEST_CASE("LibraryWatch: without events every change settles") {
    WatchFixture f({false, 200ms});
    CHECK_FALSE(f.watch->usesEvents());
    const auto copied = Clock::now();
    fs::copy_file(PROBE_GAME_MODULE, f.library, fs::copy_options::overwrite_existing);
    CHECK(f.pollUntilReady(10s) == Ready::Settled);
    CHECK(Clock::now() - copied >= 200ms);
    f.watch->taken(stampOf(f.library));
    f.expectNothingReadyFor(400ms); // taken: not offered again
}
