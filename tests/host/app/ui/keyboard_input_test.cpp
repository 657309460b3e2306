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
