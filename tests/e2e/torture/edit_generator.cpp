#include "edit_generator.hpp"

#include "csharp_writer.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace scripthost::torture {

namespace {

constexpr const char* kClassNames[] = {"Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"};

// The type changes the generator makes: each pair has values that convert and values that
// do not (README.md: numbers that fit exactly, enum <-> member name, enum <-> integer).
std::vector<FieldKind> partnersOf(FieldKind kind) {
    using K = FieldKind;
    switch (kind) {
    case K::Int:
        return {K::Float, K::Long, K::Double, K::Mood};
    case K::Float:
        return {K::Int, K::Double};
    case K::Double:
        return {K::Float, K::Int};
    case K::Long:
        return {K::Int};
    case K::Mood:
        return {K::String, K::Int};
    case K::String:
        return {K::Mood};
    case K::IntArray:
        return {K::IntList};
    case K::IntList:
        return {K::IntArray};
    default:
        return {};
    }
}

std::string fieldText(const FieldDecl& f) {
    return fmt::format("{}{} {} = {}", f.isPublic ? "public " : "", kindLabel(f.kind), f.name,
                       describe(f.kind, f.initial));
}

std::string fileOf(const ClassSource& s) {
    return s.name + ".cs";
}

} // namespace

FieldKind EditGenerator::randomKind() {
    static constexpr FieldKind kinds[] = {
        FieldKind::Int,       FieldKind::Long,        FieldKind::Float,   FieldKind::Double,
        FieldKind::String,    FieldKind::Bool,        FieldKind::Mood,    FieldKind::Vector3,
        FieldKind::EntityRef, FieldKind::ScriptRef,   FieldKind::Int,     FieldKind::Float,
        FieldKind::IntArray,  FieldKind::IntList,     FieldKind::Loadout, FieldKind::LoadoutList,
        FieldKind::Loadout,   FieldKind::TransformRef};
    return kinds[pick(static_cast<int>(std::size(kinds)))];
}

FieldKind EditGenerator::randomMemberKind() {
    static constexpr FieldKind kinds[] = {FieldKind::Int,    FieldKind::Long,   FieldKind::Float,
                                          FieldKind::Double, FieldKind::String, FieldKind::Bool,
                                          FieldKind::Int};
    return kinds[pick(static_cast<int>(std::size(kinds)))];
}

ModelValue EditGenerator::initialValue(FieldKind kind) {
    if (kind == FieldKind::EntityRef || kind == FieldKind::ScriptRef ||
        kind == FieldKind::TransformRef)
        return std::optional<ObjectRef>{}; // C# initialisers cannot name scene objects
    if (kind == FieldKind::Loadout)
        return std::vector<Record>(1); // `new Loadout()`: see initialOf
    if (kind == FieldKind::LoadoutList)
        return std::vector<Record>(static_cast<std::size_t>(pick(3)));
    return randomValue(kind, rng_, static_cast<int>(model_.entityNames.size()), {},
                       editing_ ? *editing_ : *model_.filesTypes);
}

SharedTypes& EditGenerator::editTypes() {
    if (!editing_)
        editing_ = *model_.filesTypes;
    return *editing_;
}

