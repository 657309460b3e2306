#pragma once
// Marshaling between Values and managed storage: fields, array elements, list items.

#include "host/error.hpp"
#include "host/value.hpp"
#include "host/world.hpp"

#include <functional>
#include <mono/metadata/class.h>
#include <mono/metadata/object.h>

namespace scripthost::mono {

class ObjectBridge;

/// This generation's ScriptCore classes that decide what a field's type is.
struct TypeClasses {
    MonoClass* vector2 = nullptr;
    MonoClass* vector3 = nullptr;
    MonoClass* vector4 = nullptr;
    MonoClass* quaternion = nullptr;
    MonoClass* entity = nullptr;         ///< UEngine.UEntity
    MonoClass* component = nullptr;      ///< UEngine.UComponent
    MonoClass* scriptBase = nullptr;     ///< UEngine.UMonoScriptComponent
    MonoClass* serializeField = nullptr; ///< UEngine.SerializeFieldAttribute
};

/// Maps a Mono type to a FieldType (Unsupported for what the host cannot carry).
/// [Serializable] structs and classes become Records of their public (or
/// [SerializeField]) instance fields, nested at most a few levels deep.
[[nodiscard]] FieldType fieldTypeOf(MonoType* type, const TypeClasses& classes, int depth = 0);

/// What reading and writing references needs: the world (to know what an id is) and
/// the generation's object bridge (ids ↔ managed objects).
struct MarshalContext {
    MonoDomain* domain = nullptr;
    const World* world = nullptr; ///< may be null when no reference is involved
    ObjectBridge* bridge = nullptr;
};

/// Reads `field` of `object` as a Value of `type`.
[[nodiscard]] Result<Value> readField(MonoObject* object, MonoClassField* field,
                                      const FieldType& type, const MarshalContext& context);

/// Writes `value` into `field` of `object`, after checking all of it: a value that does
/// not fit (wrong alternative, out of range, invalid UTF-8, a reference of the wrong
/// class or to a destroyed object) is an error and leaves the field unchanged.
[[nodiscard]] Result<void> writeField(MonoObject* object, MonoClassField* field,
                                      const FieldType& type, const Value& value,
                                      const MarshalContext& context);

/// One field's way from an instance of the previous generation straight into the
/// matching instance of the next (a hot reload without a snapshot in between). Planned
/// once per class and field; only for fields whose old and new types have the same shape.
struct FieldCarry {
    enum class Mode {
        Bytes,     ///< plain data (numbers, bools, vectors, same-width enums): copied as bytes
        String,    ///< a new string in the next domain from the old one's UTF-16
        Reference, ///< by id: the old object's id, then the next generation's object for it
        Value,     ///< anything else (arrays, lists, records): read as a Value, written back
    };
    Mode mode = Mode::Value;
    MonoClassField* from = nullptr;
    MonoClassField* to = nullptr;
    const FieldType* fromType = nullptr; ///< the source field's type
    const FieldType* type = nullptr;     ///< the destination field's type
    std::size_t bytes = 0;               ///< Bytes only
    MonoClass* refClass = nullptr;       ///< Reference only: what the destination field holds
};

/// Plans the carry of a field whose old type `fromType` has the same shape (sameShape)
/// as its new type `toType`.
[[nodiscard]] FieldCarry planFieldCarry(MonoClassField* from, const FieldType& fromType,
                                        MonoClassField* to, const FieldType& toType);

/// Says whether a reference may be carried (its object exists in the next generation).
using RefFilter = std::function<bool(ObjectId)>;

/// Carries one field from `from` (read with `fromContext`) into `to` (written with
/// `toContext`, whose domain must be the current one). References `usable` rejects are
/// written as null; returns how many were. The destination is left unchanged on error.
[[nodiscard]] Result<std::size_t> carryField(MonoObject* from, const MarshalContext& fromContext,
                                             MonoObject* to, const MarshalContext& toContext,
                                             const FieldCarry& carry, const RefFilter& usable);

/// Before a carry: makes the next generation's proxy for the entity or native component
/// the reference field of `from` points at now, if the world owns it (such a proxy needs
/// no finalizer and is never the last word on its object's life). Reference carries only.
void prepareReferenceCarry(MonoObject* from, const MarshalContext& fromContext,
                           const MarshalContext& toContext, const FieldCarry& carry);

/// Reads / writes a static field (its class must already be initialised: see
/// ScriptRuntime.RunClassConstructor — Mono aborts on a throwing static constructor run
/// from these calls).
[[nodiscard]] Result<Value> readStatic(MonoVTable* vtable, MonoClassField* field,
                                       const FieldType& type, const MarshalContext& context);
[[nodiscard]] Result<void> writeStatic(MonoVTable* vtable, MonoClassField* field,
                                       const FieldType& type, const Value& value,
                                       const MarshalContext& context);

} // namespace scripthost::mono
