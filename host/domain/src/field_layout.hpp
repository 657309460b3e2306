#pragma once
// How managed values are laid out in memory: integer widths, enums' storage, List<T>'s
// backing array, struct members. Shared by field reading, writing, carrying and typing.

#include "host/model/value.hpp"

#include <cstddef>
#include <cstdint>
#include <mono/metadata/class.h>
#include <mono/metadata/metadata.h>
#include <mono/metadata/object.h>
#include <string>
#include <string_view>

namespace scripthost::mono {

/// The ValueKind of a primitive type code (MONO_TYPE_I4 → Int32); `ok` false for others.
inline ValueKind kindOfTypeCode(int code, bool& ok) {
    ok = true;
    switch (code) {
    case MONO_TYPE_BOOLEAN:
        return ValueKind::Bool;
    case MONO_TYPE_I1:
        return ValueKind::Int8;
    case MONO_TYPE_U1:
        return ValueKind::UInt8;
    case MONO_TYPE_I2:
        return ValueKind::Int16;
    case MONO_TYPE_U2:
        return ValueKind::UInt16;
    case MONO_TYPE_I4:
        return ValueKind::Int32;
    case MONO_TYPE_U4:
        return ValueKind::UInt32;
    case MONO_TYPE_I8:
        return ValueKind::Int64;
    case MONO_TYPE_U8:
        return ValueKind::UInt64;
    case MONO_TYPE_R4:
        return ValueKind::Float;
    case MONO_TYPE_R8:
        return ValueKind::Double;
    case MONO_TYPE_STRING:
        return ValueKind::String;
    default:
        ok = false;
        return ValueKind::Unsupported;
    }
}

/// Width and signedness of an integer kind's storage.
struct IntegerLayout {
    std::size_t size;
    bool isSigned;
};
/// Fills `out` for an integer kind; false for other kinds.
inline bool integerLayout(ValueKind kind, IntegerLayout& out) {
    switch (kind) {
    case ValueKind::Int8:
        out = {1, true};
        return true;
    case ValueKind::UInt8:
        out = {1, false};
        return true;
    case ValueKind::Int16:
        out = {2, true};
        return true;
    case ValueKind::UInt16:
        out = {2, false};
        return true;
    case ValueKind::Int32:
        out = {4, true};
        return true;
    case ValueKind::UInt32:
        out = {4, false};
        return true;
    case ValueKind::Int64:
        out = {8, true};
        return true;
    case ValueKind::UInt64:
        out = {8, false};
        return true;
    default:
        return false;
    }
}

/// The integer kind an enum's values are stored as.
inline ValueKind enumStorage(MonoClass* enumClass) {
    bool ok = false;
    ValueKind kind = kindOfTypeCode(mono_type_get_type(mono_class_enum_basetype(enumClass)), ok);
    return ok ? kind : ValueKind::Int32;
}

/// Is this System.Collections.Generic.List`1? Then its element type is that of _items.
inline MonoClassField* listItemsField(MonoClass* klass) {
    if (std::string_view(mono_class_get_namespace(klass)) != "System.Collections.Generic" ||
        std::string_view(mono_class_get_name(klass)) != "List`1") {
        return nullptr;
    }
    return mono_class_get_field_from_name(klass, "_items");
}

/// The element type of an array (T[]) or List<T> type; nullptr for anything else.
inline MonoType* elementTypeOf(MonoType* type) {
    MonoClass* klass = mono_class_from_mono_type(type);
    if (mono_type_get_type(type) == MONO_TYPE_SZARRAY) {
        return mono_class_get_type(mono_class_get_element_class(klass));
    }
    MonoClassField* items = listItemsField(klass);
    return items ? elementTypeOf(mono_field_get_type(items)) : nullptr;
}

/// The field of a record's class (or, for classes, a base class) named `name`.
inline MonoClassField* memberField(MonoClass* klass, const std::string& name) {
    for (MonoClass* k = klass; k != nullptr; k = mono_class_get_parent(k)) {
        if (MonoClassField* f = mono_class_get_field_from_name(k, name.c_str()))
            return f;
    }
    return nullptr;
}

/// Where a member lives inside a struct's unboxed data (field offsets count the object
/// header, which unboxed data does not have).
inline std::size_t unboxedOffset(MonoClassField* field) {
    return static_cast<std::size_t>(mono_field_get_offset(field)) - sizeof(MonoObject);
}

/// A raw integer of `layout`'s width, sign- or zero-extended to 64 bits.
inline std::int64_t signExtend(std::int64_t raw, const IntegerLayout& layout) {
    if (layout.size >= 8)
        return raw;
    const int shift = int(64 - layout.size * 8);
    if (layout.isSigned) {
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(raw) << shift) >> shift;
    }
    return raw & static_cast<std::int64_t>((std::uint64_t{1} << (layout.size * 8)) - 1);
}

/// The size of a plain-data kind's storage, or 0 for kinds that are not plain data.
inline std::size_t plainBytes(ValueKind kind) {
    IntegerLayout layout{};
    if (integerLayout(kind, layout))
        return layout.size;
    switch (kind) {
    case ValueKind::Bool:
        return 1;
    case ValueKind::Float:
        return sizeof(float);
    case ValueKind::Double:
        return sizeof(double);
    case ValueKind::Vector2:
        return sizeof(glm::vec2);
    case ValueKind::Vector3:
        return sizeof(glm::vec3);
    case ValueKind::Vector4:
        return sizeof(glm::vec4);
    case ValueKind::Quaternion:
        return sizeof(glm::quat);
    default:
        return 0;
    }
}

} // namespace scripthost::mono
