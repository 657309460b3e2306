// ScriptHost's scenes: building the world from a scene file (or a state file) and saving
// it back as one.
#include "host/domain/script_snapshotter.hpp"
#include "host/engine/script_host.hpp"
#include "host/runtime/script_watchdog.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace scripthost {

RefResolver ScriptHost::sceneResolver(const std::unordered_map<std::uint64_t, ObjectId>& remap,
                                      const std::vector<ObjectId>& sceneEntities) const {
    return [this, &remap, &sceneEntities](const nlohmann::json& ref) -> Result<ObjectId> {
        if (auto id = ref.find("id"); id != ref.end()) {
            // The packed number, or the text forms `entities` and the logs print ("3:1").
            std::optional<ObjectId> text;
            if (id->is_string())
                text = ObjectId::fromText(id->get_ref<const std::string&>());
            if (!id->is_number_unsigned() && !text)
                return fail("a reference's id is a number or \"index:generation\" (\"3:1\", "
                            "\"#3:1\"), got " +
                            id->dump());
            const std::uint64_t packed = text ? text->packed() : id->get<std::uint64_t>();
            if (auto it = remap.find(packed); it != remap.end())
                return it->second;
            const ObjectId direct = ObjectId::unpack(packed);
            if (world_.isAlive(direct))
                return direct;
            return fail("no object with id " + id->dump() + " in the scene or the world");
        }
        auto name = ref.find("entity");
        if (name == ref.end() || !name->is_string()) {
            return fail("a reference is null, {\"id\": n} or {\"entity\": \"name\"}, got " +
                        ref.dump());
        }
        ObjectId entity;
        for (ObjectId e : sceneEntities) { // the scene's own entities first
            if (world_.entity(e)->name == name->get_ref<const std::string&>()) {
                entity = e;
                break;
            }
        }
        if (entity.isNull())
            entity = world_.findEntity(name->get<std::string>());
        if (entity.isNull())
            return fail("no entity named " + name->dump());
        const Entity& found = *world_.entity(entity);
        if (auto kind = ref.find("component"); kind != ref.end()) {
            for (ObjectId c : found.components) {
                if (world_.component(c)->kind == *kind)
                    return c;
            }
            return fail("entity " + name->dump() + " has no " + kind->dump() + " component");
        }
        if (auto cls = ref.find("script"); cls != ref.end()) {
            for (ObjectId sc : found.scripts) {
                const std::string& have = world_.script(sc)->className;
                if (have == *cls || have.ends_with("." + cls->get<std::string>()))
                    return sc;
            }
            return fail("entity " + name->dump() + " has no script " + cls->dump());
        }
        return entity;
    };
}

RefResolver ScriptHost::worldResolver() const {
    static const std::unordered_map<std::uint64_t, ObjectId> noIds;
    static const std::vector<ObjectId> noEntities;
    return sceneResolver(noIds, noEntities);
}

Result<void> ScriptHost::writeSceneFields(ObjectId slot, const ScriptClassInfo& info,
                                          const nlohmann::json& fields,
                                          const RefResolver& resolve) {
    for (const auto& [name, json] : fields.items()) {
        const FieldInfo* field = nullptr;
        for (const FieldInfo& f : info.fields) {
            if (f.name == name)
                field = &f;
        }
        if (field == nullptr) {
            return fail(fmt::format("{} has no serialized field named {}", info.name, name));
        }
        auto value = valueFromJson(json, field->type, resolve);
        if (!value) {
            return fail(fmt::format("{}.{}: {}", info.name, name, value.error().message));
        }
        if (auto written = world_.script(slot)->native ? natives_.setField(slot, name, *value)
                                                       : domain_->setField(slot, name, *value);
            !written) {
            return std::unexpected(written.error());
        }
    }
    return {};
}

struct ScriptHost::SceneBuild {
    struct Made {
        ObjectId slot;
        const ScriptClassInfo* info; ///< null: a parked script (its class is missing)
        const SceneScript* script;
        const SceneEntity* entity;
        bool native = false;
    };

    ScriptHost& host;
    /// Saved ids (snapshots) map to the objects made here, so references survive.
    std::unordered_map<std::uint64_t, ObjectId> remap;
    std::vector<ObjectId> entities;
    std::vector<Made> made;

    /// Takes back everything made so far and fails with `message`.
    Result<void> undo(std::string message) {
        for (const Made& m : made) {
            if (m.native)
                host.natives_.remove(m.slot, false);
            else if (m.info != nullptr)
                (void)host.domain_->detach(m.slot);
        }
        for (ObjectId id : entities)
            host.world_.destroy(id);
        return fail(std::move(message));
    }

