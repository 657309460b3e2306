#pragma once
// Seeded random edits of the torture test's scripts folder, applied to the model's files.

#include "world_model.hpp"

#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace scripthost::torture {

/// One step: what changed, in words, and which files to write (or delete) and how.
struct Edit {
    std::string kind;        ///< "body", "schema", …, "set", "subscribe", "burst"
    std::string description; ///< for failure messages: class, field, types and values
    /// Saves in order: the file (in the scripts folder) and whether it is deleted. A burst
    /// saves one file several times; `saves` then holds each intermediate version's source.
    struct Save {
        std::string file; ///< "Alpha.cs", "Mood.cs", …
        bool remove = false;
        std::string text; ///< the file's content (empty when removed)
    };
    std::vector<Save> saves;
    /// For "set": the slot, field and value to send. For "subscribe": the subscribing slot.
    int slot = -1;
    std::string field;
    ModelValue value;
    /// For "subscribe": whose event, and `subscribe`'s value (1 the method, 2 a lambda, -1
    /// remove the method).
    int publisher = -1;
    int mode = 0;
};

class EditGenerator {
public:
    EditGenerator(WorldModel& model, std::mt19937& rng) : model_(model), rng_(rng) {}

    /// The initial classes, entities and slots (and their initial values).
    void createWorld(int classes, int entities);

    /// Picks and applies one edit to `model.files` (a "set" changes nothing yet: the
    /// caller sends it and then updates the model).
    Edit next();

    /// Counts of each edit kind so far.
    [[nodiscard]] const std::map<std::string, int>& counts() const { return counts_; }

private:
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    FieldKind randomKind();
    FieldKind randomMemberKind();
    ModelValue initialValue(FieldKind kind);
    std::string freshName() { return "f" + std::to_string(nextField_++); }
    std::vector<int> presentClasses(bool withoutFaults) const;
    using Removed = std::vector<std::pair<std::string, FieldKind>>;
    /// A schema edit on `fields` (a class's or the record's: add, remove, re-add, rename
    /// with/without former name, type change), applied to the files; its description, or
    /// empty if none applies. `removed`: names removed before, to re-add.
    std::string schemaEdit(std::vector<FieldDecl>& fields, Removed& removed, bool members);
    /// An edit of the enum's members (add, remove, renumber, re-add): the files, in an order
    /// in which each save builds; its description.
    std::string moodEdit(std::vector<int>& touched);
    Edit save(std::string kind, std::string description, std::vector<int> classes);
    /// An entity moved under another (never one below it) or to the root, through the control
    /// socket; the hierarchy must come through every later reload as the model holds it.
    Edit parentEdit();
    /// Adds the saves of the shared type files and then of `marker`'s class (whose new
    /// marker tells when the host runs the whole edit).
    Edit saveShared(std::string kind, std::string description, std::vector<int> before, int marker);
    /// The next shared types: a copy of the folder's to edit, installed by `saveShared`.
    SharedTypes& editTypes();

    WorldModel& model_;
    std::mt19937& rng_;
    int nextField_ = 0;
    int nextMarker_ = 1;
    std::map<int, Removed> removed_; ///< per class
    Removed removedMembers_;         ///< of the record
    std::vector<MoodMember> removedMoods_;
    std::optional<SharedTypes> editing_;
    std::map<std::string, int> counts_;
};

} // namespace scripthost::torture
