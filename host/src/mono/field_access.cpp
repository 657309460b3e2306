#include "mono/field_access.hpp"

#include "mono/mono_text.hpp"
#include "mono/object_bridge.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/metadata.h>
#include <string_view>
#include <vector>

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

// The integer kind an enum's values are stored as.
ValueKind enumStorage(MonoClass* enumClass) {
    bool ok = false;
    ValueKind kind = kindOfTypeCode(mono_type_get_type(mono_class_enum_basetype(enumClass)), ok);
    return ok ? kind : ValueKind::Int32;
}

// Is this System.Collections.Generic.List`1? Then its element type is that of _items.
MonoClassField* listItemsField(MonoClass* klass) {
    if (std::string_view(mono_class_get_namespace(klass)) != "System.Collections.Generic" ||
        std::string_view(mono_class_get_name(klass)) != "List`1") {
        return nullptr;
    }
    return mono_class_get_field_from_name(klass, "_items");
}

MonoType* elementTypeOf(MonoType* type) {
    MonoClass* klass = mono_class_from_mono_type(type);
    if (mono_type_get_type(type) == MONO_TYPE_SZARRAY) {
        return mono_class_get_type(mono_class_get_element_class(klass));
    }
    MonoClassField* items = listItemsField(klass);
    return items ? elementTypeOf(mono_field_get_type(items)) : nullptr;
}

// The field of a record's class (or, for classes, a base class) named `name`.
MonoClassField* memberField(MonoClass* klass, const std::string& name) {
    for (MonoClass* k = klass; k != nullptr; k = mono_class_get_parent(k)) {
        if (MonoClassField* f = mono_class_get_field_from_name(k, name.c_str()))
            return f;
    }
    return nullptr;
}

// Where a member lives inside a struct's unboxed data (field offsets count the object
// header, which unboxed data does not have).
std::size_t unboxedOffset(MonoClassField* field) {
    return static_cast<std::size_t>(mono_field_get_offset(field)) - sizeof(MonoObject);
}

std::int64_t signExtend(std::int64_t raw, const IntegerLayout& layout) {
    if (layout.size >= 8)
        return raw;
    const int shift = int(64 - layout.size * 8);
    if (layout.isSigned) {
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(raw) << shift) >> shift;
    }
    return raw & static_cast<std::int64_t>((std::uint64_t{1} << (layout.size * 8)) - 1);
}

void describeEnum(MonoClass* klass, FieldType& out) {
    out.kind = ValueKind::Enum;
    MonoVTable* vtable = mono_class_vtable(mono_domain_get(), klass);
    IntegerLayout layout{8, true};
    integerLayout(enumStorage(klass), layout);
    void* iter = nullptr;
    while (MonoClassField* member = mono_class_get_fields(klass, &iter)) {
        const auto flags = mono_field_get_flags(member);
        if ((flags & MONO_FIELD_ATTR_LITERAL) == 0 || (flags & MONO_FIELD_ATTR_STATIC) == 0) {
            continue; // value__ is the instance field that holds the value
        }
        std::int64_t raw = 0; // wide enough for every underlying type; low bytes first
        if (vtable != nullptr) {
            mono_field_static_get_value(vtable, member, &raw);
        }
        out.enumMembers.emplace_back(mono_field_get_name(member), signExtend(raw, layout));
    }
}

// ---- reading --------------------------------------------------------------------------

Result<Value> readStorage(const void* storage, MonoType* type, const FieldType& t,
                          const MarshalContext& context);

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
        return Value{ObjectRef{context.bridge->localOf(object)}};
    }
    case ValueKind::Array: {
        auto* array = reinterpret_cast<MonoArray*>(loadRef());
        return readElements(array, array ? mono_array_length(array) : 0, type, t, context);
    }
    case ValueKind::List: {
        MonoObject* list = loadRef();
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
        return readElements(array, static_cast<std::uintptr_t>(std::max(size, 0)), type, t,
                            context);
    }
    case ValueKind::Record: {
        MonoClass* klass = mono_class_from_mono_type(type);
        const char* base = static_cast<const char*>(storage);
        if (t.recordIsClass) {
            MonoObject* object = loadRef();
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
    case ValueKind::Unsupported:
        return fail("values of type " + t.typeName + " are not supported yet");
    default:
        return readInteger(storage, t.kind);
    }
}