void EditGenerator::createWorld(int classes, int entities) {
    for (int e = 0; e < entities; ++e) {
        model_.entityNames.push_back("E" + std::to_string(e));
        // Some start as children (of an earlier entity, so the scene has no cycle).
        model_.parents.push_back(e > 0 && chance(0.3) ? pick(e) : -1);
    }
    SharedTypes types;
    types.mood = {{"Calm", 0}, {"Happy", 1}, {"Angry", 5}};
    types.loadout = {{"weapon", FieldKind::String, std::string("bow"), {}},
                     {"ammo", FieldKind::Int, std::int64_t{42}, {}}};
    model_.filesTypes = std::make_shared<const SharedTypes>(std::move(types));
    model_.runningTypes = model_.filesTypes;
    for (int c = 0; c < classes; ++c) {
        ClassSource source;
        source.name = kClassNames[c];
        source.marker = nextMarker_++;
        source.coroutine = nextMarker_++;
        source.handler = nextMarker_++;
        const int fields = 3 + pick(3);
        for (int i = 0; i < fields; ++i) {
            const FieldKind kind = randomKind();
            source.fields.push_back({freshName(), kind, initialValue(kind), {}});
            source.fields.back().isPublic = chance(0.4);
        }
        model_.files.push_back(source);
    }
    // Each class on one or two entities (never twice on one), every entity with a script.
    std::vector<std::vector<int>> onEntity(static_cast<std::size_t>(entities));
    for (int c = 0; c < classes; ++c) {
        const int first = c < entities ? c : pick(entities);
        std::vector<int> hosts{first};
        if (chance(0.5)) {
            const int second = pick(entities);
            if (second != first)
                hosts.push_back(second);
        }
        for (int e : hosts)
            onEntity[static_cast<std::size_t>(e)].push_back(c);
    }
    for (int e = 0; e < entities; ++e) {
        if (onEntity[static_cast<std::size_t>(e)].empty())
            onEntity[static_cast<std::size_t>(e)].push_back(pick(classes));
        for (int c : onEntity[static_cast<std::size_t>(e)]) {
            Slot slot;
            slot.entity = e;
            slot.cls = c;
            for (const FieldDecl& f : model_.files[static_cast<std::size_t>(c)].fields)
                slot.values.push_back(
                    {f.name, f.kind, initialOf(f, *model_.filesTypes), model_.filesTypes});
            model_.slots.push_back(std::move(slot));
        }
    }
    model_.running = model_.files;
}

std::vector<int> EditGenerator::presentClasses(bool withoutFaults) const {
    std::vector<int> out;
    for (std::size_t c = 0; c < model_.files.size(); ++c) {
        const ClassSource& s = model_.files[c];
        if (s.present && (!withoutFaults || (!s.syntaxError && !s.throwingCtor)))
            out.push_back(static_cast<int>(c));
    }
    return out;
}

