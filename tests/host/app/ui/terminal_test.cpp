// The terminal: key parsing, and text canvas frames as ANSI output.
#include "host/ui/terminal.hpp"
#include "scripthost/game/text_canvas.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace scripthost;

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
