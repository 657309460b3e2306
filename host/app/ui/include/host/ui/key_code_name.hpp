#pragma once
// keyCodeName: the name Unity's KeyCode gives a key the terminal reports.

#include <string>
#include <string_view>

namespace scripthost {

/// The UEngine.KeyCode name (Unity's) of a key as parseTerminalKeys names it: "w" and "W" are
/// "W", "7" is "Alpha7", " " is "Space", "Enter" is "Return", "Up" is "UpArrow", "," is "Comma".
/// Empty for a key KeyCode has no name for. Scripts see the key as the input action
/// "key:" + this name (Input.GetKey).
[[nodiscard]] std::string keyCodeName(std::string_view terminalKey);

} // namespace scripthost
