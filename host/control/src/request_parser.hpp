#pragma once
// parseRequest: one received line to a Request, or the error reply the server sends itself.

#include "control/request.hpp"

#include <expected>
#include <nlohmann/json.hpp>
#include <string_view>

namespace scripthost::control {

/// A valid request, or the complete error reply (bad_json / bad_request) for the line.
[[nodiscard]] std::expected<Request, nlohmann::json> parseRequest(std::string_view line,
                                                                  ClientId client);

} // namespace scripthost::control
