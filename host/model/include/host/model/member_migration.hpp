#pragma once
// The reload's rules for a [Serializable] record (struct or class) whose type changed shape:
// carried member by member, like a script's fields are (field_migration.hpp). Pure decisions
// on plain data, no runtime.
//
// A record member is named by its path from the script's field: "loadout.weapon", a nested
// record's member "loadout.inner.hp", a list or array element's member "loadouts[2].weapon".
// A removed member's value is parked on the slot under that path (beside the parked fields,
// whose names never hold '.' or '['), and comes back when a member of that path (or of a
// [FormerlySerializedAs] name at that place) returns. A gained member without a parked value
// is KeepDefault: the runtime keeps what the new code constructs there.

#include "host/model/reload_report.hpp"
#include "host/model/script_class_info.hpp"
#include "host/model/snapshot.hpp"
#include "host/model/value.hpp"
#include "scripthost/game/error.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

/// Records one member's outcome: `path` is the member's path, the rest as in FieldOutcome.
using MemberNote =
    std::function<void(const std::string& path, FieldOutcome::Kind kind, std::string detail)>;

/// "<parent>.<member>", the path of a record member.
[[nodiscard]] std::string memberPath(std::string_view parent, std::string_view member);
/// "<parent>[<index>]", the path of a list or array element.
[[nodiscard]] std::string elementPath(std::string_view parent, std::size_t index);

/// Whether a value of `from` becomes a `to` member by member (both records, or arrays/lists of
/// records) rather than by convertValue: then the member outcomes say what happened, and no
/// "converted" outcome is due for the whole.
[[nodiscard]] bool migratesByMember(const FieldType& from, const FieldType& to);

/// `value`, saved as `from`, as a value of `to` for the field or member at `path`. Records go
/// member by member, by name or [FormerlySerializedAs] name; each member converts like a field
/// (convertValue) or, when it cannot, keeps its default with its old value parked; a member the
/// new type lacks is parked under its path; a gained member takes the value parked under its
/// path, else KeepDefault. Lists and arrays go element by element (element paths). Other
/// values go through convertValue. Takes from and adds to `parked` (a newer value of a path
/// replaces an older one), and calls `note` for every member that was not a plain carry.
/// An error when the value as a whole cannot become `to` (a record that became a number, a
/// null class that became a struct, a list element that does not fit): then neither `parked`
/// nor `note` have been touched, and the caller keeps the default and parks the whole value.
[[nodiscard]] Result<Value> migrateValue(const std::string& path, const Value& value,
                                         const FieldType& from, const FieldType& to,
                                         std::vector<FieldSnapshot>& parked,
                                         const MemberNote& note);

/// The member at `path` (relative to a field: "" is the field itself, ".a[1].b" a member of
/// an element of its member a) inside `value`, a value of `type`; null when there is none.
[[nodiscard]] const Value* valueAtPath(const Value& value, const FieldType& type,
                                       std::string_view path);

/// Completes the "added" outcomes of gained record members with the default the new code
/// constructed, once the writes are done: `read` gives a field's value as the new instance
/// now holds it. ("new member: default kept" becomes "new member: default 2.5 kept".)
/// Outcomes of whole fields, and fields `read` cannot give, are left as they are.
void describeKeptDefaults(std::vector<FieldOutcome>& outcomes, const ScriptClassInfo& newClass,
                          const std::function<Result<Value>(const FieldInfo& field)>& read);

} // namespace scripthost
