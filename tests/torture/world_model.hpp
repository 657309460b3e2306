#pragma once
// The torture test's model of the scripts folder and of the running host: which code is
// on disk, which code the host runs, and what every field of every script holds. A reload
// is replayed here from README.md's rules ("Hot reload") on the model's own edit log.

#include "field_model.hpp"

#include <map>
#include <string>
#include <vector>

namespace scripthost::torture {

/// One `[SerializeField]` field of a class as the source declares it.
struct FieldDecl {
    std::string name;
    FieldKind kind = FieldKind::Int;
    ModelValue initial;                   ///< the initialiser (the constructor default)
    std::vector<std::string> formerNames; ///< [FormerlySerializedAs]
};

/// A script class as one source file declares it.
struct ClassSource {
    std::string name; ///< short name; the namespace is `Torture`
    bool present = true;
    int marker = 0;    ///< Update writes it into the `marker` field
    int coroutine = 0; ///< the coroutine Pulse (started in Initialize) writes it into `pulse`
    bool syntaxError = false;      ///< the file does not compile
    bool throwingCtor = false;     ///< the constructor throws (the reload rolls back)
    std::vector<FieldDecl> fields; ///< in declaration order (after `marker`)

    [[nodiscard]] const FieldDecl* field(const std::string& fieldName) const;
};

/// A field's saved value with the type it had (live, parked, or in a parked script).
struct SavedField {
    std::string name;
    FieldKind kind;
    ModelValue value;
};

/// One script instance on an entity, stable across reloads.
struct Slot {
    int entity = 0;
    int cls = 0;                    ///< index into the classes
    bool live = true;               ///< false: its class is missing, the slot is parked
    std::vector<SavedField> values; ///< live: the fields of the running class; parked: as saved
    std::vector<SavedField> parked; ///< values parked on the slot
};

/// What the model's reloads did, summed (to show which rules a run exercised).
struct ReloadTally {
    int carried = 0, renamed = 0, converted = 0, notConverted = 0, unparked = 0,
        unparkedAtTypeChange = 0, added = 0, parkedRemoved = 0, scriptsParked = 0,
        scriptsRevived = 0, referencesCleared = 0;
};

class WorldModel {
public:
    ReloadTally tally;
    std::vector<std::string> entityNames;
    std::vector<ClassSource> files;   ///< what the scripts folder holds now
    std::vector<ClassSource> running; ///< what the host runs (the last good reload)
    std::vector<Slot> slots;

    /// Whether the files as they are now build and load (no syntax error, no constructor
    /// that throws in a class with instances).
    [[nodiscard]] bool filesLoad() const;
    /// A successful reload from `running` to `files`, replayed on every slot.
    void reload();
    /// Slots whose class is live.
    [[nodiscard]] std::vector<int> liveSlots() const;
    /// The model's value of a live slot's field, or null.
    [[nodiscard]] SavedField* value(int slot, const std::string& field);
    /// Every marker Update writes, per slot (live slots only).
    [[nodiscard]] int markerOf(int slot) const {
        return running[static_cast<std::size_t>(slots[static_cast<std::size_t>(slot)].cls)].marker;
    }
};

} // namespace scripthost::torture
