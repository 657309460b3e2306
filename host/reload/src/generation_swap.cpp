#include "generation_swap.hpp"

#include "host/domain/script_domain.hpp"
#include "host/domain/script_snapshotter.hpp"
#include "host/engine/script_host.hpp"
#include "host/model/field_migration.hpp"
#include "host/model/parked_state.hpp"
#include "host/runtime/script_watchdog.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <functional>
#include <unordered_set>
#include <utility>

namespace scripthost {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// One run of the swap stage; each step is a method, in the order run() calls them.
class GenerationSwap {
public:
    GenerationSwap(ScriptHost& host, std::unique_ptr<ScriptDomain>& next, ReloadReport& report)
        : host_(host), world_(host.world()), current_(*host.domain()), nextOwner_(next),
          next_(*next), report_(report) {
        staged_.fields = host.parked().fields; // staged.scripts is rebuilt from scratch
        usable_ = [this](ObjectId id) {
            if (!world_.isAlive(id))
                return false;
            return !(world_.kindOf(id) == ObjectKind::Script && staged_.scripts.contains(id));
        };
    }

    std::expected<std::unique_ptr<ScriptDomain>, SwapFailure> run() {
        auto phase = Clock::now();
        if (auto r = snapshotCurrent(); !r)
            return fail("snapshot", r.error());
        report_.snapshotMs = msSince(phase);

        phase = Clock::now();
        if (auto r = next_.continueClockFrom(current_); !r)
            return fail("instantiate", r.error());
        if (auto r = instantiateAll(); !r)
            return fail("instantiate", r.error());
        if (auto r = restoreFields(); !r)
            return fail("restore", r.error());
        if (auto r = restoreStatics(); !r)
            return fail("restore", r.error());
        report_.restoreMs += msSince(phase); // after what instantiateAhead took

        phase = Clock::now();
        if (auto r = attachAndRunHooks(); !r)
            return fail("hooks", r.error());
        report_.hooksMs = msSince(phase);
        noteCancelledAwaits();
        return commit(); // from here on nothing can fail
    }

private:
    /// A slot in world order: its saved state, its new class (null: parked now) and whether
    /// it was parked before (its class is back: Initialize runs, no "added" outcomes).
    struct Planned {
        ScriptSnapshot* saved = nullptr;
        const ScriptClassInfo* info = nullptr;
        bool revived = false;
    };

    static std::unexpected<SwapFailure> fail(std::string phase, const Error& error) {
        return std::unexpected(SwapFailure{std::move(phase), error.message});
    }

    [[nodiscard]] std::size_t scriptSlots() const {
        std::size_t slots = 0;
        for (ObjectId entity : world_.entities())
            slots += world_.entity(entity)->scripts.size();
        return slots;
    }

    // The carry plan for `className` (consecutive scripts are often one class: cached).
    const FieldCarryPlan& planFor(const std::string& className) {
        if (lastPlan_ == nullptr || lastPlan_->className != className)
            lastPlan_ = &next_.carryPlan(current_, className);
        return *lastPlan_;
    }

    // Step 1. A script whose class keeps its fields (same names and shapes; new fields are
    // fine) is carried straight from its old instance into its new one in step 3, with no
    // snapshot Values in between; the rest (parked slots, parked values, renamed, converted
    // or removed fields) goes through the snapshot and the migration rules.
    Result<void> snapshotCurrent() {
        host_.drainDestroyQueues();
        const std::size_t slots = scriptSlots();
        saved_.scripts.reserve(slots);
        direct_.reserve(slots);
        next_.reserve(slots);
        // Plans whose uncarried fields are noted: a set, since a scan of those noted so far at
        // every slot is quadratic in the script classes (2,000 in bench_edit_to_live's project).
        std::unordered_set<const FieldCarryPlan*> noted;
        for (ObjectId entity : world_.entities()) {
            for (ObjectId slot : world_.entity(entity)->scripts) {
                const ScriptSlot* s = world_.script(slot);
                if (s->native)
                    continue; // its object is native: a script reload leaves it alone
                if (s->parked) {
                    saved_.scripts.push_back(host_.parked().scripts.at(slot));
                    direct_.push_back(nullptr);
                    continue;
                }
                const FieldCarryPlan& plan = planFor(s->className);
                if (plan.direct && !host_.parked().fields.contains(slot)) {
                    if (!plan.notCarried.empty() && noted.insert(&plan).second) {
                        for (const std::string& field : plan.notCarried)
                            noteNotCarried(saved_.notCarried, s->className, field);
                    }
                    // No name either: the plan has it (and a copy per script would cost).
                    saved_.scripts.push_back(ScriptSnapshot{slot, entity, {}, {}});
                    direct_.push_back(&plan);
                    continue;
                }
                if (auto read = snapshotScript(current_, slot, entity, s->className, saved_); !read)
                    return read;
                direct_.push_back(nullptr);
            }
        }
        if (auto statics = snapshotStatics(current_, saved_); !statics)
            return statics;
        for (const std::string& field : saved_.notCarried) {
            report_.warnings.push_back(
                field + " is of a type reloads cannot carry yet: it restarts from its default");
        }
        return {};
    }

