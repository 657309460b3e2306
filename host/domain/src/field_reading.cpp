#include "domain/object_bridge.hpp"
#include "field_access.hpp"
#include "field_layout.hpp"
#include "runtime/mono_text.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <mono/metadata/appdomain.h>

namespace scripthost::mono {

namespace {

// An integer of `kind`'s width at `storage`, as a signed or unsigned 64-bit Value.
Result<Value> readInteger(const void* storage, ValueKind kind) {
    IntegerLayout layout{};
    if (!integerLayout(kind, layout))
        return fail("not an integer kind");
    std::uint64_t raw = 0;
    std::memcpy(&raw, storage, layout.size); // little-endian: low bytes first
    if (layout.isSigned) {
        return Value{signExtend(static_cast<std::int64_t>(raw), layout)};
    }
    return Value{raw};
}

// `count` elements of `array` (a null array reads as empty).
Result<Value> readElements(MonoArray* array, std::uintptr_t count, MonoType* type,
                           const FieldType& t, const MarshalContext& context) {
    ValueList items;
    if (array == nullptr) {
        return Value{std::move(items)}; // a null array reads as empty
    }
    MonoType* elementType = elementTypeOf(type);
    MonoClass* arrayClass = mono_object_get_class(reinterpret_cast<MonoObject*>(array));
    const int size = mono_array_element_size(arrayClass);
    items.reserve(count);
    for (std::uintptr_t i = 0; i < count; ++i) {
        auto item = readStorage(mono_array_addr_with_size(array, size, i), elementType,
                                t.elementType(), context);
        if (!item)
            return fail(fmt::format("[{}]: {}", i, item.error().message));
        items.push_back(std::move(*item));
    }
    return Value{std::move(items)};
}

// The items of a List<T> (its backing array up to _size); a null list reads as empty.
Result<Value> readList(MonoObject* list, MonoType* type, const FieldType& t,
                       const MarshalContext& context) {
    if (list == nullptr)
        return Value{ValueList{}};
    MonoClass* klass = mono_object_get_class(list);
    MonoClassField* items = listItemsField(klass);
    MonoClassField* sizeField = mono_class_get_field_from_name(klass, "_size");
    if (items == nullptr || sizeField == nullptr)
        return fail("unexpected List<T> layout");
    MonoArray* array = nullptr;
    std::int32_t size = 0;
    mono_field_get_value(list, items, &array);
    mono_field_get_value(list, sizeField, &size);
    return readElements(array, static_cast<std::uintptr_t>(std::max(size, 0)), type, t, context);
}

// A record's members in order: a struct's from its storage, a class's from the object
// stored there (a null instance reads as an empty list).
Result<Value> readRecord(const void* storage, MonoType* type, const FieldType& t,
                         const MarshalContext& context) {
    MonoClass* klass = mono_class_from_mono_type(type);
    const char* base = static_cast<const char*>(storage);
    if (t.recordIsClass) {
        MonoObject* object = nullptr;
        std::memcpy(&object, storage, sizeof object);
        if (object == nullptr)
            return Value{ValueList{}}; // null instance
        klass = mono_object_get_class(object);
        base = reinterpret_cast<const char*>(object);
    }
    ValueList members;
    for (const MemberType& member : t.members) {
        MonoClassField* f = memberField(klass, member.name);
        if (f == nullptr)
            return fail(t.typeName + " has no member " + member.name);
        const char* at =
            t.recordIsClass ? base + mono_field_get_offset(f) : base + unboxedOffset(f);
        auto value = readStorage(at, mono_field_get_type(f), member.type, context);
        if (!value)
            return fail(member.name + ": " + value.error().message);
        members.push_back(std::move(*value));
    }
    return Value{std::move(members)};
}

} // namespace

Result<Value> readStorage(const void* storage, MonoType* type, const FieldType& t,
                          const MarshalContext& context) {
    auto loadRef = [storage] {
        MonoObject* object = nullptr;
        std::memcpy(&object, storage, sizeof object);
        return object;
    };
    switch (t.kind) {
    case ValueKind::Bool:
        return Value{*static_cast<const std::uint8_t*>(storage) != 0};
    case ValueKind::Float: {
        float f;
        std::memcpy(&f, storage, sizeof f);
        return Value{f};
    }
    case ValueKind::Double: {
        double d;
        std::memcpy(&d, storage, sizeof d);
        return Value{d};
    }
    case ValueKind::String:
        return Value{toUtf8(reinterpret_cast<MonoString*>(loadRef()))};
    case ValueKind::Enum: {
        auto raw = readInteger(storage, enumStorage(mono_class_from_mono_type(type)));
        if (!raw)
            return raw;
        if (auto* u = std::get_if<std::uint64_t>(&*raw))
            return Value{static_cast<std::int64_t>(*u)};
        return raw;
    }
    case ValueKind::Vector2: {
        glm::vec2 v;
        std::memcpy(&v, storage, sizeof v);
        return Value{v};
    }
    case ValueKind::Vector3: {
        glm::vec3 v;
        std::memcpy(&v, storage, sizeof v);
        return Value{v};
    }
    case ValueKind::Vector4: {
        glm::vec4 v;
        std::memcpy(&v, storage, sizeof v);
        return Value{v};
    }
    case ValueKind::Quaternion: {
        glm::quat q;
        std::memcpy(&q, storage, sizeof q);
        return Value{q};
    }
    case ValueKind::ObjectRef: {
        MonoObject* object = loadRef();
        if (object == nullptr || context.bridge == nullptr)
            return Value{ObjectRef{}};
        const ObjectId id = context.bridge->localOf(object);
        if (context.world != nullptr && !context.world->isAlive(id))
            return Value{ObjectRef{}}; // destroyed: null, as the script sees it
        return Value{ObjectRef{id}};
    }
    case ValueKind::Array: {
        auto* array = reinterpret_cast<MonoArray*>(loadRef());
        return readElements(array, array ? mono_array_length(array) : 0, type, t, context);
    }
    case ValueKind::List:
        return readList(loadRef(), type, t, context);
    case ValueKind::Record:
        return readRecord(storage, type, t, context);
    case ValueKind::Unsupported:
        return fail("values of type " + t.typeName + " are not supported yet");
    default:
        return readInteger(storage, t.kind);
    }
}

Result<Value> readField(MonoObject* object, MonoClassField* field, const FieldType& type,
                        const MarshalContext& context) {
    // Instance field offsets count from the start of the object (header included).
    const auto* storage = reinterpret_cast<const char*>(object) + mono_field_get_offset(field);
    return readStorage(storage, mono_field_get_type(field), type, context);
}

Result<Value> readStatic(MonoVTable* vtable, MonoClassField* field, const FieldType& type,
                         const MarshalContext& context) {
    alignas(16) unsigned char storage[16] = {}; // a reference lands here as a pointer
    mono_field_static_get_value(vtable, field, storage);
    return readStorage(storage, mono_field_get_type(field), type, context);
}

} // namespace scripthost::mono