std::string EditGenerator::schemaEdit(std::vector<FieldDecl>& fields, Removed& removed,
                                      bool members) {
    auto find = [&](const std::string& name) {
        return std::ranges::any_of(fields, [&](const FieldDecl& f) { return f.name == name; });
    };
    std::erase_if(removed, [&](const auto& r) { return find(r.first); });
    auto insertAt = [&] { return fields.begin() + pick(static_cast<int>(fields.size()) + 1); };
    // Record members keep to the scalar kinds (the record's partners of a kind among them).
    auto partners = [&](FieldKind kind) {
        std::vector<FieldKind> out = partnersOf(kind);
        if (members)
            std::erase_if(out, [](FieldKind k) { return !isScalar(k); });
        return out;
    };
    const std::string fresh = members ? "r" : "f";
    for (int attempt = 0; attempt < 10; ++attempt) {
        switch (pick(7)) {
        case 0: { // add a field
            const FieldKind kind = members ? randomMemberKind() : randomKind();
            FieldDecl decl{fresh + std::to_string(nextField_++), kind, initialValue(kind), {}};
            decl.isPublic = !members && chance(0.4);
            const std::string text = "add " + fieldText(decl);
            fields.insert(insertAt(), std::move(decl));
            return text;
        }
        case 1: { // remove a field: its value is parked
            if (fields.size() <= 1)
                continue;
            const auto at = fields.begin() + pick(static_cast<int>(fields.size()));
            removed.emplace_back(at->name, at->kind);
            const std::string text = "remove " + fieldText(*at);
            fields.erase(at);
            return text;
        }
        case 2:
        case 3: { // re-add a removed field: same type (parked value back) or another one
            if (removed.empty())
                continue;
            const auto [name, was] =
                removed[static_cast<std::size_t>(pick(static_cast<int>(removed.size())))];
            FieldKind kind = was;
            if (const auto other = partners(was); !other.empty() && chance(0.35))
                kind = other[static_cast<std::size_t>(pick(static_cast<int>(other.size())))];
            FieldDecl decl{name, kind, initialValue(kind), {}};
            decl.isPublic = !members && chance(0.4);
            const std::string text =
                fmt::format("re-add {} (was {})", fieldText(decl), kindLabel(was));
            fields.insert(insertAt(), std::move(decl));
            return text;
        }
        case 4: { // rename, with or without [FormerlySerializedAs]
            if (fields.empty())
                continue;
            FieldDecl& f = fields[static_cast<std::size_t>(pick(static_cast<int>(fields.size())))];
            const std::string old = f.name;
            f.name = fresh + std::to_string(nextField_++);
            const bool former = chance(0.6);
            f.formerNames.clear();
            if (former) {
                f.formerNames.push_back(old);
            } else {
                removed.emplace_back(old, f.kind);
            }
            return fmt::format("rename {} -> {} {}", old, f.name,
                               former ? "with [FormerlySerializedAs]"
                                      : "without [FormerlySerializedAs]");
        }
        default: { // change a field's type
            std::vector<std::size_t> candidates;
            for (std::size_t i = 0; i < fields.size(); ++i) {
                if (!partners(fields[i].kind).empty())
                    candidates.push_back(i);
            }
            if (candidates.empty())
                continue;
            FieldDecl& f = fields[candidates[static_cast<std::size_t>(
                pick(static_cast<int>(candidates.size())))]];
            const auto other = partners(f.kind);
            const FieldKind from = f.kind;
            f.kind = other[static_cast<std::size_t>(pick(static_cast<int>(other.size())))];
            f.initial = initialValue(f.kind);
            f.formerNames.clear();
            return fmt::format("type change {}: {} -> {} (default {})", f.name, kindLabel(from),
                               kindLabel(f.kind), describe(f.kind, f.initial));
        }
        }
    }
    return "";
}

std::string EditGenerator::moodEdit(std::vector<int>& touched) {
    SharedTypes& types = editTypes();
    auto& mood = types.mood;
    // At most 8 members, values from 0 to 15: an unused value is always there.
    auto unusedValue = [&] {
        for (;;) {
            const std::int64_t v = pick(16);
            if (types.moodByValue(v) == nullptr)
                return v;
        }
    };
    for (int attempt = 0; attempt < 10; ++attempt) {
        switch (pick(4)) {
        case 0: { // add a member
            if (mood.size() >= 8)
                continue;
            MoodMember m{"M" + std::to_string(nextField_++), unusedValue()};
            mood.insert(mood.begin() + pick(static_cast<int>(mood.size()) + 1), m);
            return fmt::format("add member {} = {}", m.name, m.value);
        }
        case 1: { // remove a member: values holding it are parked
            if (mood.size() <= 2)
                continue;
            const auto at = mood.begin() + pick(static_cast<int>(mood.size()));
            const MoodMember gone = *at;
            mood.erase(at);
            removedMoods_.push_back(gone);
            // Initialisers naming it name another member (saved before the enum, so every
            // version of the folder builds); also in classes not on disk now.
            for (std::size_t c = 0; c < model_.files.size(); ++c) {
                for (FieldDecl& f : model_.files[c].fields) {
                    if (f.kind == FieldKind::Mood &&
                        std::get<std::string>(f.initial) == gone.name) {
                        f.initial = mood.front().name;
                        if (model_.files[c].present &&
                            std::ranges::find(touched, static_cast<int>(c)) == touched.end())
                            touched.push_back(static_cast<int>(c));
                    }
                }
            }
            return fmt::format("remove member {} = {}", gone.name, gone.value);
        }
        case 2: { // renumber a member: values carry by name
            MoodMember& m = mood[static_cast<std::size_t>(pick(static_cast<int>(mood.size())))];
            const std::int64_t was = m.value;
            m.value = unusedValue();
            return fmt::format("renumber {} from {} to {}", m.name, was, m.value);
        }
        default: { // bring a removed member back (its value parked at removal may return)
            std::erase_if(removedMoods_,
                          [&](const MoodMember& m) { return types.moodByName(m.name) != nullptr; });
            if (removedMoods_.empty() || mood.size() >= 8)
                continue;
            MoodMember m = removedMoods_[static_cast<std::size_t>(
                pick(static_cast<int>(removedMoods_.size())))];
            if (types.moodByValue(m.value) != nullptr || chance(0.3))
                m.value = unusedValue();
            mood.insert(mood.begin() + pick(static_cast<int>(mood.size()) + 1), m);
            return fmt::format("re-add member {} = {}", m.name, m.value);
        }
        }
    }
    return "";
}

