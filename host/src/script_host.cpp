#include "host/script_host.hpp"

#include "finalized_proxies.hpp"
#include "glue/engine_internal_calls.hpp"
#include "host/mono_runtime.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace scripthost {

Result<std::unique_ptr<ScriptHost>> ScriptHost::create(ScriptHostOptions options) {
    auto runtime = MonoRuntime::start();
    if (!runtime) {
        return std::unexpected(runtime.error());
    }
    glue::registerEngineInternalCalls(**runtime);
    auto core = AssemblyFile::read(options.scriptCore);
    if (!core) {
        return fail("cannot load ScriptCore: " + core.error().message);
    }
    std::unique_ptr<ScriptWatchdog> watchdog;
    if (options.watchdogBudget > std::chrono::milliseconds::zero() &&
        !ScriptWatchdog::running()) { // another host of this process may have one already
        auto started = ScriptWatchdog::start(
            {options.watchdogBudget, options.watchdogGrace, options.onHostage});
        if (!started)
            return fail("cannot start the script watchdog: " + started.error().message);
        watchdog = std::move(*started);
    }
    auto host = std::unique_ptr<ScriptHost>(new ScriptHost(std::move(options), std::move(*core)));
    host->watchdog_ = std::move(watchdog);
    return host;
}

ScriptHost::ScriptHost(ScriptHostOptions options, AssemblyFile scriptCore)
    : options_(std::move(options)), scriptCore_(std::move(scriptCore)),
      failures_(options_.disableAfterFailures), fixedClock_(options_.fixedStep) {
    context_.world = &world_;
    context_.input = &input_;
    context_.failures = &failures_;
    context_.engine = this;
    context_.onFailure = [this](const ScriptFailure& failure) {
        ++failureCount_;
        if (recentFailures_.size() == kRecentFailures) {
            recentFailures_.pop_front();
        }
        recentFailures_.push_back(failure);
    };
}

ScriptHost::~ScriptHost() {
    if (auto r = shutdown(); !r) {
        spdlog::warn("{}", r.error().message);
    }
}

Result<void> ScriptHost::loadScripts(const AssemblyFile& scripts) {
    if (domain_) {
        return fail("scripts are already loaded (generation " +
                    std::to_string(domain_->generation()) + ")");
    }
    auto domain = ScriptDomain::create(nextGeneration_, scriptCore_, scripts, world_);
    if (!domain) {
        return std::unexpected(domain.error());
    }
    ++nextGeneration_;
    domain_ = std::move(*domain);
    spdlog::info("generation {} loaded: {} script classes from {}", domain_->generation(),
                 domain_->scriptClasses().size(), scripts.path.string());
    return {};
}

RefResolver ScriptHost::sceneResolver(const std::unordered_map<std::uint64_t, ObjectId>& remap,
                                      const std::vector<ObjectId>& sceneEntities) const {
    return [this, &remap, &sceneEntities](const nlohmann::json& ref) -> Result<ObjectId> {
        if (auto id = ref.find("id"); id != ref.end()) {
            if (!id->is_number_unsigned())
                return fail("a reference's id must be a number");
            if (auto it = remap.find(id->get<std::uint64_t>()); it != remap.end())
                return it->second;
            const ObjectId direct = ObjectId::unpack(id->get<std::uint64_t>());
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
            return fail(fmt::format("{} has no [SerializeField] field named {}", info.name, name));
        }
        auto value = valueFromJson(json, field->type, resolve);
        if (!value) {
            return fail(fmt::format("{}.{}: {}", info.name, name, value.error().message));
        }
        if (auto written = domain_->setField(slot, name, *value); !written) {
            return std::unexpected(written.error());
        }
    }
    return {};
}

Result<ObjectId> ScriptHost::addScript(ObjectId entity, const SceneScript& script) {
    if (!domain_)
        return fail("no scripts are loaded");
    if (world_.entity(entity) == nullptr) {
        return fail("entity " + entity.toString() + " does not exist");
    }
    const ScriptClassInfo* info = domain_->findScriptClass(script.className);
    if (info == nullptr)
        return fail(domain_->explainMissingClass(script.className));
    auto slot = world_.addScript(entity, info->name);
    if (!slot)
        return std::unexpected(slot.error());
    ScriptContextBinding bind(context_);
    if (auto made = domain_->instantiate(*slot, entity, info->name); !made) {
        world_.destroy(*slot);
        return std::unexpected(made.error());
    }
    const std::unordered_map<std::uint64_t, ObjectId> noIds;
    const std::vector<ObjectId> noEntities;
    if (auto written =
            writeSceneFields(*slot, *info, script.fields, sceneResolver(noIds, noEntities));
        !written) {
        (void)domain_->detach(*slot);
        world_.destroy(*slot);
        return std::unexpected(written.error());
    }
    if (auto attached = domain_->attach(*slot, true); !attached) {
        return std::unexpected(attached.error());
    }
    return slot;
}

