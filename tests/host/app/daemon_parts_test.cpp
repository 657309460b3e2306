// Unit tests of the daemon's Mono-free parts: terminal key parsing and ANSI frames, held
// keyboard input, input replay files. (The state file: state_file_test.cpp.)

#include "../../support/test_support.hpp"
#include "host/ui/input_replay.hpp"
#include "host/ui/keyboard_input.hpp"
#include "host/ui/terminal.hpp"
#include "scripthost/game/text_canvas.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("terminal keys: characters, cursor keys, controls, and an incomplete sequence") {
    using Keys = std::vector<std::string>;
    CHECK(parseTerminalKeys("wasd") == Keys{"w", "a", "s", "d"});
    CHECK(parseTerminalKeys("\x1b[A\x1b[B\x1b[C\x1b[D") == Keys{"Up", "Down", "Right", "Left"});
    CHECK(parseTerminalKeys("\x1bOA") == Keys{"Up"});       // application cursor mode
    CHECK(parseTerminalKeys("\x1b[1;5C") == Keys{"Right"}); // with a modifier
    CHECK(parseTerminalKeys("\r\t\x7f ") == Keys{"Enter", "Tab", "Backspace", " "});
    CHECK(parseTerminalKeys("\x1b") == Keys{"Escape"});
    CHECK(parseTerminalKeys("q\x1b[") == Keys{"q"});    // cut off: dropped, not misread
    CHECK(parseTerminalKeys("\x1b[15~x") == Keys{"x"}); // F5: not named, skipped whole
    CHECK(parseTerminalKeys("\x01\xc3\xa9").empty());   // controls and non-ASCII ignored
}

TEST_CASE("text canvas: clipping, rows as UTF-8, and ANSI frames with colour changes only") {
    TextCanvas canvas(4, 2);
    canvas.text(2, 0, "abc", TextColor::Red); // "c" falls off the edge
    canvas.put(-1, 0, U'x');                  // outside: ignored
    canvas.put(0, 1, U'→', TextColor::Green, true);
    CHECK(canvas.row(0) == "  ab");
    CHECK(canvas.row(1) == "→   ");
    const std::string frame = renderAnsiFrame(canvas);
    CHECK(frame.starts_with("\x1b[H"));
    CHECK(frame.find("\x1b[0;31mab") != std::string::npos); // one colour code for "ab"
    CHECK(frame.find("\x1b[0;1;32m→") != std::string::npos);
    CHECK(frame.find("\x1b[2;1H") != std::string::npos); // row 2 positioned explicitly
}

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

TEST_CASE("input replay: changes apply at their frame, in order, and hold until changed") {
    auto replay = InputReplay::parse("# camera run\n"
                                     "{\"frame\": 10, \"action\": \"MoveForward\", \"value\": 0}\n"
                                     "\n"
                                     "{\"frame\": 0, \"action\": \"MoveForward\", \"value\": 1}\r\n"
                                     "{\"frame\": 5, \"action\": \"Turn\", \"value\": -0.5}\n");
    REQUIRE(replay.has_value());
    CHECK(replay->changes().size() == 3);
    InputState input;
    replay->apply(0, input);
    CHECK(input.get("MoveForward") == 1.0f);
    CHECK(input.get("Turn") == 0.0f);
    replay->apply(7, input);
    CHECK(input.get("Turn") == -0.5f);
    CHECK(input.get("MoveForward") == 1.0f);
    CHECK_FALSE(replay->finished());
    replay->apply(12, input);
    CHECK(input.get("MoveForward") == 0.0f);
    CHECK(replay->finished());
}

TEST_CASE("input replay: a bad line is refused with its line number and the reason") {
    auto notJson = InputReplay::parse("{\"frame\": 0, \"action\": \"A\", \"value\": 1}\nnope\n");
    REQUIRE_FALSE(notJson.has_value());
    CHECK(notJson.error().message == "line 2: not a JSON object");
    auto negative = InputReplay::parse("{\"frame\": -1, \"action\": \"A\", \"value\": 1}");
    REQUIRE_FALSE(negative.has_value());
    CHECK(negative.error().message.find("line 1: \"frame\"") == 0);
    auto noAction = InputReplay::parse("{\"frame\": 1, \"value\": 1}");
    REQUIRE_FALSE(noAction.has_value());
    CHECK(noAction.error().message.find("\"action\"") != std::string::npos);
    auto text = InputReplay::parse("{\"frame\": 1, \"action\": \"A\", \"value\": \"1\"}");
    REQUIRE_FALSE(text.has_value());
    CHECK(text.error().message.find("\"value\"") != std::string::npos);
    CHECK_FALSE(InputReplay::load("/nonexistent/replay.jsonl").has_value());
}
