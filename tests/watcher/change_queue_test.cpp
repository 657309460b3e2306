#include "change_queue.hpp"
#include "support/printers.hpp"

#include <doctest/doctest.h>
#include <thread>

using scripthost::watcher::ChangeSet;
using scripthost::watcher::detail::ChangeQueue;
using Paths = std::vector<std::filesystem::path>;
using namespace std::chrono_literals;

namespace {

ChangeSet modifiedSet(const char* file) {
    ChangeSet set;
    set.modified = {file};
    return set;
}

} // namespace

TEST_SUITE("ChangeQueue") {
    TEST_CASE("sets come out in order, tryPop never waits") {
        ChangeQueue queue;
        CHECK_FALSE(queue.tryPop().has_value());
        queue.push(modifiedSet("/r/a.cs"));
        queue.push(modifiedSet("/r/b.cs"));
        CHECK(queue.size() == 2);
        CHECK(queue.tryPop()->modified == Paths{"/r/a.cs"});
        CHECK(queue.tryPop()->modified == Paths{"/r/b.cs"});
        CHECK_FALSE(queue.tryPop().has_value());
    }

    TEST_CASE("popUntil returns nothing at the deadline and a set pushed by another thread") {
        ChangeQueue queue;
        const auto start = std::chrono::steady_clock::now();
        CHECK_FALSE(queue.popUntil(start + 20ms).has_value());
        CHECK(std::chrono::steady_clock::now() - start >= 20ms);

        std::jthread producer([&queue] { queue.push(modifiedSet("/r/late.cs")); });
        const auto got = queue.popUntil(std::chrono::steady_clock::now() + 5s);
        REQUIRE(got.has_value());
        CHECK(got->modified == Paths{"/r/late.cs"});
    }

    TEST_CASE("a long queue merges new sets into the newest one instead of growing") {
        ChangeQueue queue(/*mergeThreshold=*/2);
        queue.push(modifiedSet("/r/a.cs"));
        queue.push(modifiedSet("/r/b.cs"));
        ChangeSet removal;
        removal.removed = {"/r/b.cs"};
        queue.push(removal);
        queue.push(modifiedSet("/r/c.cs"));
        CHECK(queue.size() == 2);
        CHECK(queue.tryPop()->modified == Paths{"/r/a.cs"});
        const auto last = queue.tryPop();
        REQUIRE(last.has_value());
        CHECK(last->modified == Paths{"/r/c.cs"});
        CHECK(last->removed == Paths{"/r/b.cs"});
    }
}
