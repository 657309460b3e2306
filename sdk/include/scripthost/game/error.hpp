#pragma once
// Errors as values at module boundaries.

#include <expected>
#include <string>

namespace scripthost {

/// A failure with a message meant for people (one line where possible).
struct Error {
    std::string message;
};

/// The result of an operation that can fail: a value or an Error.
template <typename T> using Result = std::expected<T, Error>;

/// Shorthand for returning a failure: `return fail("no such class " + name);`.
[[nodiscard]] inline std::unexpected<Error> fail(std::string message) {
    return std::unexpected<Error>(Error{std::move(message)});
}

} // namespace scripthost