// ---- writing --------------------------------------------------------------------------

// A value ready to store: raw bytes for value types, an object for reference types.
struct Encoded {
    unsigned char bytes[16] = {};
    MonoObject* object = nullptr; // lives on the stack, so the GC sees (and pins) it
    bool isReference = false;
    MonoObject* boxed = nullptr; // a struct record, built in a box (copied out with barriers)
};

Result<Encoded> encode(const Value& value, MonoType* type, const FieldType& t,
                       const MarshalContext& context);

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

Result<Encoded> encode(const Value& value, MonoType* type, const FieldType& t,
                       const MarshalContext& context) {
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
    case ValueKind::ObjectRef: {
        auto* ref = std::get_if<ObjectRef>(&value);
        if (ref == nullptr)
            return fail("expected a reference, got " + describe(value));
        out.isReference = true;
        if (ref->id.isNull())
            return out;
        if (context.bridge == nullptr || context.world == nullptr) {
            return fail("references need the host's world");
        }
        auto object = context.bridge->remoteOf(*context.world, ref->id);
        if (!object)
            return std::unexpected(object.error());
        MonoClass* wanted = mono_class_from_mono_type(type);
        if (mono_object_isinst(*object, wanted) == nullptr) {
            return fail(fmt::format("{} is a {}, not a {}", ref->id.toString(),
                                    mono_class_get_name(mono_object_get_class(*object)),
                                    mono_class_get_name(wanted)));
        }
        out.object = *object;
        return out;
    }
    case ValueKind::Array:
    case ValueKind::List: {
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
    case ValueKind::Record: {
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
        for (std::size_t i = 0; i < t.members.size(); ++i) {
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

namespace {

// A [Serializable] struct or class: its public (or [SerializeField]) instance fields,
// base classes first; statics, literals and [NonSerialized] fields left out.
void describeRecord(MonoClass* klass, bool isClass, const TypeClasses& classes, int depth,
                    FieldType& out) {
    constexpr int kMaxDepth = 4; // deeper (or self-referencing) types are not carried
    if (depth >= kMaxDepth)
        return;
    // Only the game's own types: the class libraries' [Serializable] types (Dictionary,
    // DateTime, …) keep their state in private fields this scheme would silently skip.
    if (mono_class_get_image(klass) == mono_get_corlib())
        return;
    std::vector<MonoClass*> chain;
    for (MonoClass* k = klass;
         k != nullptr && k != mono_get_object_class() && k != mono_get_enum_class() &&
         std::string_view(mono_class_get_name(k)) != "ValueType";
         k = mono_class_get_parent(k)) {
        chain.push_back(k);
        if (!isClass)
            break;
    }
    std::reverse(chain.begin(), chain.end());
    std::vector<MemberType> members;
    for (MonoClass* k : chain) {
        void* iter = nullptr;
        while (MonoClassField* f = mono_class_get_fields(k, &iter)) {
            const auto flags = mono_field_get_flags(f);
            if ((flags & (MONO_FIELD_ATTR_STATIC | MONO_FIELD_ATTR_LITERAL |
                          MONO_FIELD_ATTR_NOT_SERIALIZED)) != 0) {
                continue;
            }
            bool serialized = (flags & MONO_FIELD_ATTR_FIELD_ACCESS_MASK) == MONO_FIELD_ATTR_PUBLIC;
            if (!serialized && classes.serializeField != nullptr) {
                if (MonoCustomAttrInfo* attrs = mono_custom_attrs_from_field(k, f)) {
                    serialized = mono_custom_attrs_has_attr(attrs, classes.serializeField);
                    mono_custom_attrs_free(attrs);
                }
            }
            if (!serialized)
                continue;
            FieldType member = fieldTypeOf(mono_field_get_type(f), classes, depth + 1);
            if (member.kind == ValueKind::Unsupported)
                return; // all or nothing: never half a value
            members.push_back(MemberType{mono_field_get_name(f), std::move(member)});
        }
    }
    if (members.empty())
        return; // nothing to carry: say so instead of carrying nothing
    out.kind = ValueKind::Record;
    out.recordIsClass = isClass;
    out.members = std::move(members);
}

} // namespace

FieldType fieldTypeOf(MonoType* type, const TypeClasses& classes, int depth) {
    FieldType out;
    out.typeName = typeNameOf(type);
    const int code = mono_type_get_type(type);
    bool ok = false;
    out.kind = kindOfTypeCode(code, ok);
    if (ok)
        return out;
    out.kind = ValueKind::Unsupported;
    MonoClass* klass = mono_class_from_mono_type(type);
    switch (code) {
    case MONO_TYPE_VALUETYPE:
        if (klass == classes.vector2)
            out.kind = ValueKind::Vector2;
        else if (klass == classes.vector3)
            out.kind = ValueKind::Vector3;
        else if (klass == classes.vector4)
            out.kind = ValueKind::Vector4;
        else if (klass == classes.quaternion)
            out.kind = ValueKind::Quaternion;
        else if (mono_class_is_enum(klass))
            describeEnum(klass, out);
        else if ((mono_class_get_flags(klass) & MONO_TYPE_ATTR_SERIALIZABLE) != 0) {
            describeRecord(klass, false, classes, depth, out);
        }
        break;
    case MONO_TYPE_CLASS:
        if (klass == classes.entity) {
            out.kind = ValueKind::ObjectRef;
            out.refTarget = RefTarget::Entity;
        } else if (mono_class_is_subclass_of(klass, classes.scriptBase, false)) {
            out.kind = ValueKind::ObjectRef;
            out.refTarget = RefTarget::Script;
        } else if (mono_class_is_subclass_of(klass, classes.component, false)) {
            out.kind = ValueKind::ObjectRef;
            out.refTarget = RefTarget::Component;
        } else if ((mono_class_get_flags(klass) & MONO_TYPE_ATTR_SERIALIZABLE) != 0 &&
                   (mono_class_get_flags(klass) & MONO_TYPE_ATTR_ABSTRACT) == 0 &&
                   listItemsField(klass) == nullptr) {
            describeRecord(klass, true, classes, depth, out);
        }
        break;
    case MONO_TYPE_SZARRAY:
    case MONO_TYPE_GENERICINST: {
        MonoType* element = elementTypeOf(type);
        if (element == nullptr)
            break;
        FieldType elementType = fieldTypeOf(element, classes, depth + 1);
        // One level: arrays of arrays and lists of lists are not carried (yet).
        if (elementType.kind == ValueKind::Unsupported || elementType.kind == ValueKind::Array ||
            elementType.kind == ValueKind::List) {
            break;
        }
        out.kind = code == MONO_TYPE_SZARRAY ? ValueKind::Array : ValueKind::List;
        out.element.push_back(std::move(elementType));
        break;
    }
    default:
        break;
    }
    return out;
}

Result<Value> readField(MonoObject* object, MonoClassField* field, const FieldType& type,
                        const MarshalContext& context) {
    // Instance field offsets count from the start of the object (header included).
    const auto* storage = reinterpret_cast<const char*>(object) + mono_field_get_offset(field);
    return readStorage(storage, mono_field_get_type(field), type, context);
}

Result<void> writeField(MonoObject* object, MonoClassField* field, const FieldType& type,
                        const Value& value, const MarshalContext& context) {
    auto encoded = encode(value, mono_field_get_type(field), type, context);
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

namespace {

// The size of a plain-data kind's storage, or 0 for kinds that are not plain data.
std::size_t plainBytes(ValueKind kind) {
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


} // namespace

FieldCarry planFieldCarry(MonoClassField* from, const FieldType& fromType, MonoClassField* to,
                          const FieldType& toType) {
    FieldCarry carry;
    carry.from = from;
    carry.to = to;
    carry.fromType = &fromType;
    carry.type = &toType;
    switch (toType.kind) {
    case ValueKind::String:
        carry.mode = FieldCarry::Mode::String;
        return carry;
    case ValueKind::ObjectRef:
        carry.mode = FieldCarry::Mode::Reference;
        carry.refClass = mono_class_from_mono_type(mono_field_get_type(to));
        return carry;
    case ValueKind::Enum: {
        // Same members, but the underlying integer may have changed width (byte → int).
        const ValueKind a = enumStorage(mono_class_from_mono_type(mono_field_get_type(from)));
        const ValueKind b = enumStorage(mono_class_from_mono_type(mono_field_get_type(to)));
        if (a == b) {
            carry.mode = FieldCarry::Mode::Bytes;
            carry.bytes = plainBytes(a);
        }
        return carry;
    }
    default:
        if (fromType.kind == toType.kind) {
            if (const std::size_t bytes = plainBytes(toType.kind)) {
                carry.mode = FieldCarry::Mode::Bytes;
                carry.bytes = bytes;
            }
        }
        return carry;
    }
}

Result<std::size_t> carryField(MonoObject* from, const MarshalContext& fromContext, MonoObject* to,
                               const MarshalContext& toContext, const FieldCarry& carry,
                               const RefFilter& usable) {
    const char* source = reinterpret_cast<const char*>(from) + mono_field_get_offset(carry.from);
    switch (carry.mode) {
    case FieldCarry::Mode::Bytes: {
        // No references inside: a plain copy needs no write barrier.
        char* target = reinterpret_cast<char*>(to) + mono_field_get_offset(carry.to);
        std::memcpy(target, source, carry.bytes);
        return 0;
    }
    case FieldCarry::Mode::String: {
        MonoString* old = nullptr;
        std::memcpy(&old, source, sizeof old);
        MonoString* copy = nullptr;
        if (old != nullptr) {
            // Copied out first: the allocation below may collect, and the characters then
            // must not be read from the managed heap.
            thread_local std::vector<mono_unichar2> chars;
            const int length = mono_string_length(old);
            const mono_unichar2* begin = mono_string_chars(old);
            chars.assign(begin, begin + length);
            copy = mono_string_new_utf16(toContext.domain, chars.data(), length);
            if (copy == nullptr)
                return fail("out of memory creating a managed string");
        }
        mono_field_set_value(to, carry.to, copy); // the object pointer itself, with barrier
        return 0;
    }
    case FieldCarry::Mode::Reference: {
        MonoObject* old = nullptr;
        std::memcpy(&old, source, sizeof old);
        const ObjectId id =
            old != nullptr && fromContext.bridge ? fromContext.bridge->localOf(old) : ObjectId{};
        if (id.isNull() || !usable(id)) {
            mono_field_set_value(to, carry.to, nullptr);
            return id.isNull() ? 0 : 1;
        }
        if (toContext.bridge == nullptr || toContext.world == nullptr)
            return fail("references need the host's world");
        auto object = toContext.bridge->remoteOf(*toContext.world, id);
        if (!object)
            return std::unexpected(object.error());
        if (mono_object_isinst(*object, carry.refClass) == nullptr) {
            return fail(fmt::format("{} is a {}, not a {}", id.toString(),
                                    mono_class_get_name(mono_object_get_class(*object)),
                                    mono_class_get_name(carry.refClass)));
        }
        mono_field_set_value(to, carry.to, *object);
        return 0;
    }
    case FieldCarry::Mode::Value:
        break;
    }
    auto value = readStorage(source, mono_field_get_type(carry.from), *carry.fromType, fromContext);
    if (!value)
        return std::unexpected(value.error());
    const std::size_t cleared = clearReferences(*value, usable);
    if (auto written = writeField(to, carry.to, *carry.type, *value, toContext); !written)
        return std::unexpected(written.error());
    return cleared;
}

void prepareReferenceCarry(MonoObject* from, const MarshalContext& fromContext,
                           const MarshalContext& toContext, const FieldCarry& carry) {
    if (carry.mode != FieldCarry::Mode::Reference || fromContext.bridge == nullptr ||
        toContext.bridge == nullptr || toContext.world == nullptr) {
        return;
    }
    MonoObject* old = nullptr;
    std::memcpy(&old, reinterpret_cast<const char*>(from) + mono_field_get_offset(carry.from),
                sizeof old);
    const ObjectId id = old != nullptr ? fromContext.bridge->localOf(old) : ObjectId{};
    if (id.isNull())
        return;
    const World& world = *toContext.world;
    const ObjectKind kind = world.kindOf(id);
    const Entity* entity = kind == ObjectKind::Entity ? world.entity(id) : nullptr;
    if (kind == ObjectKind::Component || (entity != nullptr && !entity->ownedByScripts)) {
        (void)toContext.bridge->remoteOf(world, id); // made now, found by the carry
    }
}

Result<Value> readStatic(MonoVTable* vtable, MonoClassField* field, const FieldType& type,
                         const MarshalContext& context) {
    alignas(16) unsigned char storage[16] = {}; // a reference lands here as a pointer
    mono_field_static_get_value(vtable, field, storage);
    return readStorage(storage, mono_field_get_type(field), type, context);
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
