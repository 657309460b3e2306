#pragma once
// Reading live scripts into a Snapshot: ScriptHost::snapshot and a reload's swap stage.

#include "host/model/snapshot.hpp"
#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"

#include <string>

namespace scripthost {

class ScriptDomain;

/// Appends `slot`'s [SerializeField] values (read from its instance in `domain`) to
/// `snap.scripts`; fields of a type reloads cannot carry are named once in
/// `snap.notCarried` as "Class.field (Type)".
[[nodiscard]] Result<void> snapshotScript(ScriptDomain& domain, ObjectId slot, ObjectId entity,
                                          const std::string& className, Snapshot& snap);

/// Appends the [PreserveStatic] fields of every class in `domain` that has some to
/// `snap.statics` (initialising each class first, so its static constructor has run).
[[nodiscard]] Result<void> snapshotStatics(ScriptDomain& domain, Snapshot& snap);

/// Records "Class.field (Type)" in `notCarried` unless it is there already.
void noteNotCarried(std::vector<std::string>& notCarried, const std::string& className,
                    const std::string& field);

} // namespace scripthost
