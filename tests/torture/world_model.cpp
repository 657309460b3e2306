#include "world_model.hpp"

#include <algorithm>

namespace scripthost::torture {

namespace {

SavedField* find(std::vector<SavedField>& fields, const std::string& name) {
    for (SavedField& f : fields) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

void erase(std::vector<SavedField>& fields, const std::string& name) {
    std::erase_if(fields, [&](const SavedField& f) { return f.name == name; });
}

// A value that cannot be carried is parked on its slot (a newer one replaces an older one
// of the same name).
void park(std::vector<SavedField>& parked, SavedField field) {
    erase(parked, field.name);
    parked.push_back(std::move(field));
}

// One slot across a reload, README.md "Hot reload" step 3 and the parking rules.
void reloadSlot(Slot& slot, const ClassSource& now, ReloadTally& tally) {
    if (!now.present) {
        tally.scriptsParked += slot.live ? 1 : 0;
        slot.live = false; // its values stay as they were, parked with the slot
        return;
    }
    tally.scriptsRevived += slot.live ? 0 : 1;
    std::vector<SavedField> pool = std::move(slot.values);
    std::vector<SavedField> parked = std::move(slot.parked);
    std::vector<SavedField> values;
    for (const FieldDecl& decl : now.fields) {
        SavedField* source = find(pool, decl.name);
        bool renamed = false, unparked = false;
        if (source == nullptr) {
            for (const std::string& former : decl.formerNames) {
                if ((source = find(pool, former)) != nullptr) {
                    renamed = true;
                    break;
                }
            }
        }
        // A value parked at a type change comes back when the type changes back, in
        // preference to the value the field held meanwhile.
        if (source != nullptr && source->kind != decl.kind) {
            if (SavedField* back = find(parked, decl.name);
                back != nullptr && back->kind == decl.kind) {
                SavedField restored = *back;
                erase(pool, decl.name);
                erase(parked, decl.name);
                pool.push_back(std::move(restored));
                source = find(pool, decl.name);
                ++tally.unparkedAtTypeChange;
                unparked = true;
            }
        }
        std::vector<SavedField>* from = &pool;
        if (source == nullptr) {
            std::vector<std::string> names{decl.name};
            names.insert(names.end(), decl.formerNames.begin(), decl.formerNames.end());
            for (const std::string& name : names) {
                if ((source = find(parked, name)) != nullptr) {
                    from = &parked;
                    unparked = true;
                    break;
                }
            }
        }
        if (source == nullptr) {
            values.push_back({decl.name, decl.kind, decl.initial});
            ++tally.added;
            continue;
        }
        SavedField consumed = std::move(*source);
        from->erase(from->begin() + (source - from->data()));
        const FieldKind was = consumed.kind;
        if (auto converted = convert(consumed.value, consumed.kind, decl.kind)) {
            values.push_back({decl.name, decl.kind, std::move(*converted)});
            ++(was != decl.kind ? tally.converted
               : unparked       ? tally.unparked
               : renamed        ? tally.renamed
                                : tally.carried);
        } else {
            park(parked, std::move(consumed));
            values.push_back({decl.name, decl.kind, decl.initial});
            ++tally.notConverted;
        }
    }
    for (SavedField& gone : pool) {
        park(parked, std::move(gone));
        ++tally.parkedRemoved;
    }
    slot.values = std::move(values);
    slot.parked = std::move(parked);
    slot.live = true;
}

} // namespace

const FieldDecl* ClassSource::field(const std::string& fieldName) const {
    for (const FieldDecl& f : fields) {
        if (f.name == fieldName)
            return &f;
    }
    return nullptr;
}

bool WorldModel::filesLoad() const {
    for (const ClassSource& c : files) {
        if (c.present && (c.syntaxError || c.throwingCtor))
            return false;
    }
    return true;
}

void WorldModel::reload() {
    for (Slot& slot : slots)
        reloadSlot(slot, files[static_cast<std::size_t>(slot.cls)], tally);
    // References to scripts whose class went missing are set to null in live scripts
    // (parked values keep theirs until they come back).
    for (Slot& slot : slots) {
        if (!slot.live)
            continue;
        for (SavedField& f : slot.values) {
            if (f.kind != FieldKind::ScriptRef)
                continue;
            auto& ref = std::get<std::optional<ObjectRef>>(f.value);
            if (ref && !slots[static_cast<std::size_t>(ref->index)].live) {
                ref.reset();
                ++tally.referencesCleared;
            }
        }
    }
    running = files;
}

std::vector<int> WorldModel::liveSlots() const {
    std::vector<int> live;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        if (slots[i].live)
            live.push_back(static_cast<int>(i));
    }
    return live;
}

SavedField* WorldModel::value(int slot, const std::string& field) {
    return find(slots[static_cast<std::size_t>(slot)].values, field);
}

} // namespace scripthost::torture
