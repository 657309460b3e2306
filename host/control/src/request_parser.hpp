#pragma once
// parseRequest: one received line to a Request, or the error reply the server sends itself.

#include "control/request.hpp"

#include <expected>
#include <nlohmann/json.hpp>
#include <string_view>

namespace scripthost::control {

/// How deeply a request's JSON may nest (objects and arrays inside one another). Deeper
/// lines are refused before they are built: copying or printing such a value recurses
/// once per level, and a 1 MiB line of '[' would overflow the stack.
inline constexpr int kMaxRequestDepth = 64;

/// A valid request, or the complete error reply (bad_json / bad_request) for the line.
[[nodiscard]] std::expected<Request, nlohmann::json> parseRequest(std::string_view line,
                                                                  ClientId client);

} // namespace scripthost::control
