#pragma once
// Reading and writing field values of managed objects, and mapping field types.

#include "host/error.hpp"
#include "host/value.hpp"

#include <mono/metadata/class.h>
#include <mono/metadata/object.h>

namespace scripthost::mono {

/// The math structs of this generation's ScriptCore, to recognise fields of those types.
struct MathClasses {
    MonoClass* vector2 = nullptr;
    MonoClass* vector3 = nullptr;
    MonoClass* vector4 = nullptr;
    MonoClass* quaternion = nullptr;
};

/// Maps a field's Mono type to a FieldType (Unsupported for what the host cannot carry).
[[nodiscard]] FieldType fieldTypeOf(MonoType* type, const MathClasses& math);

/// Reads `field` of `object` as a Value of `type`.
[[nodiscard]] Result<Value> readField(MonoObject* object, MonoClassField* field,
                                      const FieldType& type);

/// Writes `value` into `field` of `object`. The Value's alternative must match the type's
/// kind (int64 for signed and enums, uint64 for unsigned, …) and fit its width.
[[nodiscard]] Result<void> writeField(MonoDomain* domain, MonoObject* object, MonoClassField* field,
                                      const FieldType& type, const Value& value);

} // namespace scripthost::mono
