#pragma once
// What a managed field's type is, as the host's FieldType.

#include "host/model/value.hpp"

#include <mono/metadata/class.h>
#include <mono/metadata/object.h>

namespace scripthost::mono {

/// This generation's ScriptCore classes that decide what a field's type is.
struct TypeClasses {
    MonoClass* vector2 = nullptr;
    MonoClass* vector3 = nullptr;
    MonoClass* vector4 = nullptr;
    MonoClass* quaternion = nullptr;
    MonoClass* entity = nullptr;               ///< UEngine.UEntity
    MonoClass* component = nullptr;            ///< UEngine.UComponent
    MonoClass* scriptBase = nullptr;           ///< UEngine.UMonoScriptComponent
    MonoClass* serializeField = nullptr;       ///< UEngine.SerializeFieldAttribute
    MonoClass* formerlySerializedAs = nullptr; ///< UEngine.FormerlySerializedAsAttribute
    MonoClass* transform = nullptr;            ///< UEngine.UTransform: a reference to its entity
};

/// Maps a Mono type to a FieldType (Unsupported for what the host cannot carry).
/// [Serializable] structs and classes become Records of their public (or
/// [SerializeField]) instance fields, with their [FormerlySerializedAs] names, nested at most
/// a few levels deep.
[[nodiscard]] FieldType fieldTypeOf(MonoType* type, const TypeClasses& classes, int depth = 0);

} // namespace scripthost::mono
