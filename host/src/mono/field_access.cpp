#include "mono/field_access.hpp"

#include "mono/mono_text.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/metadata.h>

namespace scripthost::mono {

namespace {

ValueKind kindOfTypeCode(int code, bool& ok) {
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

std::string typeNameOf(MonoType* type) {
    char* name = mono_type_get_name(type);
    std::string text = name ? name : "?";
    mono_free(name);
    return text;
}

// Width in bytes and signedness of an integer kind (enums use their underlying kind).
struct IntegerLayout {
    std::size_t size;
    bool isSigned;
};
bool integerLayout(ValueKind kind, IntegerLayout& out) {
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

// An enum's underlying integer kind.
ValueKind enumUnderlying(MonoClassField* field) {
    MonoClass* klass = mono_class_from_mono_type(mono_field_get_type(field));
    bool ok = false;
    ValueKind kind = kindOfTypeCode(mono_type_get_type(mono_class_enum_basetype(klass)), ok);
    return ok ? kind : ValueKind::Int32;
}

template <typename T> T readRaw(MonoObject* object, MonoClassField* field) {
    T value{};
    mono_field_get_value(object, field, &value);
    return value;
}

Result<Value> readInteger(MonoObject* object, MonoClassField* field, ValueKind kind) {
    switch (kind) {
    case ValueKind::Int8:
        return Value{std::int64_t{readRaw<std::int8_t>(object, field)}};
    case ValueKind::UInt8:
        return Value{std::uint64_t{readRaw<std::uint8_t>(object, field)}};
    case ValueKind::Int16:
        return Value{std::int64_t{readRaw<std::int16_t>(object, field)}};
    case ValueKind::UInt16:
        return Value{std::uint64_t{readRaw<std::uint16_t>(object, field)}};
    case ValueKind::Int32:
        return Value{std::int64_t{readRaw<std::int32_t>(object, field)}};
    case ValueKind::UInt32:
        return Value{std::uint64_t{readRaw<std::uint32_t>(object, field)}};
    case ValueKind::Int64:
        return Value{readRaw<std::int64_t>(object, field)};
    case ValueKind::UInt64:
        return Value{readRaw<std::uint64_t>(object, field)};
    default:
        return fail("not an integer kind");
    }
}

Result<void> writeInteger(MonoObject* object, MonoClassField* field, ValueKind kind,
                          const Value& value) {
    IntegerLayout layout{};
    integerLayout(kind, layout);
    // Accept either signedness as long as the number fits the field exactly.
    long double number;
    if (auto* s = std::get_if<std::int64_t>(&value)) {
        number = static_cast<long double>(*s);
    } else if (auto* u = std::get_if<std::uint64_t>(&value)) {
        number = static_cast<long double>(*u);
    } else {
        return fail("expected an integer value, got " + describe(value));
    }
    const long double lo = layout.isSigned ? -std::ldexp(1.0L, int(layout.size * 8 - 1)) : 0.0L;
    const long double hi = layout.isSigned ? std::ldexp(1.0L, int(layout.size * 8 - 1)) - 1
                                           : std::ldexp(1.0L, int(layout.size * 8)) - 1;
    if (number < lo || number > hi) {
        return fail(describe(value) + " does not fit a " + std::string(kindName(kind)));
    }
    unsigned char bytes[8] = {};
    if (auto* s = std::get_if<std::int64_t>(&value)) {
        std::memcpy(bytes, s, 8); // little-endian: the low bytes come first
    } else {
        std::memcpy(bytes, &std::get<std::uint64_t>(value), 8);
    }
    mono_field_set_value(object, field, bytes);
    return {};
}

template <typename T>
Result<void> writeStruct(MonoObject* object, MonoClassField* field, const Value& value,
                         const char* what) {
    auto* v = std::get_if<T>(&value);
    if (v == nullptr) {
        return fail(std::string("expected a ") + what + ", got " + describe(value));
    }
    T copy = *v;
    mono_field_set_value(object, field, &copy);
    return {};
}

} // namespace

FieldType fieldTypeOf(MonoType* type, const MathClasses& math) {
    FieldType out;
    out.typeName = typeNameOf(type);
    const int code = mono_type_get_type(type);
    bool ok = false;
    out.kind = kindOfTypeCode(code, ok);
    if (ok) {
        return out;
    }
    if (code != MONO_TYPE_VALUETYPE) {
        out.kind = ValueKind::Unsupported;
        return out;
    }
    MonoClass* klass = mono_class_from_mono_type(type);
    if (klass == math.vector2) {
        out.kind = ValueKind::Vector2;
    } else if (klass == math.vector3) {
        out.kind = ValueKind::Vector3;
    } else if (klass == math.vector4) {
        out.kind = ValueKind::Vector4;
    } else if (klass == math.quaternion) {
        out.kind = ValueKind::Quaternion;
    } else if (mono_class_is_enum(klass)) {
        out.kind = ValueKind::Enum;
        MonoVTable* vtable = mono_class_vtable(mono_domain_get(), klass);
        void* iter = nullptr;
        while (MonoClassField* member = mono_class_get_fields(klass, &iter)) {
            const auto flags = mono_field_get_flags(member);
            if ((flags & MONO_FIELD_ATTR_LITERAL) == 0 || (flags & MONO_FIELD_ATTR_STATIC) == 0) {
                continue; // value__ is the instance field holding the value
            }
            std::int64_t raw = 0; // wide enough for every underlying type; low bytes first
            if (vtable != nullptr) {
                mono_field_static_get_value(vtable, member, &raw);
            }
            // Sign-extend from the underlying width.
            bool baseOk = false;
            ValueKind base =
                kindOfTypeCode(mono_type_get_type(mono_class_enum_basetype(klass)), baseOk);
            IntegerLayout layout{8, true};
            integerLayout(base, layout);
            if (layout.isSigned && layout.size < 8) {
                const int shift = int(64 - layout.size * 8);
                raw = static_cast<std::int64_t>(static_cast<std::uint64_t>(raw) << shift) >> shift;
            } else if (!layout.isSigned && layout.size < 8) {
                raw &= static_cast<std::int64_t>((std::uint64_t{1} << (layout.size * 8)) - 1);
            }
            out.enumMembers.emplace_back(mono_field_get_name(member), raw);
        }
    } else {
        out.kind = ValueKind::Unsupported;
    }
    return out;
}

Result<Value> readField(MonoObject* object, MonoClassField* field, const FieldType& type) {
    switch (type.kind) {
    case ValueKind::Bool:
        return Value{readRaw<std::uint8_t>(object, field) != 0};
    case ValueKind::Float:
        return Value{readRaw<float>(object, field)};
    case ValueKind::Double:
        return Value{readRaw<double>(object, field)};
    case ValueKind::String: {
        MonoString* string = nullptr;
        mono_field_get_value(object, field, &string);
        return Value{toUtf8(string)};
    }
    case ValueKind::Enum: {
        Result<Value> raw = readInteger(object, field, enumUnderlying(field));
        if (!raw)
            return raw;
        if (auto* u = std::get_if<std::uint64_t>(&*raw)) {
            return Value{static_cast<std::int64_t>(*u)};
        }
        return raw;
    }
    case ValueKind::Vector2:
        return Value{readRaw<glm::vec2>(object, field)};
    case ValueKind::Vector3:
        return Value{readRaw<glm::vec3>(object, field)};
    case ValueKind::Vector4:
        return Value{readRaw<glm::vec4>(object, field)};
    case ValueKind::Quaternion:
        return Value{readRaw<glm::quat>(object, field)};
    case ValueKind::Unsupported:
        return fail("fields of type " + type.typeName + " are not supported yet");
    default:
        return readInteger(object, field, type.kind);
    }
}

Result<void> writeField(MonoDomain* domain, MonoObject* object, MonoClassField* field,
                        const FieldType& type, const Value& value) {
    switch (type.kind) {
    case ValueKind::Bool: {
        auto* b = std::get_if<bool>(&value);
        if (b == nullptr)
            return fail("expected true or false, got " + describe(value));
        std::uint8_t raw = *b ? 1 : 0;
        mono_field_set_value(object, field, &raw);
        return {};
    }
    case ValueKind::Float: {
        float f;
        if (auto* pf = std::get_if<float>(&value))
            f = *pf;
        else if (auto* pd = std::get_if<double>(&value))
            f = static_cast<float>(*pd);
        else
            return fail("expected a number, got " + describe(value));
        mono_field_set_value(object, field, &f);
        return {};
    }
    case ValueKind::Double: {
        double d;
        if (auto* pd = std::get_if<double>(&value))
            d = *pd;
        else if (auto* pf = std::get_if<float>(&value))
            d = *pf;
        else
            return fail("expected a number, got " + describe(value));
        mono_field_set_value(object, field, &d);
        return {};
    }
    case ValueKind::String: {
        auto* s = std::get_if<std::string>(&value);
        if (s == nullptr)
            return fail("expected a string, got " + describe(value));
        Result<MonoString*> string = newString(domain, *s);
        if (!string)
            return std::unexpected(string.error());
        mono_field_set_value(object, field, *string); // reference: the pointer itself
        return {};
    }
    case ValueKind::Enum:
        return writeInteger(object, field, enumUnderlying(field), value);
    case ValueKind::Vector2:
        return writeStruct<glm::vec2>(object, field, value, "Vector2");
    case ValueKind::Vector3:
        return writeStruct<glm::vec3>(object, field, value, "Vector3");
    case ValueKind::Vector4:
        return writeStruct<glm::vec4>(object, field, value, "Vector4");
    case ValueKind::Quaternion:
        return writeStruct<glm::quat>(object, field, value, "Quaternion");
    case ValueKind::Unsupported:
        return fail("fields of type " + type.typeName + " are not supported yet");
    default:
        return writeInteger(object, field, type.kind, value);
    }
}

} // namespace scripthost::mono