    // Step 2. Instances for the same ids, in the same order (those instantiateAhead made are
    // kept). A slot whose class the new code lacks is parked with everything it had.
    Result<void> instantiateAll() {
        plan_.reserve(saved_.scripts.size());
        const ScriptClassInfo* lastInfo = nullptr;
        for (std::size_t k = 0; k < saved_.scripts.size(); ++k) {
            ScriptSnapshot& ss = saved_.scripts[k];
            const std::string& className = direct_[k] ? direct_[k]->className : ss.className;
            const ScriptClassInfo* info = lastInfo != nullptr && lastInfo->name == className
                                              ? lastInfo
                                              : next_.findScriptClass(className);
            if (info != nullptr && info->name != className)
                info = nullptr; // a short-name match is not the same class
            if (info != nullptr)
                lastInfo = info;
            const bool wasParked = world_.script(ss.script)->parked;
            if (info == nullptr) {
                staged_.scripts.emplace(ss.script, ss);
                report_.missingClasses.push_back(
                    fmt::format("{} {}: {}", ss.className, ss.script.toString(),
                                next_.explainMissingClass(ss.className)));
                ++report_.parked;
                plan_.push_back({&ss, nullptr, false});
                continue;
            }
            if (wasParked || !next_.hasInstance(ss.script, info->name)) {
                if (auto made = next_.instantiate(ss.script, ss.entity, info->name); !made)
                    return made;
            }
            plan_.push_back({&ss, info, wasParked});
        }
        discardUnplanned();
        return {};
    }

    // Instances made ahead for slots that went away since (destroyed, removed): freed. Every
    // planned slot has one, so there are none to free when the counts agree (the usual case).
    void discardUnplanned() {
        const auto planned = static_cast<std::size_t>(
            std::ranges::count_if(plan_, [](const Planned& p) { return p.info != nullptr; }));
        if (next_.instanceCount() == planned)
            return;
        std::unordered_set<ObjectId> keep;
        keep.reserve(planned);
        for (const Planned& p : plan_) {
            if (p.info != nullptr)
                keep.insert(p.saved->script);
        }
        next_.discardInstancesExcept([&](ObjectId slot) { return keep.contains(slot); });
    }

    // Step 3. Every instantiated script's fields: carried directly, or by the migration
    // rules from its snapshot and what was parked on it.
    Result<void> restoreFields() {
        std::vector<ClearedRefs> cleared;
        for (std::size_t k = 0; k < plan_.size(); ++k) {
            const Planned& p = plan_[k];
            if (p.info == nullptr)
                continue;
            auto restored = direct_[k] ? carryDirectly(p, *direct_[k], cleared) : migrate(p);
            if (!restored)
                return restored;
            ++(p.revived ? report_.created : report_.restored);
        }
        return {};
    }

