// ReadLease: taken on a file nobody writes, refused (EAGAIN) while a descriptor of this process
// or another one has it open for writing, and while held, another process's open for writing
// waits for its release without the break notification ending this process.
#include "../support/test_support.hpp"
#include "posix/read_lease.hpp"

#include <array>
#include <cerrno>
#include <chrono>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <type_traits>
#include <unistd.h>

using scripthost::posix::ReadLease;
using scripthost::posix::UniqueFd;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;

namespace {

/// Whether `fd` becomes readable within `timeoutMs`.
bool readableWithin(int fd, int timeoutMs) {
    pollfd entry{.fd = fd, .events = POLLIN, .revents = 0};
    int ready = 0;
    do {
        ready = ::poll(&entry, 1, timeoutMs);
    } while (ready < 0 && errno == EINTR);
    return ready == 1;
}

} // namespace

static_assert(!std::is_copy_constructible_v<ReadLease>);
static_assert(std::is_nothrow_move_constructible_v<ReadLease>);

TEST_SUITE("ReadLease") {
    TEST_CASE("a file nobody has open for writing is leased and readable") {
        TempDir dir("read-lease");
        writeFile(dir / "file", "abc");
        auto lease = ReadLease::take(dir / "file");
        REQUIRE_MESSAGE(lease, (lease ? "" : lease.error().message()));
        std::array<char, 4> bytes{};
        CHECK(::pread(lease->fd(), bytes.data(), bytes.size(), 0) == 3);
        CHECK(std::string(bytes.data(), 3) == "abc");
        // Released when destroyed: a writer opens it at once.
        lease = ReadLease::take(dir / "file"); // move-assigned over the first one
        REQUIRE(lease);
        { auto gone = std::move(*lease); }
        UniqueFd writer(::open((dir / "file").c_str(), O_WRONLY | O_CLOEXEC));
        CHECK(writer);
    }

    TEST_CASE("a file open for writing is refused with EAGAIN until its last writer closes it") {
        TempDir dir("read-lease");
        writeFile(dir / "file", "abc");
        UniqueFd first(::open((dir / "file").c_str(), O_WRONLY | O_CLOEXEC));
        UniqueFd second(::open((dir / "file").c_str(), O_RDWR | O_CLOEXEC));
        REQUIRE((first && second));
        auto refused = ReadLease::take(dir / "file");
        REQUIRE_FALSE(refused);
        CHECK(refused.error() == std::errc::resource_unavailable_try_again);
        first.reset();
        CHECK_FALSE(ReadLease::take(dir / "file")); // the second writer still has it
        second.reset();
        CHECK(ReadLease::take(dir / "file"));
    }

    TEST_CASE("a missing file is the error open gave") {
        TempDir dir("read-lease");
        auto missing = ReadLease::take(dir / "nothing");
        REQUIRE_FALSE(missing);
        CHECK(missing.error() == std::errc::no_such_file_or_directory);
    }

    TEST_CASE("while held, another process's open for writing waits for the release and this "
              "process is not signalled to death") {
        TempDir dir("read-lease");
        writeFile(dir / "file", "abc");
        auto lease = ReadLease::take(dir / "file");
        REQUIRE(lease);
        std::array<int, 2> pipe{-1, -1};
        REQUIRE(::pipe2(pipe.data(), O_CLOEXEC) == 0);
        UniqueFd readEnd(pipe[0]), writeEnd(pipe[1]);
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) { // opens the file for writing, then says so
            const int fd = ::open((dir / "file").c_str(), O_WRONLY);
            const char done = fd >= 0 ? 'y' : 'n';
            [[maybe_unused]] const auto written = ::write(writeEnd.get(), &done, 1);
            ::_exit(0);
        }
        writeEnd.reset();
        // The bounded wait is the assertion: the writer is held while the lease is.
        CHECK_FALSE(readableWithin(readEnd.get(), 300));
        { auto released = std::move(*lease); }
        REQUIRE(readableWithin(readEnd.get(), 30'000));
        char answer = 0;
        CHECK(::read(readEnd.get(), &answer, 1) == 1);
        CHECK(answer == 'y');
        int status = 0;
        CHECK(::waitpid(child, &status, 0) == child);
        CHECK(WIFEXITED(status));
    }
}
