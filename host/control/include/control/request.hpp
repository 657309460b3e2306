#pragma once
// Request: one valid command line received from a control client, for the main thread.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace scripthost::control {

/// Identifies one connection for its lifetime. Never reused, so a late reply to a client
/// that has gone cannot reach a newer one.
using ClientId = std::uint64_t;

/// A request that parsed: a JSON object with a string "cmd".
struct Request {
    ClientId client = 0;
    nlohmann::json id;   ///< the request's "id" as sent (any JSON value), null when absent
    std::string cmd;     ///< the "cmd" member
    nlohmann::json body; ///< the whole request object (arguments are its other members)
};

} // namespace scripthost::control
