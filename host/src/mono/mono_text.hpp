#pragma once
// Conversions between MonoString and UTF-8 std::string.

#include "host/error.hpp"

#include <mono/metadata/object.h>
#include <string>
#include <string_view>

namespace scripthost::mono {

/// UTF-8 copy of a managed string ("" for null). Frees Mono's buffer.
[[nodiscard]] std::string toUtf8(MonoString* string);

/// A new managed string in `domain` from UTF-8 text. Invalid UTF-8 is an error (Mono
/// would silently hand back null), so a bad byte in a scene file is reported, not lost.
[[nodiscard]] Result<MonoString*> newString(MonoDomain* domain, std::string_view utf8);

} // namespace scripthost::mono
