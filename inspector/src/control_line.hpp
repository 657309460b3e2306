#pragma once
// From a browser's message to a control request line, and the replies the inspector makes
// itself when the host cannot answer.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace scripthost::inspector {

/// The longest line the inspector reads from the host (a reply or an event). Lines may be
/// large (an inline snapshot); past this the host is treated as gone, so one broken line
/// cannot take the inspector's memory.
inline constexpr std::size_t kMaxHostLineBytes = 256 * 1024 * 1024;

/// `message` as one control line ending in '\n'. A raw line break can only sit between JSON
/// tokens (inside a string it must be escaped), so each becomes a space: pretty-printed JSON
/// stays one valid request and anything else stays as invalid as it was (the host answers
/// bad_json, as on the socket).
[[nodiscard]] std::string toControlLine(std::string_view message);

/// The request's "id" when `message` is a JSON object that has one (nesting past 64 levels is
/// not looked into), else null.
[[nodiscard]] nlohmann::json requestIdOf(std::string_view message);

/// {"id":id,"ok":false,"error":{"code":"host_unavailable","message":…}} (no "id" when null).
[[nodiscard]] std::string hostUnavailableReply(const nlohmann::json& id);

/// {"event":"inspector","data":{"host":"connected"|"disconnected",…}}.
[[nodiscard]] std::string hostEvent(bool connected, std::string_view message);

} // namespace scripthost::inspector
