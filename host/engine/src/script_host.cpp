#include "host/engine/script_host.hpp"

#include "host/domain/script_snapshotter.hpp"
#include "host/runtime/finalized_proxies.hpp"
#include "host/runtime/mono_runtime.hpp"
#include "host/runtime/unhandled_exceptions.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ranges>
#include <spdlog/spdlog.h>

namespace scripthost {

Result<std::unique_ptr<ScriptHost>> ScriptHost::create(ScriptHostOptions options) {
    if (!options.registerInternalCalls)
        return fail("ScriptHostOptions.registerInternalCalls is empty: the engine API's "
                    "internal calls would be missing (pass glue::registerEngineInternalCalls)");
    auto runtime = MonoRuntime::start();
    if (!runtime) {
        return std::unexpected(runtime.error());
    }
    options.registerInternalCalls(**runtime);
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
    context_.natives = &natives_;
    natives_.onFailure = [this](const ScriptFailure& failure) {
        if (context_.onFailure)
            context_.onFailure(failure);
    };
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
    return loadScripts(std::span(&scripts, 1));
}

Result<void> ScriptHost::loadScripts(std::span<const AssemblyFile> scripts) {
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
                 domain_->scriptClasses().size(),
                 fmt::join(scripts | std::views::transform([](const AssemblyFile& file) {
                               return file.path.string();
                           }),
                           ", "));
    return {};
}

