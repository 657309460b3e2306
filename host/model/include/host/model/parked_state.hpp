#pragma once
// ParkedState: what a reload could not put into live script instances, kept on the world's
// script slots until the code it fits comes back.

#include "host/model/snapshot.hpp"
#include "scripthost/game/object_id.hpp"

#include <unordered_map>
#include <vector>

namespace scripthost {

/// Values no generation holds right now. A reload never drops a value silently: a slot whose
/// class disappeared keeps its whole saved state here, and a live slot keeps the values of
/// fields that were removed or could not convert. Both come back when the class (or the
/// field, or its old type) returns. Owned by ScriptHost; a reload stages a copy and swaps it
/// in only when it commits, so a rollback leaves it untouched.
struct ParkedState {
    /// Slots whose class is missing from the current generation, with their saved state.
    std::unordered_map<ObjectId, ScriptSnapshot> scripts;
    /// Values parked on live slots (fields that vanished or did not convert).
    std::unordered_map<ObjectId, std::vector<FieldSnapshot>> fields;

    /// Forgets everything parked for `script` (the slot was destroyed).
    void forget(ObjectId script) {
        scripts.erase(script);
        fields.erase(script);
    }
};

} // namespace scripthost