void ScriptHost::registerComponentKind(std::string kind) {
    if (!knowsComponentKind(kind))
        componentKinds_.push_back(std::move(kind));
}

bool ScriptHost::knowsComponentKind(std::string_view kind) const noexcept {
    return std::find(componentKinds_.begin(), componentKinds_.end(), kind) != componentKinds_.end();
}

std::string ScriptHost::knownComponentKindList() const {
    std::string list;
    for (const std::string& kind : componentKinds_)
        list += (list.empty() ? "" : ", ") + kind;
    return list;
}

Result<void> ScriptHost::instantiate(const Scene& scene) {
    if (!domain_)
        return fail("no scripts are loaded");
    ScriptWatchdog::Scope watched("loading a scene");
    ScriptContextBinding bind(context_);
    // Saved ids (snapshots) map to the objects made here, so references survive.
    std::unordered_map<std::uint64_t, ObjectId> remap;
    std::vector<ObjectId> entities;
    struct Made {
        ObjectId slot;
        const ScriptClassInfo* info;
        const SceneScript* script;
        const SceneEntity* entity;
    };
    std::vector<Made> made;
    auto undo = [&](std::string message) -> Result<void> {
        for (const Made& m : made) {
            if (m.info != nullptr)
                (void)domain_->detach(m.slot);
        }
        for (ObjectId id : entities)
            world_.destroy(id);
        return fail(std::move(message));
    };
    // 1. Entities, components and slots, so every reference has something to point at.
    for (const SceneEntity& e : scene.entities) {
        const ObjectId entity = world_.createEntity(e.name, e.transform);
        world_.entity(entity)->ownedByScripts = e.ownedByScripts;
        entities.push_back(entity);
        if (e.id)
            remap[e.id] = entity;
        for (std::size_t i = 0; i < e.components.size(); ++i) {
            if (!knowsComponentKind(e.components[i])) {
                return undo("entity '" + e.name + "': unknown component kind '" + e.components[i] +
                            "' (known: " + knownComponentKindList() + ")");
            }
            auto component = world_.addComponent(entity, e.components[i]);
            if (component && i < e.componentIds.size() && e.componentIds[i])
                remap[e.componentIds[i]] = *component;
        }
        for (const SceneScript& script : e.scripts) {
            const ScriptClassInfo* info = domain_->findScriptClass(script.className);
            if (info == nullptr && script.parked) {
                // Saved while its class was missing: it stays parked, values kept aside.
                const ObjectId slot = *world_.addScript(entity, script.className);
                world_.script(slot)->parked = true;
                if (script.id)
                    remap[script.id] = slot;
                made.push_back({slot, nullptr, &script, &e});
                continue;
            }
            if (info == nullptr) {
                return undo(fmt::format("entity \"{}\": {}", e.name,
                                        domain_->explainMissingClass(script.className)));
            }
            const ObjectId slot = *world_.addScript(entity, info->name);
            if (script.id)
                remap[script.id] = slot;
            if (auto instance = domain_->instantiate(slot, entity, info->name); !instance) {
                return undo(fmt::format("entity \"{}\": {}", e.name, instance.error().message));
            }
            made.push_back({slot, info, &script, &e});
        }
    }
    // 2. Field values, references resolved through the new ids and the scene's names.
    const RefResolver resolve = sceneResolver(remap, entities);
    for (const Made& m : made) {
        if (m.info == nullptr) {
            auto saved = parkedFromJson(m.slot, m.script->fields, resolve);
            if (!saved)
                return undo(
                    fmt::format("entity \"{}\": {}", m.entity->name, saved.error().message));
            parkedScripts_[m.slot] = std::move(*saved);
            continue;
        }
        if (auto written = writeSceneFields(m.slot, *m.info, m.script->fields, resolve); !written) {
            return undo(fmt::format("entity \"{}\": {}", m.entity->name, written.error().message));
        }
    }
    // 3. Initialize in scene order, every script constructed and filled in by now.
    for (const Made& m : made) {
        if (m.info == nullptr)
            continue;
        if (auto attached = domain_->attach(m.slot, true); !attached) {
            return std::unexpected(attached.error());
        }
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
            for (const FieldSnapshot& f : ss.fields)
                script.fields[f.name] = valueToJson(f.value, f.type);
            saved.scripts.push_back(std::move(script));
        }
        scene.entities.push_back(std::move(saved));
    }
    return scene;
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