Result<ObjectId> ScriptHost::addScript(ObjectId entity, const SceneScript& script) {
    if (const std::string native = nativeClassName(script.className); !native.empty()) {
        auto slot = makeNativeScript(entity, native, script.fields, worldResolver());
        if (!slot)
            return slot;
        if (auto initialized = natives_.initialize(*slot); !initialized)
            return std::unexpected(initialized.error());
        return slot;
    }
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
    world_.script(*slot)->disabledByScript = !script.enabled;
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

Result<void> ScriptHost::removeScript(ObjectId script) {
    const ScriptSlot* slot = world_.script(script);
    if (slot == nullptr) {
        return fail("script " + script.toString() + " does not exist");
    }
    Result<void> detached;
    if (slot->native) {
        natives_.remove(script, true);
        if (domain_)
            domain_->forgetProxy(script);
    } else if (domain_ && !slot->parked) {
        ScriptContextBinding bind(context_);
        detached = domain_->detach(script);
    }
    parked_.forget(script);
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
    std::erase_if(delayedDestroys_, [this](const std::pair<double, ObjectId>& delayed) {
        if (delayed.first > time_)
            return false;
        destroyQueue_.push_back(delayed.second);
        return true;
    });
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

std::size_t ScriptHost::countOffLoopFailures() {
    auto taken = takeUnhandledExceptions();
    if (taken.dropped > 0) {
        spdlog::warn("{} more exceptions off the game loop came too fast to be counted (each "
                     "was logged)",
                     taken.dropped);
    }
    for (mono::UnhandledExceptionRecord& record : taken.records) {
        ScriptFailure failure;
        failure.className = std::move(record.scriptClass);
        failure.phase = ScriptPhase::OffLoop;
        failure.exceptionType = std::move(record.exceptionType);
        failure.message = std::move(record.message);
        failure.text = std::move(record.text);
        // The first slot of that class, when one exists: a finalizer may be a helper
        // class's, not a script's. Never disabled: the loop's own calls did not fail.
        for (ObjectId entity : world_.entities()) {
            for (ObjectId slot : world_.entity(entity)->scripts) {
                if (failure.script.isNull() && world_.script(slot)->className == failure.className)
                    failure.script = slot;
            }
        }
        if (context_.onFailure) {
            context_.onFailure(failure);
        }
    }
    return taken.records.size();
}

Result<void> ScriptHost::setEntityActive(ObjectId entity, bool active) {
    if (world_.entity(entity) == nullptr)
        return fail("entity " + entity.toString() + " does not exist");
    return tellActiveChanged(world_.setActive(entity, active), active);
}

Result<void> ScriptHost::reparent(ObjectId child, ObjectId parent, bool keepWorld) {
    auto changed = world_.setParent(child, parent, keepWorld);
    if (!changed)
        return std::unexpected(changed.error());
    return tellActiveChanged(*changed, world_.activeInHierarchy(child));
}

Result<void> ScriptHost::tellActiveChanged(const std::vector<ObjectId>& entities, bool active) {
    if (!domain_ || entities.empty())
        return {};
    ScriptContextBinding bind(context_);
    for (ObjectId e : entities) {
        if (auto told = domain_->entityActiveChanged(e, active); !told)
            return told;
    }
    return {};
}

Result<void> ScriptHost::destroyEntity(ObjectId entity) {
    const Entity* e = world_.entity(entity);
    if (e == nullptr) {
        return fail("entity " + entity.toString() + " does not exist");
    }
    // Its children first, deepest first (Unity destroys the whole hierarchy below it).
    const std::vector<ObjectId> below = world_.subtree(entity);
    for (auto it = below.rbegin(); it + 1 < below.rend(); ++it)
        (void)destroyEntity(*it);
    e = world_.entity(entity);
    if (e == nullptr) // nothing a child's OnDestroy can do destroys it now, but never trust that
        return {};
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
    {
        // Each phase runs the C# scripts, then the native ones.
        ScriptContextBinding bind(context_);
        const int steps = fixedClock_.advance(deltaSeconds);
        const auto step = static_cast<float>(fixedClock_.step());
        // A native script on an entity inactive in the hierarchy gets no messages, as a C# one.
        // A plain lambda: it becomes a RunsFilter only in a frame that has native scripts.
        const auto nativeRuns = [this](ObjectId slot) {
            const ScriptSlot* s = world_.script(slot);
            return s != nullptr && world_.activeInHierarchy(s->entity);
        };
        for (int i = 0; i < steps; ++i) {
            if (domain_) {
                if (auto r = domain_->runFixedUpdate(step, time_, frame_); !r)
                    spdlog::error("{}", r.error().message);
            }
            if (natives_.count() > 0)
                natives_.fixedUpdate(step, nativeRuns);
        }
        time_ += deltaSeconds;
        if (domain_) {
            if (auto r = domain_->runUpdate(static_cast<float>(deltaSeconds), time_, frame_); !r)
                spdlog::error("{}", r.error().message);
        }
        if (natives_.count() > 0)
            natives_.update(static_cast<float>(deltaSeconds), nativeRuns);
        if (domain_) {
            drainDestroyQueues();
            if (requestedScene_)
                loadRequestedScene();
            countOffLoopFailures();
        }
    }
    input_.advanceFrame(); // what the next frame's GetKeyDown and GetKeyUp compare with
    const double scriptSeconds = std::chrono::duration<double>(Clock::now() - frameStart).count();
    // Frame time is the frame's period (what the loop asked for), script time what it cost.
    stats_.record(deltaSeconds, scriptSeconds);
}

std::unique_ptr<ScriptDomain> ScriptHost::adoptGeneration(std::unique_ptr<ScriptDomain> next,
                                                          ParkedState parked) {
    std::unique_ptr<ScriptDomain> old = std::move(domain_);
    domain_ = std::move(next);
    parked_ = std::move(parked);
    ++classesVersion_;
    return old;
}

const ScriptSnapshot* ScriptHost::parkedScript(ObjectId script) const {
    auto it = parked_.scripts.find(script);
    return it == parked_.scripts.end() ? nullptr : &it->second;
}

const std::vector<FieldSnapshot>* ScriptHost::parkedFields(ObjectId script) const {
    auto it = parked_.fields.find(script);
    return it == parked_.fields.end() ? nullptr : &it->second;
}

Result<Snapshot> ScriptHost::snapshot() {
    if (!domain_)
        return fail("no scripts are loaded");
    ScriptContextBinding bind(context_);
    Snapshot snap;
    for (ObjectId entity : world_.entities()) {
        for (ObjectId slot : world_.entity(entity)->scripts) {
            const ScriptSlot* s = world_.script(slot);
            if (s->parked) {
                snap.scripts.push_back(parked_.scripts.at(slot));
                continue;
            }
            if (s->native) {
                auto read = natives_.snapshot(slot, entity);
                if (!read)
                    return std::unexpected(read.error());
                snap.scripts.push_back(std::move(*read));
                continue;
            }
            if (auto read = snapshotScript(*domain_, slot, entity, s->className, snap); !read)
                return std::unexpected(read.error());
        }
    }
    if (auto statics = snapshotStatics(*domain_, snap); !statics)
        return std::unexpected(statics.error());
    return snap;
}

Result<Value> ScriptHost::getField(ObjectId script, std::string_view field) {
    if (const ScriptSlot* s = world_.script(script); s != nullptr && s->native)
        return natives_.getField(script, field);
    if (!domain_)
        return fail("no scripts are loaded");
    ScriptContextBinding bind(context_);
    return domain_->getField(script, field);
}

Result<void> ScriptHost::readFieldsAt(ObjectId script, std::span<const std::uint32_t> indices,
                                      std::span<Value> out) {
    const ScriptSlot* s = world_.script(script);
    if (s == nullptr)
        return fail("no script " + script.toString());
    if (s->native) {
        // Native scripts answer by name; their classes are few and their fields short.
        const ScriptClassInfo* info = natives_.shapeOf(s->className);
        if (info == nullptr || out.size() != indices.size())
            return fail("no native class " + s->className);
        for (std::size_t i = 0; i < indices.size(); ++i) {
            if (indices[i] >= info->fields.size())
                return fail(fmt::format("{} has no field #{}", s->className, indices[i]));
            auto value = natives_.getField(script, info->fields[indices[i]].name);
            if (!value)
                return std::unexpected(value.error());
            out[i] = std::move(*value);
        }
        return {};
    }
    if (!domain_)
        return fail("no scripts are loaded");
    ScriptContextBinding bind(context_);
    return domain_->readFieldsAt(script, indices, out);
}

Result<ScriptHost::FoundScript> ScriptHost::findScript(ObjectId script) {
    const ScriptSlot* s = world_.script(script);
    if (s == nullptr)
        return fail("no script " + script.toString());
    if (s->native)
        return FoundScript{script, {}};
    if (!domain_)
        return fail("no scripts are loaded");
    auto instance = domain_->findInstance(script);
    if (!instance)
        return std::unexpected(instance.error());
    return FoundScript{script, *instance};
}

Result<void> ScriptHost::readFieldsAt(const FoundScript& script,
                                      std::span<const std::uint32_t> indices,
                                      std::span<Value> out) {
    if (script.instance.instance == nullptr || !domain_)
        return readFieldsAt(script.script, indices, out);
    ScriptContextBinding bind(context_);
    return domain_->readFieldsAt(script.instance, indices, out);
}

Result<void> ScriptHost::setField(ObjectId script, std::string_view field, const Value& value) {
    if (const ScriptSlot* s = world_.script(script); s != nullptr && s->native)
        return natives_.setField(script, field, value);
    if (!domain_)
        return fail("no scripts are loaded");
    ScriptContextBinding bind(context_);
    return domain_->setField(script, field, value);
}

Result<void> ScriptHost::shutdown() {
    // Native scripts first: their module outlives the host, not the other way round.
    for (ObjectId entity : world_.entities()) {
        for (ObjectId s : world_.entity(entity)->scripts) {
            if (world_.script(s)->native)
                natives_.remove(s, true);
        }
    }
    if (!domain_) {
        return {};
    }
    {
        ScriptContextBinding bind(context_);
        for (ObjectId entity : world_.entities()) {
            for (ObjectId s : world_.entity(entity)->scripts) {
                if (!world_.script(s)->parked && !world_.script(s)->native) {
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
