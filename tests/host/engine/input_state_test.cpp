// InputState (host/engine/include/host/engine/input_state.hpp): actions by name and by number,
// the previous frame's value, and clear() keeping numbers valid.
#include "host/engine/input_state.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

TEST_CASE("InputState: an action's number is stable, reads as unknown until set, and its previous "
          "value is the one the last frame ended with") {
    InputState input;
    const std::uint32_t jump = input.handle("Jump");
    CHECK(input.handle("Jump") == jump);
    CHECK(input.handle("key:Space") != jump);
    CHECK_FALSE(input.read(jump).known);
    CHECK_FALSE(input.read("Never").known);
    CHECK_FALSE(input.read(std::uint32_t{999}).known);

    input.set("Jump", 1.0f);
    InputState::Reading r = input.read(jump);
    CHECK(r.known);
    CHECK(r.value == 1.0f);
    CHECK(r.previous == 0.0f);
    input.advanceFrame();
    input.set("Jump", 0.0f);
    r = input.read("Jump");
    CHECK(r.value == 0.0f);
    CHECK(r.previous == 1.0f);
    CHECK(input.get("Jump") == 0.0f);

    input.clear();
    CHECK_FALSE(input.read(jump).known);
    CHECK(input.handle("Jump") == jump); // numbers outlive clear()
}
