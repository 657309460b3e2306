#include "world_model.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>

namespace scripthost::torture {

namespace {

std::optional<std::size_t> at(const std::vector<SavedField>& fields, const std::string& name) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].name == name)
            return i;
    }
    return std::nullopt;
}

SavedField* find(std::vector<SavedField>& fields, const std::string& name) {
    const auto i = at(fields, name);
    return i ? &fields[*i] : nullptr;
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

SavedField takeAt(std::vector<SavedField>& fields, std::size_t i) {
    SavedField taken = std::move(fields[i]);
    fields.erase(fields.begin() + static_cast<std::ptrdiff_t>(i));
    return taken;
}

bool sameShape(const SavedField& value, FieldKind kind, const SharedTypes& types) {
    return torture::sameShape(value.kind, *value.types, kind, types);
}

// A Loadout saved with `from` as a Loadout of `to`, member by member (README.md "Hot reload",
// records): a member still there keeps its value (by name or [FormerlySerializedAs] name),
// converting like a field or keeping its default with the old value parked under its old
// path; a removed member is parked under its path; a gained member takes the value parked
// under its path, else its initialiser (what `new Loadout()` puts there).
Record migrateRecord(const std::string& path, const Record& record, const TypesRef& from,
                     const TypesRef& to, std::vector<SavedField>& parked, ReloadTally& tally) {
    const auto& old = from->loadout;
    std::vector<bool> taken(old.size(), false);
    auto findOld = [&](const std::string& name) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < old.size(); ++i) {
            if (!taken[i] && old[i].name == name)
                return i;
        }
        return std::nullopt;
    };
    Record out;
    for (const FieldDecl& now : to->loadout) {
        const std::string memberPath = path + "." + now.name;
        std::optional<std::size_t> was = findOld(now.name);
        for (std::size_t i = 0; !was && i < now.formerNames.size(); ++i)
            was = findOld(now.formerNames[i]);
        if (!was) {
            std::optional<std::size_t> back = at(parked, memberPath);
            for (std::size_t i = 0; !back && i < now.formerNames.size(); ++i)
                back = at(parked, path + "." + now.formerNames[i]);
            if (!back) {
                out.members.push_back(now.initial);
                continue;
            }
            SavedField returning = takeAt(parked, *back);
            if (auto v =
                    convert(returning.value, returning.kind, *returning.types, now.kind, *to)) {
                out.members.push_back(std::move(*v));
                ++tally.membersUnparked;
            } else {
                park(parked, std::move(returning));
                out.members.push_back(now.initial);
            }
            continue;
        }
        taken[*was] = true;
        const FieldDecl& before = old[*was];
        const ModelValue& saved = record.members.at(*was);
        if (before.kind != now.kind) {
            // A value parked when the member's type changed comes back when it changes back.
            if (auto back = at(parked, memberPath); back && parked[*back].kind == now.kind) {
                out.members.push_back(takeAt(parked, *back).value);
                ++tally.membersUnparked;
                continue;
            }
        }
        if (auto v = convert(saved, before.kind, *from, now.kind, *to)) {
            out.members.push_back(std::move(*v));
        } else {
            park(parked, {path + "." + before.name, before.kind, saved, from});
            ++tally.membersParked;
            out.members.push_back(now.initial);
        }
    }
    for (std::size_t i = 0; i < old.size(); ++i) {
        if (!taken[i]) {
            park(parked, {path + "." + old[i].name, old[i].kind, record.members.at(i), from});
            ++tally.membersParked;
        }
    }
    ++tally.membersMigrated;
    return out;
}

// `value` as a value of the field `decl` under `to`; nullopt when it does not fit.
std::optional<ModelValue> carry(const SavedField& value, const FieldDecl& decl, const TypesRef& to,
                                std::vector<SavedField>& parked, ReloadTally& tally) {
    if (sameShape(value, decl.kind, *to))
        return value.value;
    if (value.kind == FieldKind::Loadout && decl.kind == FieldKind::Loadout) {
        return std::vector<Record>{migrateRecord(decl.name,
                                                 std::get<std::vector<Record>>(value.value).at(0),
                                                 value.types, to, parked, tally)};
    }
    if (value.kind == FieldKind::LoadoutList && decl.kind == FieldKind::LoadoutList) {
        std::vector<Record> out;
        const auto& items = std::get<std::vector<Record>>(value.value);
        for (std::size_t i = 0; i < items.size(); ++i)
            out.push_back(migrateRecord(fmt::format("{}[{}]", decl.name, i), items[i], value.types,
                                        to, parked, tally));
        return out;
    }
    return convert(value.value, value.kind, *value.types, decl.kind, *to);
}

// One slot across a reload, README.md "Hot reload" step 3 and the parking rules.
void reloadSlot(Slot& slot, const ClassSource& now, const TypesRef& types, ReloadTally& tally) {
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
        if (source != nullptr && !sameShape(*source, decl.kind, *types)) {
            if (SavedField* back = find(parked, decl.name);
                back != nullptr && sameShape(*back, decl.kind, *types)) {
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
            values.push_back({decl.name, decl.kind, initialOf(decl, *types), types});
            ++tally.added;
            continue;
        }
        SavedField consumed = std::move(*source);
        from->erase(from->begin() + (source - from->data()));
        const bool sameType = sameShape(consumed, decl.kind, *types);
        if (auto converted = carry(consumed, decl, types, parked, tally)) {
            values.push_back({decl.name, decl.kind, std::move(*converted), types});
            ++(!sameType  ? tally.converted
               : unparked ? tally.unparked
               : renamed  ? tally.renamed
                          : tally.carried);
        } else {
            park(parked, std::move(consumed));
            values.push_back({decl.name, decl.kind, initialOf(decl, *types), types});
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
        reloadSlot(slot, files[static_cast<std::size_t>(slot.cls)], filesTypes, tally);
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
    // Every handler on a live script's event is rebound when both scripts are still live and
    // the handler's method is unchanged (a lambda: its code), else dropped.
    lastCarry.clear();
    std::vector<Subscription> kept;
    for (const Subscription& sub : subscriptions) {
        const Slot& subscriber = slots[static_cast<std::size_t>(sub.subscriber)];
        const ClassSource& cls = files[static_cast<std::size_t>(subscriber.cls)];
        const bool rebound = slots[static_cast<std::size_t>(sub.publisher)].live &&
                             subscriber.live &&
                             (sub.lambda ? cls.lambda : cls.handler) == sub.version;
        lastCarry.emplace_back(sub, rebound);
        ++(rebound ? tally.delegatesRebound : tally.delegatesDropped);
        if (rebound)
            kept.push_back(sub);
    }
    subscriptions = std::move(kept);
    running = files;
    runningTypes = filesTypes;
}

std::vector<Subscription> WorldModel::handlersOf(int publisher) const {
    std::vector<Subscription> out;
    for (const Subscription& s : subscriptions) {
        if (s.publisher == publisher)
            out.push_back(s);
    }
    return out;
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
