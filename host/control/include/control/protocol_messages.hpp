#pragma once
// The shapes of the messages the server sends, and their JSON-lines framing.

#include "control/protocol_error.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace scripthost::control {

/// {"id":id,"ok":true,"result":result}; "id" is left out when `id` is null.
[[nodiscard]] nlohmann::json okReply(const nlohmann::json& id, nlohmann::json result);

/// {"id":id,"ok":false,"error":{"code":..,"message":..,<details>...}}; no "id" when null.
[[nodiscard]] nlohmann::json errorReply(const nlohmann::json& id, const CommandError& error);

/// {"event":topic,"data":data}
[[nodiscard]] nlohmann::json eventMessage(std::string_view topic, nlohmann::json data);

/// One line of the wire format: compact JSON plus '\n'. Never throws on invalid UTF-8 in
/// strings (such bytes become U+FFFD), so arbitrary log text can be sent.
[[nodiscard]] std::string toLine(const nlohmann::json& message);

/// Whether a received message is an event ({"event":...}) rather than a reply.
[[nodiscard]] bool isEvent(const nlohmann::json& message) noexcept;

/// Whether a reply says "ok": true. False for anything else, however malformed.
[[nodiscard]] bool isOkReply(const nlohmann::json& reply) noexcept;

/// An error reply's "error.code" and "error.message", with fallbacks ("error",
/// "(no message)") when the host sent something malformed. Never throws on bad shapes.
[[nodiscard]] std::string replyErrorCode(const nlohmann::json& reply);
[[nodiscard]] std::string replyErrorMessage(const nlohmann::json& reply);

} // namespace scripthost::control
