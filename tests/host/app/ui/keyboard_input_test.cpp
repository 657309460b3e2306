// KeyboardInput: terminal keys held as input actions.
#include "host/ui/keyboard_input.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace scripthost;

TEST_CASE("keyboard input: a press holds its action for the hold time, the latest key wins") {
    KeyboardInput keyboard(
        {{"w", "MoveForward", 1.0f}, {"s", "MoveForward", -1.0f}, {"d", "Turn", 1.0f}}, 0.3);
    InputState input;
    keyboard.apply(input, 0.0);
    CHECK(input.get("MoveForward") == 0.0f);
    CHECK(keyboard.press("w", 1.0));
    CHECK_FALSE(keyboard.press("x", 1.0));
    keyboard.apply(input, 1.1);
    CHECK(input.get("MoveForward") == 1.0f);
    CHECK(input.get("Turn") == 0.0f);
    CHECK(keyboard.press("s", 1.2));
    keyboard.apply(input, 1.25);
    CHECK(input.get("MoveForward") == -1.0f);
    keyboard.apply(input, 1.6); // 0.4 s after the last press: released
    CHECK(input.get("MoveForward") == 0.0f);
}

TEST_CASE("keyboard input: every named key is held as its \"key:\" action, bound or not, and "
          "released when the hold time runs out") {
    KeyboardInput keyboard({{"w", "MoveForward", 1.0f}}, 0.3);
    InputState input;
    CHECK(keyboard.press("w", 1.0));
    CHECK_FALSE(keyboard.press(" ", 1.0)); // not bound to an action, still a key
    CHECK_FALSE(keyboard.press("!", 1.0)); // no KeyCode name: nothing
    keyboard.apply(input, 1.1);
    CHECK(input.get("key:W") == 1.0f);
    CHECK(input.get("key:Space") == 1.0f);
    CHECK(input.get("MoveForward") == 1.0f);
    CHECK_FALSE(input.read("key:!").known);
    input.advanceFrame();
    keyboard.apply(input, 1.35); // past the hold time: released
    const InputState::Reading space = input.read("key:Space");
    CHECK(space.value == 0.0f);
    CHECK(space.previous == 1.0f); // what GetKeyUp sees in this frame
}
