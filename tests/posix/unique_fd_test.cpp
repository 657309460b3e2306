// UniqueFd: closes on destruction and reset, moves ownership, releases it.
#include "posix/unique_fd.hpp"

#include <array>
#include <cerrno>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <type_traits>
#include <unistd.h>
#include <utility>

using scripthost::posix::UniqueFd;

namespace {

/// Whether `fd` is an open descriptor of this process.
bool isOpen(int fd) {
    return ::fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

/// A fresh pipe; both ends are owned by the caller.
std::array<int, 2> rawPipe() {
    std::array<int, 2> ends{-1, -1};
    REQUIRE(::pipe2(ends.data(), O_CLOEXEC) == 0);
    return ends;
}

} // namespace

static_assert(!std::is_copy_constructible_v<UniqueFd> && !std::is_copy_assignable_v<UniqueFd>);
static_assert(std::is_nothrow_move_constructible_v<UniqueFd> &&
              std::is_nothrow_move_assignable_v<UniqueFd>);

TEST_SUITE("UniqueFd") {
    TEST_CASE("an empty one owns nothing") {
        const UniqueFd none;
        CHECK(none.get() == -1);
        CHECK_FALSE(none);
        const UniqueFd failed(-1); // e.g. what a failed ::socket() returns
        CHECK_FALSE(failed);
    }

    TEST_CASE("closes its descriptor when destroyed") {
        const auto [readEnd, writeEnd] = rawPipe();
        {
            const UniqueFd owner(readEnd);
            CHECK(owner);
            CHECK(owner.get() == readEnd);
            CHECK(isOpen(readEnd));
        }
        CHECK_FALSE(isOpen(readEnd));
        ::close(writeEnd);
    }

    TEST_CASE("moving transfers ownership and leaves the source owning nothing") {
        const auto [readEnd, writeEnd] = rawPipe();
        UniqueFd first(readEnd);
        UniqueFd second(std::move(first));
        CHECK_FALSE(first); // NOLINT(bugprone-use-after-move): checking the moved-from state
        CHECK(second.get() == readEnd);

        UniqueFd third(writeEnd);
        third = std::move(second); // the write end is closed, the read end moves in
        CHECK_FALSE(isOpen(writeEnd));
        CHECK(third.get() == readEnd);
        CHECK(isOpen(readEnd));

        auto& self = third;
        third = std::move(self); // self-move keeps the descriptor
        CHECK(third.get() == readEnd);
        CHECK(isOpen(readEnd));
    }

    TEST_CASE("release gives the descriptor up without closing it") {
        const auto [readEnd, writeEnd] = rawPipe();
        {
            UniqueFd owner(readEnd);
            CHECK(owner.release() == readEnd);
            CHECK_FALSE(owner);
        }
        CHECK(isOpen(readEnd));
        ::close(readEnd);
        ::close(writeEnd);
    }

    TEST_CASE("reset closes the old descriptor and owns the new one") {
        const auto [readEnd, writeEnd] = rawPipe();
        UniqueFd owner(readEnd);
        owner.reset(writeEnd);
        CHECK_FALSE(isOpen(readEnd));
        CHECK(owner.get() == writeEnd);
        owner.reset(writeEnd); // resetting to the owned descriptor keeps it open
        CHECK(isOpen(writeEnd));
        owner.reset();
        CHECK_FALSE(owner);
        CHECK_FALSE(isOpen(writeEnd));
    }
}