Edit EditGenerator::save(std::string kind, std::string description, std::vector<int> classes) {
    Edit edit;
    edit.kind = std::move(kind);
    edit.description = std::move(description);
    for (int c : classes) {
        const ClassSource& s = model_.files[static_cast<std::size_t>(c)];
        edit.saves.push_back({fileOf(s), !s.present, s.present ? classSource(s) : std::string()});
    }
    ++counts_[edit.kind];
    return edit;
}

Edit EditGenerator::saveShared(std::string kind, std::string description, std::vector<int> before,
                               int marker) {
    ClassSource& last = model_.files[static_cast<std::size_t>(marker)];
    last.marker = nextMarker_++;
    Edit edit = save(std::move(kind), std::move(description), std::move(before));
    const SharedTypes& was = *model_.filesTypes;
    if (editing_->mood != was.mood)
        edit.saves.push_back({"Mood.cs", false, moodSource(*editing_)});
    const std::string loadout = loadoutSource(*editing_);
    if (loadout != loadoutSource(was))
        edit.saves.push_back({"Loadout.cs", false, loadout});
    model_.filesTypes = std::make_shared<const SharedTypes>(std::move(*editing_));
    editing_.reset();
    edit.saves.push_back({fileOf(last), false, classSource(last)});
    return edit;
}

Edit EditGenerator::parentEdit() {
    const int count = static_cast<int>(model_.entityNames.size());
    Edit edit;
    edit.kind = "parent";
    edit.slot = pick(count); // the entity
    edit.publisher = chance(0.25) ? -1 : pick(count);
    // A parent that is the entity or lies below it would be a cycle: the root instead.
    for (int p = edit.publisher; p >= 0; p = model_.parents[static_cast<std::size_t>(p)]) {
        if (p == edit.slot) {
            edit.publisher = -1;
            break;
        }
    }
    edit.description =
        edit.publisher < 0
            ? fmt::format("{} becomes a root",
                          model_.entityNames[static_cast<std::size_t>(edit.slot)])
            : fmt::format("{} goes under {}",
                          model_.entityNames[static_cast<std::size_t>(edit.slot)],
                          model_.entityNames[static_cast<std::size_t>(edit.publisher)]);
    ++counts_[edit.kind];
    return edit;
}

