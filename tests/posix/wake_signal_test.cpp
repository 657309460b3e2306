// WakeSignal: wakes a poll(2) (also from another thread), drains, and is idempotent.
#include "posix/wake_signal.hpp"

#include <chrono>
#include <doctest/doctest.h>
#include <poll.h>
#include <thread>
#include <type_traits>
#include <utility>

using scripthost::posix::WakeSignal;

namespace {

/// Whether the signal's descriptor becomes readable within `timeoutMs`.
bool wakesWithin(const WakeSignal& signal, int timeoutMs) {
    pollfd entry{.fd = signal.fd(), .events = POLLIN, .revents = 0};
    const int ready = ::poll(&entry, 1, timeoutMs);
    REQUIRE(ready >= 0);
    return ready == 1 && (entry.revents & POLLIN) != 0;
}

WakeSignal makeSignal() {
    auto created = WakeSignal::create();
    REQUIRE_MESSAGE(created.has_value(), created.error().message());
    return std::move(*created);
}

} // namespace

static_assert(!std::is_copy_constructible_v<WakeSignal>);
static_assert(std::is_nothrow_move_constructible_v<WakeSignal>);

TEST_SUITE("WakeSignal") {
    TEST_CASE("a new signal does not wake a poll") {
        const WakeSignal signal = makeSignal();
        CHECK(signal.fd() >= 0);
        CHECK_FALSE(wakesWithin(signal, 0));
    }

    TEST_CASE("notify wakes a poll until drained") {
        const WakeSignal signal = makeSignal();
        signal.notify();
        CHECK(wakesWithin(signal, 0));
        CHECK(wakesWithin(signal, 0)); // level-triggered: still readable before drain()
        signal.drain();
        CHECK_FALSE(wakesWithin(signal, 0));
    }

    TEST_CASE("many notifies are one wake-up, and drain is idempotent") {
        const WakeSignal signal = makeSignal();
        for (int i = 0; i < 1000; ++i) {
            signal.notify();
        }
        CHECK(wakesWithin(signal, 0));
        signal.drain(); // one drain consumes them all
        CHECK_FALSE(wakesWithin(signal, 0));
        signal.drain(); // nothing pending: returns at once instead of blocking
        signal.drain();
        CHECK_FALSE(wakesWithin(signal, 0));
        signal.notify(); // and it still works afterwards
        CHECK(wakesWithin(signal, 0));
    }

    TEST_CASE("notify from another thread wakes a blocked poll") {
        const WakeSignal signal = makeSignal();
        const auto started = std::chrono::steady_clock::now();
        std::jthread notifier([&signal] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            signal.notify();
        });
        CHECK(wakesWithin(signal, 10'000));
        CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
        signal.drain();
    }

    TEST_CASE("a moved signal keeps its descriptor and its pending wake-up") {
        WakeSignal first = makeSignal();
        const int fd = first.fd();
        first.notify();
        const WakeSignal second(std::move(first));
        CHECK(second.fd() == fd);
        CHECK(wakesWithin(second, 0));
    }
}
