#pragma once
// Carrying a field's value straight from one generation's instance into the next's.

#include "field_access.hpp"
#include "host/model/value.hpp"
#include "scripthost/game/error.hpp"

#include <cstddef>
#include <functional>
#include <mono/metadata/class.h>
#include <mono/metadata/object.h>

namespace scripthost::mono {

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

} // namespace scripthost::mono
