#include "domain/object_bridge.hpp"
#include "field_access.hpp"
#include "field_layout.hpp"
#include "runtime/mono_text.hpp"

#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <mono/metadata/appdomain.h>

namespace scripthost::mono {

namespace {

// A value ready to store: raw bytes for value types, an object for reference types.
struct Encoded {
    unsigned char bytes[16] = {};
    MonoObject* object = nullptr; // lives on the stack, so the GC sees (and pins) it
    bool isReference = false;
    MonoObject* boxed = nullptr; // a struct record, built in a box (copied out with barriers)
};

// `value` as a `t` stored in a location of Mono type `type`, checked throughout. `base`: for a
// record value with KeepDefault members (recordKeepsDefaults), the record the location holds
// now (a class instance, or a struct in a box; null: none), whose members those keep.
Result<Encoded> encode(const Value& value, MonoType* type, const FieldType& t,
                       const MarshalContext& context, MonoObject* base = nullptr);

// Whether `value`, a `t`, is a record that keeps some member's default (KeepDefault), itself or
// in a member record: it is then written over the record the location holds, not a fresh one.
bool recordKeepsDefaults(const Value& value, const FieldType& t) {
    const auto* members = std::get_if<ValueList>(&value);
    if (t.kind != ValueKind::Record || members == nullptr || members->size() != t.members.size())
        return false;
    for (std::size_t i = 0; i < members->size(); ++i) {
        if (std::holds_alternative<KeepDefault>((*members)[i]) ||
            recordKeepsDefaults((*members)[i], t.members[i].type)) {
            return true;
        }
    }
    return false;
}

// The record `field` of `object` holds now, for recordKeepsDefaults: the instance for a class
// (null if none), a boxed copy for a struct. On the stack of the caller, so the GC pins it.
MonoObject* currentRecord(MonoObject* object, MonoClassField* field, const FieldType& t,
                          const MarshalContext& context) {
    if (t.recordIsClass) {
        MonoObject* current = nullptr;
        mono_field_get_value(object, field, &current);
        return current;
    }
    return mono_field_get_value_object(context.domain, field, object);
}

Result<void> encodeInteger(const Value& value, ValueKind kind, Encoded& out) {
    IntegerLayout layout{};
    integerLayout(kind, layout);
    long double number;
    if (auto* s = std::get_if<std::int64_t>(&value)) {
        number = static_cast<long double>(*s);
        std::memcpy(out.bytes, s, 8);
    } else if (auto* u = std::get_if<std::uint64_t>(&value)) {
        number = static_cast<long double>(*u);
        std::memcpy(out.bytes, u, 8);
    } else {
        return fail("expected an integer, got " + describe(value));
    }
    const int bits = int(layout.size * 8);
    const long double lo = layout.isSigned ? -std::ldexp(1.0L, bits - 1) : 0.0L;
    const long double hi =
        layout.isSigned ? std::ldexp(1.0L, bits - 1) - 1 : std::ldexp(1.0L, bits) - 1;
    if (number < lo || number > hi) {
        return fail(describe(value) + " does not fit a " + std::string(kindName(kind)));
    }
    return {};
}

template <typename T>
Result<void> encodeStruct(const Value& value, Encoded& out, const char* what) {
    auto* v = std::get_if<T>(&value);
    if (v == nullptr)
        return fail(std::string("expected a ") + what + ", got " + describe(value));
    static_assert(sizeof(T) <= sizeof out.bytes);
    std::memcpy(out.bytes, v, sizeof(T));
    return {};
}

Result<MonoArray*> encodeArray(const ValueList& items, MonoClass* elementClass,
                               MonoType* elementType, const FieldType& elementT,
                               const MarshalContext& context) {
    MonoArray* array = mono_array_new(context.domain, elementClass, items.size());
    if (array == nullptr)
        return fail("cannot allocate an array");
    const int size =
        mono_array_element_size(mono_object_get_class(reinterpret_cast<MonoObject*>(array)));
    for (std::size_t i = 0; i < items.size(); ++i) {
        auto element = encode(items[i], elementType, elementT, context);
        if (!element)
            return fail(fmt::format("[{}]: {}", i, element.error().message));
        if (element->isReference) {
            mono_array_setref(array, i, element->object); // with the GC's write barrier
        } else if (element->boxed != nullptr) {
            mono_gc_wbarrier_value_copy(mono_array_addr_with_size(array, size, i),
                                        mono_object_unbox(element->boxed), 1, elementClass);
        } else {
            std::memcpy(mono_array_addr_with_size(array, size, i), element->bytes,
                        std::size_t(size));
        }
    }
    return array;
}

// A reference to a world object or script: the managed object of its id in this
// generation, checked against the field's class (null stays null).
Result<Encoded> encodeReference(const Value& value, MonoType* type, const MarshalContext& context) {
    Encoded out;
    auto* ref = std::get_if<ObjectRef>(&value);
    if (ref == nullptr)
        return fail("expected a reference, got " + describe(value));
    out.isReference = true;
    if (ref->id.isNull())
        return out;
    if (context.bridge == nullptr || context.world == nullptr) {
        return fail("references need the host's world");
    }
    MonoClass* wanted = mono_class_from_mono_type(type);
    auto object = context.bridge->remoteOfAs(*context.world, ref->id, wanted);
    if (!object)
        return std::unexpected(object.error());
    if (mono_object_isinst(*object, wanted) == nullptr) {
        return fail(fmt::format("{} is a {}, not a {}", ref->id.toString(),
                                mono_class_get_name(mono_object_get_class(*object)),
                                mono_class_get_name(wanted)));
    }
    out.object = *object;
    return out;
}

// An array, or a new List<T> around one.
Result<Encoded> encodeSequence(const Value& value, MonoType* type, const FieldType& t,
                               const MarshalContext& context) {
    Encoded out;
    auto* items = std::get_if<ValueList>(&value);
    if (items == nullptr)
        return fail("expected a list of values, got " + describe(value));
    MonoType* elementType = elementTypeOf(type);
    if (elementType == nullptr)
        return fail("cannot find the element type of " + t.typeName);
    auto array = encodeArray(*items, mono_class_from_mono_type(elementType), elementType,
                             t.elementType(), context);
    if (!array)
        return std::unexpected(array.error());
    out.isReference = true;
    if (t.kind == ValueKind::Array) {
        out.object = reinterpret_cast<MonoObject*>(*array);
        return out;
    }
    // A new List<T> around the array: constructor, then _items and _size.
    MonoClass* listClass = mono_class_from_mono_type(type);
    MonoObject* list = mono_object_new(context.domain, listClass);
    MonoMethod* ctor = mono_class_get_method_from_name(listClass, ".ctor", 0);
    MonoClassField* itemsField = listItemsField(listClass);
    MonoClassField* sizeField = mono_class_get_field_from_name(listClass, "_size");
    if (list == nullptr || ctor == nullptr || itemsField == nullptr || sizeField == nullptr) {
        return fail("unexpected List<T> layout");
    }
    MonoObject* exc = nullptr;
    mono_runtime_invoke(ctor, list, nullptr, &exc);
    if (exc != nullptr)
        return fail("List<T>() threw");
    std::int32_t size = static_cast<std::int32_t>(items->size());
    mono_field_set_value(list, itemsField, *array);
    mono_field_set_value(list, sizeField, &size);
    out.object = list;
    return out;
}

// A fresh instance of a record type: a class's parameterless constructor (its member
// initializers) if it has one, a struct's default (zeroes) in a box.
Result<MonoObject*> newRecord(MonoClass* klass, const FieldType& t, const MarshalContext& context) {
    MonoObject* holder = mono_object_new(context.domain, klass);
    if (holder == nullptr)
        return fail("cannot allocate a " + t.typeName);
    if (t.recordIsClass) {
        if (MonoMethod* ctor = mono_class_get_method_from_name(klass, ".ctor", 0)) {
            MonoObject* exc = nullptr;
            mono_runtime_invoke(ctor, holder, nullptr, &exc);
            if (exc != nullptr)
                return fail("the constructor of " + t.typeName + " threw");
        }
    }
    return holder;
}

// A [Serializable] struct (in a box) or class instance, built member by member. A record that
// keeps some members' defaults is built over `base` (a copy of it: a class instance is cloned,
// a struct's box is already a copy), or over a fresh instance when there is none.
Result<Encoded> encodeRecord(const Value& value, MonoType* type, const FieldType& t,
                             const MarshalContext& context, MonoObject* base) {
    Encoded out;
    auto* members = std::get_if<ValueList>(&value);
    if (members == nullptr)
        return fail("expected a record, got " + describe(value));
    MonoClass* klass = mono_class_from_mono_type(type);
    if (t.recordIsClass && members->empty()) {
        out.isReference = true; // null instance
        return out;
    }
    if (members->size() != t.members.size()) {
        return fail(fmt::format("{} has {} members, the value {}", t.typeName, t.members.size(),
                                members->size()));
    }
    // Build the value in a managed object (a box for a struct), member by member
    // through the ordinary field writes, so every reference gets its write barrier.
    MonoObject* holder = nullptr;
    if (base != nullptr && recordKeepsDefaults(value, t)) {
        holder = t.recordIsClass ? mono_object_clone(base) : base;
        if (holder == nullptr)
            return fail("cannot copy a " + t.typeName);
    } else {
        auto fresh = newRecord(klass, t, context);
        if (!fresh)
            return std::unexpected(fresh.error());
        holder = *fresh;
    }
    for (std::size_t i = 0; i < t.members.size(); ++i) {
        if (std::holds_alternative<KeepDefault>((*members)[i]))
            continue; // what the new code constructed stays
        MonoClassField* f = memberField(klass, t.members[i].name);
        if (f == nullptr)
            return fail(t.typeName + " has no member " + t.members[i].name);
        auto written = writeField(holder, f, t.members[i].type, (*members)[i], context);
        if (!written)
            return fail(t.members[i].name + ": " + written.error().message);
    }
    if (t.recordIsClass) {
        out.isReference = true;
        out.object = holder;
    } else {
        out.boxed = holder;
    }
    return out;
}

Result<Encoded> encode(const Value& value, MonoType* type, const FieldType& t,
                       const MarshalContext& context, MonoObject* base) {
    Encoded out;
    Result<void> ok;
    switch (t.kind) {
    case ValueKind::Bool: {
        auto* b = std::get_if<bool>(&value);
        if (b == nullptr)
            return fail("expected true or false, got " + describe(value));
        out.bytes[0] = *b ? 1 : 0;
        return out;
    }
    case ValueKind::Float: {
        float f;
        if (auto* pf = std::get_if<float>(&value))
            f = *pf;
        else if (auto* pd = std::get_if<double>(&value))
            f = static_cast<float>(*pd);
        else
            return fail("expected a number, got " + describe(value));
        std::memcpy(out.bytes, &f, sizeof f);
        return out;
    }
    case ValueKind::Double: {
        double d;
        if (auto* pd = std::get_if<double>(&value))
            d = *pd;
        else if (auto* pf = std::get_if<float>(&value))
            d = *pf;
        else
            return fail("expected a number, got " + describe(value));
        std::memcpy(out.bytes, &d, sizeof d);
        return out;
    }
    case ValueKind::String: {
        auto* s = std::get_if<std::string>(&value);
        if (s == nullptr)
            return fail("expected a string, got " + describe(value));
        auto string = newString(context.domain, *s);
        if (!string)
            return std::unexpected(string.error());
        out.object = reinterpret_cast<MonoObject*>(*string);
        out.isReference = true;
        return out;
    }
    case ValueKind::Enum:
        ok = encodeInteger(value, enumStorage(mono_class_from_mono_type(type)), out);
        break;
    case ValueKind::Vector2:
        ok = encodeStruct<glm::vec2>(value, out, "Vector2");
        break;
    case ValueKind::Vector3:
        ok = encodeStruct<glm::vec3>(value, out, "Vector3");
        break;
    case ValueKind::Vector4:
        ok = encodeStruct<glm::vec4>(value, out, "Vector4");
        break;
    case ValueKind::Quaternion:
        ok = encodeStruct<glm::quat>(value, out, "Quaternion");
        break;
    case ValueKind::ObjectRef:
        return encodeReference(value, type, context);
    case ValueKind::Array:
    case ValueKind::List:
        return encodeSequence(value, type, t, context);
    case ValueKind::Record:
        return encodeRecord(value, type, t, context, base);
    case ValueKind::Unsupported:
        return fail("values of type " + t.typeName + " are not supported yet");
    default:
        ok = encodeInteger(value, t.kind, out);
        break;
    }
    if (!ok)
        return std::unexpected(ok.error());
    return out;
}

} // namespace

Result<void> writeField(MonoObject* object, MonoClassField* field, const FieldType& type,
                        const Value& value, const MarshalContext& context) {
    MonoObject* base =
        recordKeepsDefaults(value, type) ? currentRecord(object, field, type, context) : nullptr;
    auto encoded = encode(value, mono_field_get_type(field), type, context, base);
    if (!encoded)
        return std::unexpected(encoded.error());
    if (encoded->isReference) {
        mono_field_set_value(object, field, encoded->object); // the object pointer itself
    } else if (encoded->boxed != nullptr) {
        mono_field_set_value(object, field,
                             mono_object_unbox(encoded->boxed)); // copied with barriers
    } else {
        mono_field_set_value(object, field, encoded->bytes);
    }
    return {};
}

Result<void> writeStatic(MonoVTable* vtable, MonoClassField* field, const FieldType& type,
                         const Value& value, const MarshalContext& context) {
    auto encoded = encode(value, mono_field_get_type(field), type, context);
    if (!encoded)
        return std::unexpected(encoded.error());
    void* source = encoded->isReference        ? static_cast<void*>(encoded->object)
                   : encoded->boxed != nullptr ? mono_object_unbox(encoded->boxed)
                                               : static_cast<void*>(encoded->bytes);
    mono_field_static_set_value(vtable, field, source);
    return {};
}

} // namespace scripthost::mono