    /// Step 1 for one entity: the entity, its components and its script slots (instances
    /// constructed, no field set yet), so every reference has something to point at.
    Result<void> createEntity(const SceneEntity& e) {
        World& world = host.world_;
        const ObjectId entity = world.createEntity(e.name, e.transform);
        Entity& made = *world.entity(entity);
        made.ownedByScripts = e.ownedByScripts;
        made.active = e.active;
        made.tag = e.tag;
        entities.push_back(entity);
        if (e.id)
            remap[e.id] = entity;
        for (std::size_t i = 0; i < e.components.size(); ++i) {
            if (!host.knowsComponentKind(e.components[i])) {
                return undo("entity '" + e.name + "': unknown component kind '" + e.components[i] +
                            "' (known: " + host.knownComponentKindList() + ")");
            }
            auto component = world.addComponent(entity, e.components[i]);
            if (component && i < e.componentIds.size() && e.componentIds[i])
                remap[e.componentIds[i]] = *component;
        }
        for (const SceneScript& script : e.scripts)
            if (auto created = createScript(e, entity, script); !created)
                return created;
        return {};
    }

    Result<void> createScript(const SceneEntity& e, ObjectId entity, const SceneScript& script) {
        World& world = host.world_;
        // A game module's native script class (a parked one whose class is back, too).
        if (const std::string native = host.nativeClassName(script.className); !native.empty()) {
            const ObjectId slot = *world.addScript(entity, native);
            world.script(slot)->native = true;
            if (script.id)
                remap[script.id] = slot;
            if (auto instance = host.natives_.create(slot, entity, native); !instance) {
                world.destroy(slot);
                return undo(fmt::format("entity \"{}\": {}", e.name, instance.error().message));
            }
            made.push_back({slot, host.natives_.shapeOf(native), &script, &e, true});
            return {};
        }
        const ScriptClassInfo* info = host.domain_->findScriptClass(script.className);
        if (info == nullptr && script.parked) {
            // Saved while its class was missing: it stays parked, values kept aside.
            const ObjectId slot = *world.addScript(entity, script.className);
            world.script(slot)->parked = true;
            if (script.id)
                remap[script.id] = slot;
            made.push_back({slot, nullptr, &script, &e});
            return {};
        }
        if (info == nullptr) {
            return undo(fmt::format("entity \"{}\": {}", e.name,
                                    host.domain_->explainMissingClass(script.className)));
        }
        const ObjectId slot = *world.addScript(entity, info->name);
        world.script(slot)->disabledByScript = !script.enabled;
        if (script.id)
            remap[script.id] = slot;
        if (auto instance = host.domain_->instantiate(slot, entity, info->name); !instance)
            return undo(fmt::format("entity \"{}\": {}", e.name, instance.error().message));
        made.push_back({slot, info, &script, &e});
        return {};
    }

    /// Entity `entity` as a scene entity with its live values (read into `values`), its saved
    /// ids the live ones (Instantiate's copy; the scene build remaps them).
    static Result<SceneEntity> copyOf(ScriptHost& host, ObjectId entity, Snapshot& values) {
        const Entity* e = host.world_.entity(entity);
        SceneEntity copy;
        copy.name = e->name;
        copy.transform = e->transform;
        if (!e->parent.isNull())
            copy.parent = nlohmann::json{{"id", e->parent.packed()}};
        copy.id = entity.packed();
        copy.active = e->active;
        copy.tag = e->tag;
        for (ObjectId c : e->components) {
            copy.components.push_back(host.world_.component(c)->kind);
            copy.componentIds.push_back(c.packed());
        }
        for (ObjectId s : e->scripts) {
            const ScriptSlot& slot = *host.world_.script(s);
            SceneScript script;
            script.className = slot.className;
            script.id = s.packed();
            script.parked = slot.parked;
            script.enabled = !slot.disabledByScript;
            const ScriptSnapshot* read = nullptr;
            if (slot.parked) {
                read = &host.parked_.scripts.at(s);
            } else if (slot.native) {
                auto native = host.natives_.snapshot(s, entity);
                if (!native)
                    return std::unexpected(native.error());
                values.scripts.push_back(std::move(*native));
                read = &values.scripts.back();
            } else {
                if (auto managed = snapshotScript(*host.domain_, s, entity, slot.className, values);
                    !managed)
                    return std::unexpected(managed.error());
                read = &values.scripts.back();
            }
            for (const FieldSnapshot& f : read->fields)
                script.fields[f.name] = valueToJson(f.value, f.type);
            copy.scripts.push_back(std::move(script));
        }
        return copy;
    }

