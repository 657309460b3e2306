#pragma once
// Conversions between MonoString and UTF-8 std::string, and the text names of classes.

#include "scripthost/game/error.hpp"

#include <mono/metadata/class.h>
#include <mono/metadata/object.h>
#include <string>
#include <string_view>

namespace scripthost::mono {

/// UTF-8 copy of a managed string ("" for null). Frees Mono's buffer.
[[nodiscard]] std::string toUtf8(MonoString* string);

/// A new managed string in `domain` from UTF-8 text. Invalid UTF-8 is an error (Mono
/// would silently hand back null), so a bad byte in a scene file is reported, not lost.
[[nodiscard]] Result<MonoString*> newString(MonoDomain* domain, std::string_view utf8);

/// The value of a string property of `object` (an attribute's "Kind", "DisplayName", …),
/// read through its managed getter; "" when there is no such property, it is not a string,
/// it is null, or its getter throws (attribute getters are trivial: a throw means "no value").
[[nodiscard]] std::string stringProperty(MonoObject* object, const char* property);

/// A class's full name as C# reflection writes it: "Namespace.Class", a nested class as
/// "Namespace.Outer+Inner", a class in no namespace as "Class".
[[nodiscard]] std::string fullClassName(MonoClass* klass);

} // namespace scripthost::mono
