#pragma once
// The protocol's error codes and the result type a command handler returns.

#include <expected>
#include <nlohmann/json.hpp>
#include <string>

namespace scripthost::control {

/// Every "error.code" the protocol uses (PROTOCOL.md, "Error codes").
namespace error_code {
inline constexpr const char* badJson = "bad_json";
inline constexpr const char* badRequest = "bad_request";
inline constexpr const char* lineTooLong = "line_too_long";
inline constexpr const char* unknownCommand = "unknown_command";
inline constexpr const char* notFound = "not_found";
inline constexpr const char* badValue = "bad_value";
inline constexpr const char* busy = "busy";
inline constexpr const char* reloadFailed = "reload_failed";
inline constexpr const char* internal = "internal";
inline constexpr const char* tooManyClients = "too_many_clients";
inline constexpr const char* pausedInDebugger = "paused_in_debugger";
} // namespace error_code

/// A command that failed: a code from error_code, a message for people, and extra members
/// merged into the reply's "error" object (e.g. {"report": {...}} for reload_failed).
struct CommandError {
    std::string code;
    std::string message;
    nlohmann::json details = nlohmann::json::object();
};

/// What a command handler produces: the "result" value, or a CommandError.
using CommandResult = std::expected<nlohmann::json, CommandError>;

/// Shorthand: `return commandError(error_code::notFound, "no entity 'Player'");`.
[[nodiscard]] inline std::unexpected<CommandError>
commandError(std::string code, std::string message,
             nlohmann::json details = nlohmann::json::object()) {
    return std::unexpected<CommandError>(
        CommandError{std::move(code), std::move(message), std::move(details)});
}

} // namespace scripthost::control
