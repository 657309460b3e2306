// ScriptHost's native scripts: making them, and moving them to another build of the game
// module's classes (a module reload) with the reload's migration rules.
#include "host/engine/script_host.hpp"
#include "host/model/field_migration.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace scripthost {

std::string NativeScriptCarry::describe() const {
    std::string text = fmt::format("{} native script(s) carried", carried);
    if (revived > 0)
        text += fmt::format(", {} revived", revived);
    if (parked > 0)
        text += fmt::format(", {} parked (their class is gone)", parked);
    for (const FieldOutcome& o : outcomes)
        text += fmt::format("; {}.{} {}: {}", o.className, o.field, outcomeName(o.kind), o.detail);
    for (const std::string& p : problems)
        text += "; " + p;
    return text;
}

std::string ScriptHost::nativeClassName(std::string_view name) const {
    if (natives_.classes().empty() || name.empty())
        return {};
    std::string found;
    for (const game::NativeScriptClassInfo* c : natives_.classes()) {
        if (c->name == name)
            return c->name;
        const std::string_view full = c->name;
        if (full.size() > name.size() && full.ends_with(name) &&
            full[full.size() - name.size() - 1] == '.') {
            if (!found.empty())
                return {}; // ambiguous: the caller reports the class as unknown
            found = c->name;
        }
    }
    return found;
}

Result<ObjectId> ScriptHost::makeNativeScript(ObjectId entity, const std::string& className,
                                              const nlohmann::json& fields,
                                              const RefResolver& resolve) {
    if (world_.entity(entity) == nullptr)
        return fail("entity " + entity.toString() + " does not exist");
    auto slot = world_.addScript(entity, className);
    if (!slot)
        return std::unexpected(slot.error());
    world_.script(*slot)->native = true;
    if (auto made = natives_.create(*slot, entity, className); !made) {
        world_.destroy(*slot);
        return std::unexpected(made.error());
    }
    if (auto written = writeSceneFields(*slot, *natives_.shapeOf(className), fields, resolve);
        !written) {
        natives_.remove(*slot, false);
        world_.destroy(*slot);
        return std::unexpected(written.error());
    }
    return slot;
}

const ScriptClassInfo* ScriptHost::scriptClassOf(ObjectId script) const {
    const ScriptSlot* slot = world_.script(script);
    if (slot == nullptr || slot->parked)
        return nullptr;
    if (slot->native)
        return natives_.shapeOf(slot->className);
    return domain_ ? domain_->findScriptClass(slot->className) : nullptr;
}

bool ScriptHost::referencedByNativeScript(ObjectId id) const {
    for (ObjectId slot : natives_.slots()) {
        const game::NativeScriptClassInfo* cls = natives_.classOf(slot);
        for (const game::NativeFieldInfo& f : cls->fields) {
            if (f.type != game::NativeFieldType::Entity)
                continue;
            auto value = natives_.getField(slot, f.name);
            if (value && std::get<ObjectRef>(*value).id == id)
                return true;
        }
    }
    return false;
}

NativeScriptCarry ScriptHost::replaceNativeClasses(std::vector<game::NativeScriptClassInfo> classes,
                                                   game::GameWorld& world,
                                                   NativeCrashHandler onCrash) {
    NativeScriptCarry carry;
    // 1. The running objects' values, in world order; then the objects go (no destroy
    //    message: the script goes on in the new code).
    std::vector<ScriptSnapshot> saved;
    for (ObjectId entity : world_.entities()) {
        for (ObjectId slot : world_.entity(entity)->scripts) {
            if (!world_.script(slot)->native)
                continue;
            auto snap = natives_.snapshot(slot, entity);
            if (!snap) {
                // Unreadable (its code crashed): what was parked on it is all that is left.
                carry.problems.push_back(fmt::format("{} {}: its values could not be read ({})",
                                                     world_.script(slot)->className,
                                                     slot.toString(), snap.error().message));
                snap = ScriptSnapshot{slot, entity, world_.script(slot)->className, {}};
            }
            saved.push_back(std::move(*snap));
            natives_.remove(slot, false);
        }
    }
    natives_.setClasses(std::move(classes), world, std::move(onCrash));
    ++classesVersion_;

    const auto usable = [this](ObjectId id) { return world_.isAlive(id); };
    auto rebuild = [&](ScriptSnapshot snap, bool revived) {
        ScriptSlot& slot = *world_.script(snap.script);
        const ScriptClassInfo* shape = natives_.shapeOf(snap.className);
        if (shape == nullptr) {
            if (!revived) { // its class is gone from this build: park it, values kept
                slot.native = false;
                slot.parked = true;
                parked_.scripts[snap.script] = std::move(snap);
                ++carry.parked;
            }
            return;
        }
        std::vector<FieldSnapshot> parkedHere;
        if (auto it = parked_.fields.find(snap.script); it != parked_.fields.end())
            parkedHere = std::move(it->second);
        parked_.fields.erase(snap.script);
        if (auto made = natives_.create(snap.script, snap.entity, shape->name); !made) {
            carry.problems.push_back(fmt::format("{} {}: {}; parked", shape->name,
                                                 snap.script.toString(), made.error().message));
            slot.native = false;
            slot.parked = true;
            parked_.scripts[snap.script] = std::move(snap);
            return;
        }
        FieldMigration migration = migrateFields(snap.script, *shape, std::move(snap.fields),
                                                 std::move(parkedHere), revived, usable);
        for (const FieldWrite& w : migration.writes) {
            if (auto written = natives_.writeField(snap.script, w.index, w.value); !written)
                carry.problems.push_back(written.error().message);
        }
        if (!migration.parked.empty())
            parked_.fields[snap.script] = std::move(migration.parked);
        for (FieldOutcome& o : migration.outcomes)
            carry.outcomes.push_back(std::move(o));
        slot.native = true;
        slot.parked = false;
        slot.className = shape->name;
        if (revived) {
            parked_.scripts.erase(snap.script);
            (void)natives_.initialize(snap.script);
            ++carry.revived;
        } else {
            (void)natives_.afterReload(snap.script);
            ++carry.carried;
        }
    };
    for (ScriptSnapshot& snap : saved)
        rebuild(std::move(snap), false);
    // 2. Parked scripts whose class this build has (a class that came back).
    std::vector<ScriptSnapshot> back;
    for (const auto& [slot, snap] : parked_.scripts) {
        if (natives_.shapeOf(snap.className) != nullptr && world_.script(slot) != nullptr)
            back.push_back(snap);
    }
    for (ScriptSnapshot& snap : back)
        rebuild(std::move(snap), true);
    return carry;
}

} // namespace scripthost