    Result<void> carryDirectly(const Planned& p, const FieldCarryPlan& carry,
                               std::vector<ClearedRefs>& cleared) {
        const ObjectId script = p.saved->script;
        cleared.clear();
        if (auto carried = next_.carryFields(current_, script, carry, usable_, cleared); !carried)
            return carried;
        if (carry.added.empty() && cleared.empty())
            return {};
        std::vector<std::pair<std::size_t, std::size_t>> clearedFields;
        clearedFields.reserve(cleared.size());
        for (const ClearedRefs& c : cleared)
            clearedFields.emplace_back(c.field, c.count);
        for (FieldOutcome& outcome :
             directCarryOutcomes(script, *p.info, carry.added, clearedFields))
            outcomes_.push_back(std::move(outcome));
        return {};
    }

    Result<void> migrate(const Planned& p) {
        const ObjectId script = p.saved->script;
        std::vector<FieldSnapshot> parkedHere;
        if (auto it = staged_.fields.find(script); it != staged_.fields.end()) {
            parkedHere = std::move(it->second);
            staged_.fields.erase(it);
        }
        FieldMigration migration = migrateFields(script, *p.info, std::move(p.saved->fields),
                                                 std::move(parkedHere), p.revived, usable_);
        for (const FieldWrite& write : migration.writes) {
            if (auto written = next_.setFieldAt(script, write.index, write.value); !written)
                return written;
        }
        // Gained record members kept what the new code constructed: the report says what.
        describeKeptDefaults(migration.outcomes, *p.info, [&](const FieldInfo& field) {
            return next_.getField(script, field.name);
        });
        for (FieldOutcome& outcome : migration.outcomes)
            outcomes_.push_back(std::move(outcome));
        if (!migration.parked.empty())
            staged_.fields[script] = std::move(migration.parked);
        return {};
    }

    // Preserved statics: each class is initialised first, so its static constructor cannot
    // later overwrite what is restored.
    Result<void> restoreStatics() {
        for (const ScriptClassInfo* withStatics : next_.classesWithPreservedStatics()) {
            const ScriptClassInfo& info = *withStatics;
            if (auto init = next_.initializeClass(info.name); !init)
                return init;
            auto old =
                std::find_if(saved_.statics.rbegin(), saved_.statics.rend(),
                             [&](const StaticSnapshot& s) { return s.className == info.name; });
            if (old == saved_.statics.rend())
                continue;
            for (const FieldInfo& field : info.preservedStatics) {
                auto source =
                    std::find_if(old->fields.begin(), old->fields.end(),
                                 [&](const FieldSnapshot& f) { return f.name == field.name; });
                if (source == old->fields.end())
                    continue;
                auto value = migrateStatic(*source, field, usable_);
                if (!value) {
                    report_.warnings.push_back(fmt::format("static {}.{}: {}; default kept",
                                                           info.name, field.name,
                                                           value.error().message));
                    continue;
                }
                if (auto written = next_.setStatic(info.name, field.name, *value); !written)
                    return written;
            }
        }
        return {};
    }

    // Step 4. Schedule (Initialize only for revived slots), carry the running behaviour
    // (delegates, then coroutines: a coroutine may raise an event), then the scripts' own hook,
    // which sees both.
    Result<void> attachAndRunHooks() {
        for (const Planned& p : plan_) {
            if (p.info == nullptr)
                continue;
            if (auto attached = next_.attach(p.saved->script, /*runInitialize*/ p.revived);
                !attached)
                return attached;
        }
        carryDelegates();
        carryCoroutines();
        auto hooks = next_.runAfterReload();
        if (!hooks) { // rolled back: nothing was carried after all
            report_.delegates.clear();
            report_.coroutines.clear();
        }
        return hooks;
    }

    // A delegate that cannot be rebound is dropped and named; a failure of the whole step
    // (ScriptCore threw) drops them all, named as a warning: the reload itself goes on.
    void carryDelegates() {
        auto carried = next_.carryDelegates(current_);
        if (!carried) {
            report_.warnings.push_back("the scripts' delegates (event subscriptions) could not be "
                                       "carried and start empty: " +
                                       carried.error().message);
            return;
        }
        report_.delegates = std::move(*carried);
    }