    /// Step 1b: each entity under its parent, named as a reference is; after every entity
    /// exists (a parent may come later in the file), before any script is attached (an
    /// inactive parent's children start inactive). Transforms in the file are local.
    Result<void> linkParents(const std::vector<SceneEntity>& scene) {
        const RefResolver resolve = host.sceneResolver(remap, entities);
        for (std::size_t i = 0; i < scene.size(); ++i) {
            if (scene[i].parent.is_null())
                continue;
            auto parent = resolve(scene[i].parent);
            if (!parent)
                return undo(fmt::format("entity \"{}\": parent: {}", scene[i].name,
                                        parent.error().message));
            if (auto linked = host.world_.setParent(entities[i], *parent, false); !linked)
                return undo(
                    fmt::format("entity \"{}\": {}", scene[i].name, linked.error().message));
        }
        return {};
    }

    /// Step 2: field values, references resolved through the new ids and the scene's names.
    Result<void> writeFields() {
        const RefResolver resolve = host.sceneResolver(remap, entities);
        for (const Made& m : made) {
            if (m.info == nullptr) {
                auto saved = host.parkedFromJson(m.slot, m.script->fields, resolve);
                if (!saved)
                    return undo(
                        fmt::format("entity \"{}\": {}", m.entity->name, saved.error().message));
                host.parked_.scripts[m.slot] = std::move(*saved);
                continue;
            }
            if (auto written = host.writeSceneFields(m.slot, *m.info, m.script->fields, resolve);
                !written) {
                return undo(
                    fmt::format("entity \"{}\": {}", m.entity->name, written.error().message));
            }
        }
        return {};
    }

    /// Step 3: Initialize in scene order, every script constructed and filled in by now.
    Result<void> initializeAll() {
        for (const Made& m : made) {
            if (m.native) {
                (void)host.natives_.initialize(m.slot); // a failure is logged and switches it off
                continue;
            }
            if (m.info == nullptr)
                continue;
            if (auto attached = host.domain_->attach(m.slot, true); !attached)
                return std::unexpected(attached.error());
        }
        return {};
    }
};

Result<void> ScriptHost::instantiate(const Scene& scene) {
    if (!domain_)
        return fail("no scripts are loaded");
    ScriptWatchdog::Scope watched("loading a scene");
    ScriptContextBinding bind(context_);
    SceneBuild build{*this, {}, {}, {}};
    for (const SceneEntity& e : scene.entities)
        if (auto created = build.createEntity(e); !created)
            return created;
    if (auto linked = build.linkParents(scene.entities); !linked)
        return linked;
    if (auto written = build.writeFields(); !written)
        return written;
    if (auto initialized = build.initializeAll(); !initialized)
        return initialized;
    // Destroy(obj, t) appointments a snapshot kept: the saved id's new object, or a live one.
    for (const SceneDelayedDestroy& later : scene.delayedDestroys) {
        const auto made = build.remap.find(later.id);
        const ObjectId target =
            made != build.remap.end() ? made->second : ObjectId::unpack(later.id);
        if (world_.isAlive(target))
            queueDestroyAfter(target, later.seconds);
    }
    return {};
}

Result<ScriptSnapshot> ScriptHost::parkedFromJson(ObjectId slot, const nlohmann::json& fields,
                                                  const RefResolver& resolve) const {
    // No class to ask: each value gets the widest type of its JSON shape; a reload that
    // brings the class back converts it with the usual safe rules.
    std::function<Result<std::pair<FieldType, Value>>(const nlohmann::json&)> guess =
        [&](const nlohmann::json& j) -> Result<std::pair<FieldType, Value>> {
        FieldType type;
        if (j.is_boolean())
            type.kind = ValueKind::Bool;
        else if (j.is_number_unsigned())
            type.kind = ValueKind::UInt64;
        else if (j.is_number_integer())
            type.kind = ValueKind::Int64;
        else if (j.is_number() || (j.is_string() && (j == "nan" || j == "inf" || j == "-inf")))
            type.kind = ValueKind::Double;
        else if (j.is_string())
            type.kind = ValueKind::String;
        else if (j.is_null() || j.is_object())
            type.kind = ValueKind::ObjectRef;
        else if (j.is_array()) {
            type.kind = ValueKind::List;
            auto first = j.empty() ? guess(nlohmann::json(0)) : guess(j[0]);
            if (!first)
                return std::unexpected(first.error());
            type.element.push_back(first->first);
        }
        type.typeName = std::string(kindName(type.kind));
        auto value = valueFromJson(j, type, resolve);
        if (!value)
            return std::unexpected(value.error());
        return std::pair{type, std::move(*value)};
    };
    ScriptSnapshot saved{slot, world_.script(slot)->entity, world_.script(slot)->className, {}};
    for (const auto& [name, json] : fields.items()) {
        auto typed = guess(json);
        if (!typed)
            return fail(fmt::format("{}.{}: {}", saved.className, name, typed.error().message));
        saved.fields.push_back(FieldSnapshot{name, typed->first, std::move(typed->second)});
    }
    return saved;
}

