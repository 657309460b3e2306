#include "carry/field_carry.hpp"

#include "domain/object_bridge.hpp"
#include "field_layout.hpp"

#include <cstring>
#include <fmt/format.h>
#include <mono/metadata/appdomain.h>
#include <vector>

namespace scripthost::mono {

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
        auto object = toContext.bridge->remoteOfAs(*toContext.world, id, carry.refClass);
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

} // namespace scripthost::mono
