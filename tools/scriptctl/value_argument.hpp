#pragma once
// parseValueArgument: the VALUE of `scriptctl set`, typed as the user most likely meant.

#include <nlohmann/json.hpp>
#include <string>

namespace scriptctl {

/// JSON when the text parses as JSON (3.5, true, "text", [1,2,3], {"x":1}), else the text
/// as a string (so `set Player Mover name Bob` needs no quotes).
[[nodiscard]] nlohmann::json parseValueArgument(const std::string& text);

} // namespace scriptctl
