#pragma once
// Seeded random edits of the torture test's scripts folder, applied to the model's files.

#include "world_model.hpp"

#include <map>
#include <random>
#include <string>
#include <vector>

namespace scripthost::torture {

/// One step: what changed, in words, and which files to write (or delete) and how.
struct Edit {
    std::string kind;        ///< "body", "add-field", …, "set", "burst"
    std::string description; ///< for failure messages: class, field, types and values
    /// Saves in order: class index and whether it is deleted. A burst saves one file several
    /// times; `saves` then holds each intermediate version's source.
    struct Save {
        int cls = 0;
        bool remove = false;
        std::string text; ///< the file's content (empty when removed)
    };
    std::vector<Save> saves;
    /// For "set": the slot, field and value to send.
    int slot = -1;
    std::string field;
    ModelValue value;
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
    ModelValue initialValue(FieldKind kind);
    std::string freshName() { return "f" + std::to_string(nextField_++); }
    std::vector<int> presentClasses(bool withoutFaults) const;
    /// A schema edit on class `c` (add, remove, re-add, rename with/without former name,
    /// type change), applied to the files; its description, or empty if none applies.
    std::string schemaEdit(int c);
    Edit save(std::string kind, std::string description, std::vector<int> classes);

    WorldModel& model_;
    std::mt19937& rng_;
    int nextField_ = 0;
    int nextMarker_ = 1;
    std::map<int, std::vector<std::pair<std::string, FieldKind>>> removed_; ///< per class
    std::map<std::string, int> counts_;
};

} // namespace scripthost::torture
