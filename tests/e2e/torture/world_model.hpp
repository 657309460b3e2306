#pragma once
// The torture test's model of the scripts folder and of the running host: which code is
// on disk, which code the host runs, and what every field of every script holds. A reload
// is replayed here from README.md's rules ("Hot reload") on the model's own edit log.

#include "field_model.hpp"

#include <map>
#include <string>
#include <vector>

namespace scripthost::torture {

/// A script class as one source file declares it.
struct ClassSource {
    std::string name; ///< short name; the namespace is `Torture`
    bool present = true;
    int marker = 0;    ///< Update writes it into the `marker` field
    int coroutine = 0; ///< the coroutine Pulse (started in Initialize) writes it into `pulse`
    int handler = 0;   ///< the event handler's name is `OnBeat<handler>`
    int lambda = 1;    ///< the lambda handler adds `n * lambda` to `heard`
    bool syntaxError = false;      ///< the file does not compile
    bool throwingCtor = false;     ///< the constructor throws (the reload rolls back)
    std::vector<FieldDecl> fields; ///< in declaration order (after `marker`)

    [[nodiscard]] const FieldDecl* field(const std::string& fieldName) const;
};

/// A field's saved value with the type it had (live, parked, or in a parked script). A
/// record member parked on its own is named by its path (`loadout.ammo`, `loads[1].ammo`).
struct SavedField {
    std::string name;
    FieldKind kind;
    ModelValue value;
    TypesRef types; ///< the shared types as they were when the value was saved
};

/// One handler on a script's event `Beat`, in subscription order.
struct Subscription {
    int publisher = 0;  ///< the slot whose event it is
    int subscriber = 0; ///< the slot whose method handles it
    bool lambda = false;
    int version = 0; ///< the subscriber class's `handler` (or `lambda`) when it subscribed
    bool operator==(const Subscription&) const = default;
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
        scriptsRevived = 0, referencesCleared = 0, membersMigrated = 0, membersParked = 0,
        membersUnparked = 0, delegatesRebound = 0, delegatesDropped = 0;
};

class WorldModel {
public:
    ReloadTally tally;
    std::vector<std::string> entityNames;
    std::vector<int> parents;         ///< each entity's parent (an entity index), -1 for a root
    std::vector<ClassSource> files;   ///< what the scripts folder holds now
    std::vector<ClassSource> running; ///< what the host runs (the last good reload)
    TypesRef filesTypes;              ///< `Mood.cs` and `Loadout.cs` as the folder holds them
    TypesRef runningTypes;            ///< and as the host runs them
    std::vector<Slot> slots;
    std::vector<Subscription> subscriptions; ///< every event handler, in subscription order
    /// What the last reload did to each subscription before it: rebound (kept) or dropped.
    std::vector<std::pair<Subscription, bool>> lastCarry;

    /// Whether the files as they are now build and load (no syntax error, no constructor
    /// that throws in a class with instances).
    [[nodiscard]] bool filesLoad() const;
    /// A successful reload from `running` to `files`, replayed on every slot and event.
    void reload();
    /// The handlers on `publisher`'s event, in order.
    [[nodiscard]] std::vector<Subscription> handlersOf(int publisher) const;
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
