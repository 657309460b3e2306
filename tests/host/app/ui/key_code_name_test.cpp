// keyCodeName: terminal keys named as Unity's KeyCode names them (ScriptCore/src/KeyCode.cs).
#include "host/ui/key_code_name.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

TEST_CASE("keyCodeName: letters in either case, digits, space, arrows and punctuation get "
          "KeyCode's names, other keys none") {
    CHECK(keyCodeName("w") == "W");
    CHECK(keyCodeName("W") == "W");
    CHECK(keyCodeName("a") == "A");
    CHECK(keyCodeName("z") == "Z");
    CHECK(keyCodeName("0") == "Alpha0");
    CHECK(keyCodeName("9") == "Alpha9");
    CHECK(keyCodeName(" ") == "Space");
    CHECK(keyCodeName("Enter") == "Return");
    CHECK(keyCodeName("Up") == "UpArrow");
    CHECK(keyCodeName("Left") == "LeftArrow");
    CHECK(keyCodeName("Escape") == "Escape");
    CHECK(keyCodeName(",") == "Comma");
    CHECK(keyCodeName("]") == "RightBracket");
    CHECK(keyCodeName("!").empty());
    CHECK(keyCodeName("F13").empty());
    CHECK(keyCodeName("").empty());
}