Result<Scene> ScriptHost::saveScene() {
    auto snap = snapshot();
    if (!snap)
        return std::unexpected(snap.error());
    std::unordered_map<ObjectId, const ScriptSnapshot*> byScript;
    for (const ScriptSnapshot& s : snap->scripts)
        byScript[s.script] = &s;
    Scene scene;
    for (ObjectId id : world_.entities()) {
        const Entity& e = *world_.entity(id);
        SceneEntity saved;
        saved.name = e.name;
        saved.transform = e.transform;
        saved.id = id.packed();
        saved.ownedByScripts = e.ownedByScripts;
        saved.active = e.active;
        saved.tag = e.tag;
        if (!e.parent.isNull())
            saved.parent = nlohmann::json{{"id", e.parent.packed()}};
        for (ObjectId c : e.components) {
            saved.components.push_back(world_.component(c)->kind);
            saved.componentIds.push_back(c.packed());
        }
        for (ObjectId s : e.scripts) {
            const ScriptSnapshot& ss = *byScript.at(s);
            SceneScript script;
            script.className = ss.className;
            script.id = s.packed();
            script.parked = world_.script(s)->parked;
            script.enabled = !world_.script(s)->disabledByScript;
            for (const FieldSnapshot& f : ss.fields)
                script.fields[f.name] = valueToJson(f.value, f.type);
            saved.scripts.push_back(std::move(script));
        }
        scene.entities.push_back(std::move(saved));
    }
    for (const auto& [due, id] : delayedDestroys_) {
        if (world_.isAlive(id))
            scene.delayedDestroys.push_back({id.packed(), std::max(0.0, due - time_)});
    }
    return scene;
}

Result<ObjectId> ScriptHost::cloneObject(ObjectId original,
                                         const std::optional<Transform>& placed) {
    if (!domain_)
        return fail("no scripts are loaded");
    const ObjectId entity = world_.entityOf(original);
    if (world_.entity(entity) == nullptr)
        return fail("object " + original.toString() + " does not exist (destroyed?)");
    // A scene made from the live entity and everything below it, their saved ids the
    // originals': the scene build maps them to the copies', so references inside the copy (a
    // child's parent too) point at the copy, and every other id at the live object it names.
    ScriptContextBinding bind(context_);
    Snapshot values;
    std::vector<SceneEntity> copies;
    for (ObjectId id : world_.subtree(entity)) {
        auto copy = SceneBuild::copyOf(*this, id, values);
        if (!copy)
            return std::unexpected(copy.error());
        copies.push_back(std::move(*copy));
    }
    // A root where the original is in the world (Unity's Instantiate without a parent); the
    // children keep their local transforms under it.
    copies.front().name += "(Clone)";
    copies.front().transform = placed.value_or(world_.worldTransform(entity));
    copies.front().parent = nullptr;
    ScriptWatchdog::Scope watched("instantiating an entity");
    SceneBuild build{*this, {}, {}, {}};
    for (const SceneEntity& copy : copies)
        if (auto created = build.createEntity(copy); !created)
            return std::unexpected(created.error());
    if (auto linked = build.linkParents(copies); !linked)
        return std::unexpected(linked.error());
    if (auto written = build.writeFields(); !written)
        return std::unexpected(written.error());
    if (auto initialized = build.initializeAll(); !initialized)
        return std::unexpected(initialized.error());
    return build.remap.at(original.packed());
}

Scene ScriptHost::defaultScene() const {
    Scene scene;
    if (!domain_) {
        return scene;
    }
    for (const ScriptClassInfo& info : domain_->scriptClasses()) {
        SceneEntity entity;
        entity.name = info.name;
        entity.scripts.push_back(SceneScript{info.name, nlohmann::json::object()});
        scene.entities.push_back(std::move(entity));
    }
    return scene;
}

} // namespace scripthost
