#pragma once
// Marshaling between Values and managed storage: fields, array elements, list items.

#include "field_types.hpp"
#include "host/model/value.hpp"
#include "host/model/world.hpp"
#include "scripthost/game/error.hpp"

#include <mono/metadata/class.h>
#include <mono/metadata/object.h>

namespace scripthost::mono {

class ObjectBridge;

/// What reading and writing references needs: the world (to know what an id is) and
/// the generation's object bridge (ids ↔ managed objects).
struct MarshalContext {
    MonoDomain* domain = nullptr;
    const World* world = nullptr; ///< may be null when no reference is involved
    ObjectBridge* bridge = nullptr;
};

/// Reads the value of type `t` stored at `storage` (a field's, an element's or a static's
/// bytes; a reference is stored as the object pointer). `type` is its Mono type.
[[nodiscard]] Result<Value> readStorage(const void* storage, MonoType* type, const FieldType& t,
                                        const MarshalContext& context);

/// Reads `field` of `object` as a Value of `type`.
[[nodiscard]] Result<Value> readField(MonoObject* object, MonoClassField* field,
                                      const FieldType& type, const MarshalContext& context);

/// Writes `value` into `field` of `object`, after checking all of it: a value that does
/// not fit (wrong alternative, out of range, invalid UTF-8, a reference of the wrong
/// class or to a destroyed object) is an error and leaves the field unchanged. A record
/// with KeepDefault members (a reload's migrated value) is written over a copy of the record
/// the field holds now, so those members keep what the new code constructed there (a fresh
/// instance when the field holds null; list and array elements are always fresh instances).
[[nodiscard]] Result<void> writeField(MonoObject* object, MonoClassField* field,
                                      const FieldType& type, const Value& value,
                                      const MarshalContext& context);

/// Reads / writes a static field (its class must already be initialised: see
/// ScriptRuntime.RunClassConstructor — Mono aborts on a throwing static constructor run
/// from these calls).
[[nodiscard]] Result<Value> readStatic(MonoVTable* vtable, MonoClassField* field,
                                       const FieldType& type, const MarshalContext& context);
[[nodiscard]] Result<void> writeStatic(MonoVTable* vtable, MonoClassField* field,
                                       const FieldType& type, const Value& value,
                                       const MarshalContext& context);

} // namespace scripthost::mono