Edit EditGenerator::next() {
    const std::vector<int> healthy = presentClasses(true);
    std::vector<int> faulty;
    std::vector<int> missing;
    for (std::size_t c = 0; c < model_.files.size(); ++c) {
        const ClassSource& s = model_.files[c];
        if (s.present && (s.syntaxError || s.throwingCtor))
            faulty.push_back(static_cast<int>(c));
        if (!s.present)
            missing.push_back(static_cast<int>(c));
    }
    auto any = [&](const std::vector<int>& v) {
        return v[static_cast<std::size_t>(pick(static_cast<int>(v.size())))];
    };

    // Faults are fixed after a step or a few.
    if (!faulty.empty() && chance(0.45)) {
        const int c = any(faulty);
        ClassSource& s = model_.files[static_cast<std::size_t>(c)];
        const std::string what = s.syntaxError ? "syntax error" : "throwing constructor";
        s.syntaxError = false;
        s.throwingCtor = false;
        s.marker = nextMarker_++;
        return save("fix", fmt::format("fix the {} in {}", what, s.name), {c});
    }
    for (;;) {
        if (const int shared = pick(130); shared < 30) {
            const std::vector<int> live = model_.liveSlots();
            if (shared < 12) { // the shared types: their members change for every class
                if (!faulty.empty() || healthy.empty())
                    continue;
                std::vector<int> touched;
                const bool mood = shared < 6;
                std::string text = mood ? moodEdit(touched)
                                        : schemaEdit(editTypes().loadout, removedMembers_, true);
                if (text.empty()) {
                    editing_.reset();
                    continue;
                }
                return saveShared(mood ? "enum" : "record", (mood ? "Mood: " : "Loadout: ") + text,
                                  touched, any(healthy));
            }
            if (shared < 18) { // the handler method's name, or the lambda's code
                if (healthy.empty())
                    continue;
                const int c = any(healthy);
                ClassSource& s = model_.files[static_cast<std::size_t>(c)];
                s.marker = nextMarker_++;
                if (shared < 15) {
                    s.handler = nextMarker_++;
                    return save("handler",
                                fmt::format("{}: the handler is now OnBeat{}", s.name, s.handler),
                                {c});
                }
                s.lambda = s.lambda % 5 + 2;
                return save("lambda", fmt::format("{}: the lambda adds n * {}", s.name, s.lambda),
                            {c});
            }
            // Subscribe a script's handler to an event (or remove one), through the scripts'
            // own code: the test sets `peer` and `subscribe`, Update does the rest.
            if (live.empty())
                continue;
            Edit edit;
            edit.kind = "subscribe";
            edit.slot = any(live);
            edit.publisher = any(live);
            const ClassSource& cls = model_.running[static_cast<std::size_t>(
                model_.slots[static_cast<std::size_t>(edit.slot)].cls)];
            const Subscription method{edit.publisher, edit.slot, false, cls.handler};
            const auto handlers = model_.handlersOf(edit.publisher);
            if (std::ranges::find(handlers, method) != handlers.end() && chance(0.3))
                edit.mode = -1;
            else if (handlers.size() >= 6)
                continue;
            else
                edit.mode = chance(0.3) ? 2 : 1;
            edit.description =
                fmt::format("slot {} {} slot {}'s Beat", edit.slot,
                            edit.mode == -1 ? "unsubscribes OnBeat from"
                                            : (edit.mode == 1 ? "subscribes OnBeat to"
                                                              : "subscribes a lambda to"),
                            edit.publisher);
            ++counts_[edit.kind];
            return edit;
        }
        const int roll = pick(100);
        if (roll < 3 && model_.entityNames.size() >= 2)
            return parentEdit();
        if (roll < 6) { // the coroutine's body: a reload restarts it in the new code
            if (healthy.empty())
                continue;
            const int c = any(healthy);
            ClassSource& s = model_.files[static_cast<std::size_t>(c)];
            s.coroutine = nextMarker_++;
            s.marker = nextMarker_++;
            return save("coroutine", fmt::format("{}: Pulse writes pulse {}", s.name, s.coroutine),
                        {c});
        }
        if (roll < 14) { // a method body: Update writes another marker (Pulse is resumed)
            if (healthy.empty() && faulty.empty())
                continue;
            const int c = healthy.empty() ? any(faulty) : any(healthy);
            ClassSource& s = model_.files[static_cast<std::size_t>(c)];
            s.marker = nextMarker_++;
            return save("body", fmt::format("{}: Update writes marker {}", s.name, s.marker), {c});
        }
        if (roll < 52) { // a schema edit
            const std::vector<int> present = presentClasses(false);
            if (present.empty())
                continue;
            const int c = any(present);
            ClassSource& s = model_.files[static_cast<std::size_t>(c)];
            std::string text = schemaEdit(s.fields, removed_[c], false);
            if (text.empty())
                continue;
            s.marker = nextMarker_++;
            return save("schema", s.name + ": " + text, {c});
        }
        if (roll < 66) { // set a field through the control socket
            const std::vector<int> live = model_.liveSlots();
            std::vector<int> withFields;
            for (int slot : live) {
                if (!model_.slots[static_cast<std::size_t>(slot)].values.empty())
                    withFields.push_back(slot);
            }
            if (withFields.empty())
                continue;
            Edit edit;
            edit.kind = "set";
            edit.slot = any(withFields);
            const Slot& slot = model_.slots[static_cast<std::size_t>(edit.slot)];
            // Script references are set more often than their share: they are what a
            // class's removal clears.
            std::vector<std::size_t> refs;
            for (std::size_t i = 0; i < slot.values.size(); ++i) {
                if (slot.values[i].kind == FieldKind::ScriptRef)
                    refs.push_back(i);
            }
            const std::size_t at =
                !refs.empty() && chance(0.4)
                    ? refs[static_cast<std::size_t>(pick(static_cast<int>(refs.size())))]
                    : static_cast<std::size_t>(pick(static_cast<int>(slot.values.size())));
            const SavedField& f = slot.values[at];
            edit.field = f.name;
            edit.value = randomValue(f.kind, rng_, static_cast<int>(model_.entityNames.size()),
                                     live, *model_.runningTypes);
            edit.description = fmt::format("set {} on {} (slot {}) = {}", f.name,
                                           model_.running[static_cast<std::size_t>(slot.cls)].name,
                                           edit.slot, describe(f.kind, edit.value));
            ++counts_[edit.kind];
            return edit;
        }
        if (roll < 73) { // remove a class
            if (healthy.size() < 2)
                continue;
            const int c = any(healthy);
            model_.files[static_cast<std::size_t>(c)].present = false;
            return save("remove-class",
                        "delete " + model_.files[static_cast<std::size_t>(c)].name + ".cs", {c});
        }
        if (roll < 82) { // restore a class
            if (missing.empty())
                continue;
            const int c = any(missing);
            ClassSource& s = model_.files[static_cast<std::size_t>(c)];
            s.present = true;
            s.marker = nextMarker_++;
            return save("restore-class", "restore " + s.name + ".cs", {c});
        }
        if (roll < 87) { // a syntax error
            if (healthy.empty() || faulty.size() >= 2)
                continue;
            const int c = any(healthy);
            ClassSource& s = model_.files[static_cast<std::size_t>(c)];
            s.syntaxError = true;
            s.marker = nextMarker_++;
            return save("syntax-error", s.name + ": a syntax error", {c});
        }
        if (roll < 91) { // a constructor that throws
            if (healthy.empty() || faulty.size() >= 2)
                continue;
            const int c = any(healthy);
            ClassSource& s = model_.files[static_cast<std::size_t>(c)];
            s.throwingCtor = true;
            s.marker = nextMarker_++;
            return save("throwing-ctor", s.name + ": the constructor throws", {c});
        }
        // A burst: several saves of one file within a few ms. The versions before the last
        // only change Update's marker; the last one also changes the fields.
        if (!faulty.empty() || healthy.empty())
            continue;
        const int c = any(healthy);
        ClassSource& s = model_.files[static_cast<std::size_t>(c)];
        const int saves = 3 + pick(4);
        std::vector<std::string> versions;
        for (int i = 0; i + 1 < saves; ++i) {
            s.marker = nextMarker_++;
            versions.push_back(classSource(s));
        }
        const std::string text = schemaEdit(s.fields, removed_[c], false);
        s.marker = nextMarker_++;
        Edit edit =
            save("burst", fmt::format("{}: {} saves, the last: {}", s.name, saves, text), {c});
        std::vector<Edit::Save> all;
        for (std::string& v : versions)
            all.push_back({fileOf(s), false, std::move(v)});
        all.push_back(edit.saves.back());
        edit.saves = std::move(all);
        return edit;
    }
}

} // namespace scripthost::torture
