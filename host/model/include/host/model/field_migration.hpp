#pragma once
// The reload's field-migration rules: what happens to each saved [SerializeField] value of a
// script (and each [PreserveStatic] value) when its class is replaced by a new version —
// carried, renamed, converted, parked, unparked, added, removed, dead references cleared; a
// [Serializable] record whose type changed, member by member (member_migration.hpp).
// Pure decisions on plain data, no runtime: the reload applies them, tests and fuzzers
// exercise them alone.

#include "host/model/member_migration.hpp"
#include "host/model/reload_report.hpp"
#include "host/model/script_class_info.hpp"
#include "host/model/snapshot.hpp"
#include "host/model/value.hpp"
#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace scripthost {

/// The value the new class's field at `index` (in ScriptClassInfo::fields) receives. An index,
/// not a name, so the runtime layer writes it without looking the field up again.
struct FieldWrite {
    std::size_t index = 0;
    Value value;
};

/// What a reload does with one script's saved fields under its new class: the runtime layer
/// performs the writes, stores `parked` on the slot and adds `outcomes` to the reload report.
struct FieldMigration {
    /// In schema order; fields not listed keep the constructor default.
    std::vector<FieldWrite> writes;
    /// What stays parked on the slot afterwards.
    std::vector<FieldSnapshot> parked;
    /// Every field that was not a plain restore (script and className set).
    std::vector<FieldOutcome> outcomes;
};

/// Decides, without touching any runtime, where each of `saved` (the old instance's fields, as
/// snapshotted) and `parked` (values parked on the slot by earlier reloads) goes under
/// `newClass`. `revived`: the slot's class was missing before and is back (no "Added" outcomes
/// then). `usable` says whether a referenced object still exists; references it rejects become
/// null and are reported as Cleared. Nothing is dropped silently: every saved or parked value
/// ends up written, parked, or (for the parked value that a returning same-shape value displaces)
/// named in an outcome. (Parking a value under a name that already has a parked value replaces
/// the older one: the latest value of a name is the one worth keeping.)
[[nodiscard]] FieldMigration migrateFields(ObjectId script, const ScriptClassInfo& newClass,
                                           std::vector<FieldSnapshot> saved,
                                           std::vector<FieldSnapshot> parked, bool revived,
                                           const std::function<bool(ObjectId)>& usable);

/// A [PreserveStatic] field: the value to write (dead references cleared), or why the default
/// is kept (the reload turns that into a warning "static Class.field: <why>; default kept").
[[nodiscard]] Result<Value> migrateStatic(const FieldSnapshot& saved, const FieldInfo& field,
                                          const std::function<bool(ObjectId)>& usable);

/// The outcomes of a direct carry (fields copied instance to instance by the runtime layer):
/// `added` (indices of new fields, ascending) and `cleared` (field index + count of references
/// set to null, ascending by field) merged in field order, with the same texts migrateFields uses,
/// so a reload reports the same whichever path a script took.
[[nodiscard]] std::vector<FieldOutcome>
directCarryOutcomes(ObjectId script, const ScriptClassInfo& newClass,
                    const std::vector<std::size_t>& added,
                    const std::vector<std::pair<std::size_t, std::size_t>>& cleared);

} // namespace scripthost