    // Every coroutine of the old generation gets an outcome; when the step itself fails, each
    // is named as stopped with the reason.
    void carryCoroutines() {
        auto carried = next_.carryCoroutines(current_);
        if (carried) {
            report_.coroutines = std::move(*carried);
            return;
        }
        auto running = current_.coroutines();
        if (!running) {
            report_.warnings.push_back("the running coroutines could not be carried (" +
                                       carried.error().message + ") nor listed (" +
                                       running.error().message + "): they stopped");
            return;
        }
        for (const CoroutineInfo& c : *running) {
            const ScriptSlot* slot = world_.script(c.script);
            report_.coroutines.push_back({c.script, slot ? slot->className : std::string("script"),
                                          c.method, CoroutineOutcome::Kind::Stopped,
                                          "carrying failed: " + carried.error().message});
        }
    }

    // The old generation's awaits in flight do not come along: named, never silent.
    void noteCancelledAwaits() {
        auto awaits = current_.inFlightAwaits();
        if (!awaits) {
            report_.warnings.push_back("could not list the awaits in flight: " +
                                       awaits.error().message);
            return;
        }
        report_.cancelledAwaits = std::move(*awaits);
    }

    // Step 5.
    std::unique_ptr<ScriptDomain> commit() {
        report_.fields = std::move(outcomes_);
        std::unique_ptr<ScriptDomain> old =
            host_.adoptGeneration(std::move(nextOwner_), std::move(staged_));
        for (const Planned& p : plan_) {
            ScriptSlot* slot = world_.script(p.saved->script);
            slot->parked = p.info == nullptr;
            if (!slot->enabled && !slot->parked) {
                slot->enabled = true; // new code: a fresh chance
                ++report_.reenabled;
            }
            host_.failures().forget(p.saved->script);
        }
        releaseUnreferenced();
        return old;
    }

    // Script-owned entities that nothing in the new generation refers to can never be
    // reached again except by name: release them as the collector would have.
    void releaseUnreferenced() {
        std::vector<ObjectId> unreferenced;
        for (ObjectId id : world_.entities()) {
            if (world_.entity(id)->ownedByScripts && !host_.domain()->hasLiveProxy(id) &&
                !host_.referencedByNativeScript(id))
                unreferenced.push_back(id);
        }
        for (ObjectId id : unreferenced) {
            if (host_.destroyEntity(id))
                ++report_.released;
        }
    }

    ScriptHost& host_;
    World& world_;
    ScriptDomain& current_;
    std::unique_ptr<ScriptDomain>& nextOwner_;
    ScriptDomain& next_;
    ReloadReport& report_;
    ParkedState staged_;
    std::function<bool(ObjectId)> usable_;
    Snapshot saved_;
    std::vector<const FieldCarryPlan*> direct_; // parallel to saved_.scripts; null: snapshot
    std::vector<Planned> plan_;                 // parallel to saved_.scripts
    std::vector<FieldOutcome> outcomes_;
    const FieldCarryPlan* lastPlan_ = nullptr;
};

} // namespace

Result<void> instantiateAhead(ScriptHost& host, ScriptDomain& next) {
    ScriptWatchdog::Scope watched("a reload (constructors)");
    ScriptContextBinding bind(host.context());
    World& world = host.world();
    const ScriptClassInfo* info = nullptr;
    for (ObjectId entity : world.entities()) {
        for (ObjectId slot : world.entity(entity)->scripts) {
            const ScriptSlot* s = world.script(slot);
            if (s->parked || s->native)
                continue;
            if (info == nullptr || info->name != s->className) {
                info = next.findScriptClass(s->className);
                if (info != nullptr && info->name != s->className)
                    info = nullptr; // a short-name match is not the same class
            }
            if (info == nullptr)
                continue; // the swap parks it
            if (auto constructed = next.instantiate(slot, entity, info->name); !constructed)
                return constructed;
        }
    }
    return {};
}

std::expected<std::unique_ptr<ScriptDomain>, SwapFailure>
swapGeneration(ScriptHost& host, std::unique_ptr<ScriptDomain>& next, ReloadReport& report) {
    if (host.domain() == nullptr)
        return std::unexpected(SwapFailure{"load", "no scripts are loaded yet"});
    ScriptWatchdog::Scope watched("a reload (constructors, restore, OnAfterReload)");
    ScriptContextBinding bind(host.context());
    report.fromGeneration = host.domain()->generation();
    return GenerationSwap(host, next, report).run();
}

} // namespace scripthost