Result<void> ScriptHost::removeScript(ObjectId script) {
    const ScriptSlot* slot = world_.script(script);
    if (slot == nullptr) {
        return fail("script " + script.toString() + " does not exist");
    }
    Result<void> detached;
    if (domain_ && !slot->parked) {
        ScriptContextBinding bind(context_);
        detached = domain_->detach(script);
    }
    parkedScripts_.erase(script);
    parkedFields_.erase(script);
    failures_.forget(script);
    world_.destroy(script);
    return detached;
}

Result<void> ScriptHost::destroyObject(ObjectId id) {
    switch (world_.kindOf(id)) {
    case ObjectKind::Entity:
        return destroyEntity(id);
    case ObjectKind::Script:
        return removeScript(id);
    case ObjectKind::Component:
        if (domain_) {
            domain_->forgetProxy(id);
        }
        world_.destroy(id);
        return {};
    case ObjectKind::None:
        break;
    }
    return fail("object " + id.toString() + " does not exist");
}

std::size_t ScriptHost::drainDestroyQueues() {
    std::size_t destroyed = 0;
    // Destroying can queue more (a script's Destroy message may destroy others): loop.
    while (!destroyQueue_.empty()) {
        const auto queued = std::exchange(destroyQueue_, {});
        for (ObjectId id : queued) {
            destroyed += destroyObject(id).has_value() ? 1 : 0; // gone already: nothing to do
        }
    }
    for (ObjectId id : takeFinalizedProxies()) {
        const Entity* entity = world_.entity(id);
        // A finalized proxy releases the entity only if the scripts owned it and have not
        // asked for it again since (UEntity.Find makes a new proxy).
        if (entity != nullptr && entity->ownedByScripts &&
            !(domain_ && domain_->hasLiveProxy(id))) {
            if (destroyEntity(id)) {
                ++destroyed;
                ++releasedByCollector_;
            }
        }
    }
    if (domain_ && domain_->proxyCount() > 2 * world_.entityCount() + 1024) {
        domain_->purgeCollectedProxies(); // keep the bookkeeping in proportion
    }
    return destroyed;
}

Result<void> ScriptHost::destroyEntity(ObjectId entity) {
    const Entity* e = world_.entity(entity);
    if (e == nullptr) {
        return fail("entity " + entity.toString() + " does not exist");
    }
    const auto scripts = e->scripts;
    for (ObjectId s : scripts) {
        (void)removeScript(s);
    }
    if (domain_) {
        for (ObjectId c : world_.entity(entity)->components) {
            domain_->forgetProxy(c);
        }
        domain_->forgetProxy(entity);
    }
    world_.destroy(entity);
    return {};
}

void ScriptHost::tick(double deltaSeconds) {
    using Clock = std::chrono::steady_clock;
    const auto frameStart = Clock::now();
    ++frame_;
    if (domain_) {
        ScriptContextBinding bind(context_);
        const int steps = fixedClock_.advance(deltaSeconds);
        for (int i = 0; i < steps; ++i) {
            if (auto r = domain_->runFixedUpdate(static_cast<float>(fixedClock_.step()), time_);
                !r) {
                spdlog::error("{}", r.error().message);
            }
        }
        time_ += deltaSeconds;
        if (auto r = domain_->runUpdate(static_cast<float>(deltaSeconds), time_, frame_); !r) {
            spdlog::error("{}", r.error().message);
        }
        drainDestroyQueues();
    } else {
        time_ += deltaSeconds;
    }
    const double scriptSeconds = std::chrono::duration<double>(Clock::now() - frameStart).count();
    // Frame time is the frame's period (what the loop asked for), script time what it cost.
    stats_.record(deltaSeconds, scriptSeconds);
}

Result<Value> ScriptHost::getField(ObjectId script, std::string_view field) {
    if (!domain_)
        return fail("no scripts are loaded");
    ScriptContextBinding bind(context_);
    return domain_->getField(script, field);
}

Result<void> ScriptHost::setField(ObjectId script, std::string_view field, const Value& value) {
    if (!domain_)
        return fail("no scripts are loaded");
    ScriptContextBinding bind(context_);
    return domain_->setField(script, field, value);
}

Result<void> ScriptHost::shutdown() {
    if (pendingUnload_) {
        ReloadReport ignored;
        finishPendingUnload(ignored);
    }
    if (!domain_) {
        return {};
    }
    {
        ScriptContextBinding bind(context_);
        for (ObjectId entity : world_.entities()) {
            for (ObjectId s : world_.entity(entity)->scripts) {
                if (!world_.script(s)->parked) {
                    (void)domain_->detach(s);
                }
            }
        }
    }
    auto unloaded = domain_->unload();
    domain_.reset();
    return unloaded;
}

} // namespace scripthost
