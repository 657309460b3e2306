// The thunk GameRegistry::registerInternalCall<&function> makes (module_internal_call.hpp): it
// hands the host its own address, the body and a frame holding the arguments, and returns what
// the body stored, or a zero value when the host did not run it. No Mono, no module: a bridge
// of the test's stands in for the host's.
#include "scripthost/game/module_internal_call.hpp"

#include <cstdint>
#include <doctest/doctest.h>

using namespace scripthost;

namespace {

struct Pair {
    float x, y;
};

int calls = 0;

double mixed(bool flip, std::int64_t big, float small, Pair* pair) {
    ++calls;
    pair->y = pair->x * 2;
    const double sum = static_cast<double>(big) + small + pair->x;
    return flip ? -sum : sum;
}

void count() noexcept {
    ++calls;
}

const void* seenThunk = nullptr;

bool runIt(const void* thunk, game::InternalCallBody body, void* frame) {
    seenThunk = thunk;
    body(frame);
    return true;
}

bool refuse(const void* thunk, game::InternalCallBody, void*) {
    seenThunk = thunk;
    return false; // the host raised the managed exception instead
}

/// Sets the module's bridge for one test and puts the previous one back.
struct BridgeForTest {
    explicit BridgeForTest(decltype(game::InternalCallBridge::invoke) invoke)
        : previous(game::detail::internalCallBridge) {
        game::detail::internalCallBridge.invoke = invoke;
    }
    ~BridgeForTest() { game::detail::internalCallBridge = previous; }
    game::InternalCallBridge previous;
};

using MixedThunk = game::detail::InternalCallThunk<&mixed>;
using CountThunk = game::detail::InternalCallThunk<&count>;

} // namespace

TEST_CASE("module internal call thunk: the arguments reach the function through the host's "
          "bridge, its result and a written pointer come back, the thunk names itself") {
    BridgeForTest bridge(&runIt);
    calls = 0;
    const game::InternalCallInfo info = MixedThunk::info("Probe.Native::Mixed");
    CHECK(info.managedName == "Probe.Native::Mixed");
    auto* call = reinterpret_cast<double (*)(bool, std::int64_t, float, Pair*)>(
        const_cast<void*>(info.thunk));
    Pair pair{1.5f, 0};
    CHECK(call(true, 5'000'000'000, 0.25f, &pair) == doctest::Approx(-5'000'000'001.75));
    CHECK(pair.y == 3.0f);
    CHECK(calls == 1);
    CHECK(seenThunk == info.thunk); // the host finds the call's build by this address

    auto* counter = reinterpret_cast<void (*)()>(const_cast<void*>(CountThunk::info("C::N").thunk));
    counter();
    CHECK(calls == 2);
    CHECK(seenThunk != info.thunk); // another function, another thunk
}

TEST_CASE("module internal call thunk: when the host does not run the function (module "
          "switched off, a crash) the function is not called and the thunk returns zero") {
    BridgeForTest bridge(&refuse);
    calls = 0;
    auto* call = reinterpret_cast<double (*)(bool, std::int64_t, float, Pair*)>(
        const_cast<void*>(MixedThunk::info("Probe.Native::Mixed").thunk));
    Pair pair{1.5f, 0};
    CHECK(call(false, 1, 1, &pair) == 0.0);
    CHECK(pair.y == 0.0f);
    CHECK(calls == 0);
}
