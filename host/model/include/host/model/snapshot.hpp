#pragma once
// Snapshot: every script's saved state, outside any app domain.

#include "host/model/value.hpp"
#include "scripthost/game/object_id.hpp"

#include <string>
#include <vector>

namespace scripthost {

/// One saved field: its name, its type when saved, and its value.
struct FieldSnapshot {
    std::string name;
    FieldType type;
    Value value;
};

/// One script slot's saved state.
struct ScriptSnapshot {
    ObjectId script;
    ObjectId entity;
    std::string className;
    std::vector<FieldSnapshot> fields;
};

/// The [PreserveStatic] fields of one class.
struct StaticSnapshot {
    std::string className;
    std::vector<FieldSnapshot> fields;
};

/// What a reload carries from one generation to the next: every script in world order
/// (entities in creation order, each entity's scripts in the order added) and the
/// preserved statics. Ids are the world's, so references stay valid.
struct Snapshot {
    std::vector<ScriptSnapshot> scripts;
    std::vector<StaticSnapshot> statics;
    /// [SerializeField] fields of a type the host cannot carry yet ("Class.field (Type)"):
    /// they restart from their defaults, and the reload report says so.
    std::vector<std::string> notCarried;
};

} // namespace scripthost
