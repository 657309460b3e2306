// ScriptHost::reload — the transactional hot-reload procedure (DESIGN.md, "A reload,
// step by step"). Generation N keeps running untouched until N+1 is complete.
#include "host/script_host.hpp"
#include "host/value_conversion.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Records "Class.field (Type)" once in `notCarried`.
void noteNotCarried(std::vector<std::string>& notCarried, const std::string& className,
                    const std::string& field) {
    std::string entry = className + "." + field;
    if (std::find(notCarried.begin(), notCarried.end(), entry) == notCarried.end())
        notCarried.push_back(std::move(entry));
}

// Reads a live script's fields into `snap` (the snapshot path of a reload).
Result<void> snapshotScript(ScriptDomain& domain, ObjectId slot, ObjectId entity,
                            const std::string& className, Snapshot& snap) {
    std::vector<std::string> skipped;
    auto fields = domain.readFields(slot, &skipped);
    for (const std::string& field : skipped)
        noteNotCarried(snap.notCarried, className, field);
    if (!fields)
        return std::unexpected(fields.error());
    snap.scripts.push_back(ScriptSnapshot{slot, entity, className, std::move(*fields)});
    return {};
}

// The [PreserveStatic] fields of every class that has some.
Result<void> snapshotStatics(ScriptDomain& domain, Snapshot& snap) {
    for (const ScriptClassInfo& info : domain.scriptClasses()) {
        if (info.preservedStatics.empty())
            continue;
        if (auto init = domain.initializeClass(info.name); !init) {
            return std::unexpected(init.error());
        }
        StaticSnapshot statics{info.name, {}};
        for (const FieldInfo& field : info.preservedStatics) {
            if (field.type.kind == ValueKind::Unsupported)
                continue;
            auto value = domain.getStatic(info.name, field.name);
            if (!value)
                return std::unexpected(value.error());
            statics.fields.push_back(FieldSnapshot{field.name, field.type, std::move(*value)});
        }
        snap.statics.push_back(std::move(statics));
    }
    return {};
}

template <typename Fields> auto* findSaved(Fields& fields, const std::string& name) {
    for (auto& f : fields) {
        if (f.name == name)
            return &f;
    }
    return static_cast<decltype(&fields[0])>(nullptr);
}

void eraseSaved(std::vector<FieldSnapshot>& fields, const std::string& name) {
    std::erase_if(fields, [&](const FieldSnapshot& f) { return f.name == name; });
}

// Parks `field` (replacing an older parked value of the same name).
void park(std::vector<FieldSnapshot>& parked, const FieldSnapshot& field) {
    eraseSaved(parked, field.name);
    parked.push_back(field);
}

} // namespace

const ScriptSnapshot* ScriptHost::parkedScript(ObjectId script) const {
    auto it = parkedScripts_.find(script);
    return it == parkedScripts_.end() ? nullptr : &it->second;
}

const std::vector<FieldSnapshot>* ScriptHost::parkedFields(ObjectId script) const {
    auto it = parkedFields_.find(script);
    return it == parkedFields_.end() ? nullptr : &it->second;
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
                snap.scripts.push_back(parkedScripts_.at(slot));
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

Result<PreparedGeneration> ScriptHost::prepareGeneration(const AssemblyFile& scripts) {
    const auto started = Clock::now();
    auto created = ScriptDomain::create(nextGeneration_++, scriptCore_, scripts, world_);
    if (!created)
        return std::unexpected(created.error());
    // Plan how each class's fields carry and make the proxies today's references will
    // need: now, not in the swap's frame. (The swap re-checks everything: what changed in
    // between is still carried.) Sizing the new generation's maps for today's scripts is
    // the warm stage's first slice.
    std::size_t scriptCount = 0;
    for (ObjectId entity : world_.entities())
        scriptCount += world_.entity(entity)->scripts.size();
    if (domain_) {
        ScriptContextBinding bind(context_);
        const FieldCarryPlan* lastPlan = nullptr;
        for (ObjectId entity : world_.entities()) {
            for (ObjectId slot : world_.entity(entity)->scripts) {
                const ScriptSlot* s = world_.script(slot);
                if (s->parked)
                    continue;
                const FieldCarryPlan* plan =
                    lastPlan != nullptr && lastPlan->className == s->className
                        ? lastPlan
                        : &(*created)->carryPlan(*domain_, s->className);
                lastPlan = plan;
                if (plan->direct)
                    (*created)->prepareCarry(*domain_, slot, *plan);
            }
        }
    }
    PreparedGeneration prepared{std::move(*created), msSince(started)};
    prepared.scripts = scriptCount;
    return prepared;
}

void ScriptHost::warmGeneration(PreparedGeneration& prepared, std::chrono::microseconds slice) {
    const auto started = Clock::now();
    if (!prepared.reserved) {
        // Size the dispatcher's maps for today's scripts (its first run JIT-compiles the
        // collections' code in the new domain: milliseconds, so a slice of its own).
        prepared.domain->reserve(prepared.scripts);
        prepared.reserved = true;
        if (slice != std::chrono::microseconds::max()) {
            prepared.warmMs += msSince(started);
            return;
        }
    }
    // JIT what the swap will call, so its frame does not pay.
    prepared.warmed = prepared.domain->warmUp(slice);
    prepared.warmMs += msSince(started);
}

ReloadReport ScriptHost::reload(const AssemblyFile& scripts, std::vector<std::string> trigger) {
    auto prepared = prepareGeneration(scripts);
    if (!prepared) {
        ReloadReport report;
        report.sequence = ++reloadCount_;
        report.trigger = std::move(trigger);
        report.fromGeneration = domain_ ? domain_->generation() : 0;
        report.failedPhase = "load";
        report.errors.push_back(prepared.error().message);
        return report;
    }
    warmGeneration(*prepared);
    ReloadReport report = completeReload(std::move(*prepared), std::move(trigger));
    finishPendingUnload(report);
    return report;
}

void ScriptHost::finishPendingUnload(ReloadReport& report) {
    if (!pendingUnload_)
        return;
    const auto phase = Clock::now();
    // The main thread only lets go of the old generation; Mono's unload runs on the
    // unloader thread while the loop goes on. Earlier unloads that failed are reported.
    pendingUnload_->unloadInBackground();
    pendingUnload_.reset();
    for (std::string& failure : ScriptDomain::takeUnloadFailures())
        report.warnings.push_back(std::move(failure));
    report.unloadMs = msSince(phase);
    report.totalMs += report.unloadMs;
}

ReloadReport ScriptHost::completeReload(PreparedGeneration prepared,
                                        std::vector<std::string> trigger) {
    ScriptWatchdog::Scope watched("a reload (constructors, restore, OnAfterReload)");
    ReloadReport report;
    report.sequence = ++reloadCount_;
    report.trigger = std::move(trigger);
    report.loadMs = prepared.loadMs;
    report.warmMs = prepared.warmMs;
    std::unique_ptr<ScriptDomain> next = std::move(prepared.domain);
    report.toGeneration = next->generation();
    const auto started = Clock::now();
    auto failWith = [&](std::string phase, std::string error) -> ReloadReport& {
        report.success = false;
        report.failedPhase = std::move(phase);
        report.errors.push_back(std::move(error));
        report.totalMs = report.loadMs + report.warmMs + msSince(started);
        return report;
    };
    auto rollback = [&](std::string phaseName, std::string error) -> ReloadReport& {
        next->unloadInBackground(); // the old generation goes on meanwhile
        next.reset();
        report.fields.clear();
        return failWith(std::move(phaseName), std::move(error));
    };
    if (!domain_) {
        return rollback("load", "no scripts are loaded yet");
    }
    finishPendingUnload(report); // a previous reload's old generation, if still pending
    report.unloadMs = 0;
    report.fromGeneration = domain_->generation();

    // a. Settle the old generation and snapshot what cannot be carried directly. A
    // script whose class keeps its fields (same names and shapes; new fields are fine)
    // is carried straight from its old instance into its new one at step d, with no
    // snapshot Values in between; the rest (parked slots, parked values, renamed,
    // converted or removed fields) goes through the snapshot and the rules below.
    drainDestroyQueues();
    auto phase = Clock::now();
    ScriptContextBinding bindOld(context_);
    std::optional<Snapshot> saved(std::in_place);
    std::vector<const FieldCarryPlan*> direct; // parallel to saved->scripts; null: snapshot
    {
        std::size_t scripts = 0;
        for (ObjectId entity : world_.entities())
            scripts += world_.entity(entity)->scripts.size();
        saved->scripts.reserve(scripts);
        direct.reserve(scripts);
        next->reserve(scripts);
    }
    const FieldCarryPlan* lastPlan = nullptr; // consecutive scripts are often one class
    std::vector<const FieldCarryPlan*> notedPlans;
    for (ObjectId entity : world_.entities()) {
        for (ObjectId slot : world_.entity(entity)->scripts) {
            const ScriptSlot* s = world_.script(slot);
            if (s->parked) {
                saved->scripts.push_back(parkedScripts_.at(slot));
                direct.push_back(nullptr);
                continue;
            }
            const FieldCarryPlan* plan = lastPlan != nullptr && lastPlan->className == s->className
                                             ? lastPlan
                                             : &next->carryPlan(*domain_, s->className);
            lastPlan = plan;
            if (plan->direct && !parkedFields_.contains(slot)) {
                if (std::find(notedPlans.begin(), notedPlans.end(), plan) == notedPlans.end()) {
                    notedPlans.push_back(plan);
                    for (const std::string& field : plan->notCarried)
                        noteNotCarried(saved->notCarried, s->className, field);
                }
                // No name either: the plan has it (and a copy per script would cost).
                saved->scripts.push_back(ScriptSnapshot{slot, entity, {}, {}});
                direct.push_back(plan);
                continue;
            }
            if (auto read = snapshotScript(*domain_, slot, entity, s->className, *saved); !read)
                return rollback("snapshot", read.error().message);
            direct.push_back(nullptr);
        }
    }
    if (auto statics = snapshotStatics(*domain_, *saved); !statics) {
        return rollback("snapshot", statics.error().message);
    }
    report.snapshotMs = msSince(phase);
    for (const std::string& field : saved->notCarried) {
        report.warnings.push_back(
            field + " is of a type reloads cannot carry yet: it restarts from its default");
    }

    phase = Clock::now();

    // c. Instances for the same ids, in the same order. What the new code lacks is parked.
    struct Planned {
        ScriptSnapshot* saved;
        const ScriptClassInfo* info; // null: parked
        bool revived;                // parked before, class back now: Initialize runs
    };
    std::vector<Planned> plan;
    plan.reserve(saved->scripts.size());
    auto stagedParkedScripts = std::unordered_map<ObjectId, ScriptSnapshot>{};
    auto stagedParkedFields = parkedFields_;
    const ScriptClassInfo* lastInfo = nullptr; // consecutive scripts are often one class
    for (std::size_t k = 0; k < saved->scripts.size(); ++k) {
        ScriptSnapshot& ss = saved->scripts[k];
        const std::string& className = direct[k] ? direct[k]->className : ss.className;
        const ScriptClassInfo* info = lastInfo != nullptr && lastInfo->name == className
                                          ? lastInfo
                                          : next->findScriptClass(className);
        if (info != nullptr && info->name != className) {
            info = nullptr; // a short-name match is not the same class
        }
        if (info != nullptr)
            lastInfo = info;
        const bool wasParked = world_.script(ss.script)->parked;
        if (info == nullptr) {
            stagedParkedScripts.emplace(ss.script, ss);
            const std::string why = next->explainMissingClass(ss.className);
            report.missingClasses.push_back(
                fmt::format("{} {}: {}", ss.className, ss.script.toString(), why));
            ++report.parked;
            plan.push_back({&ss, nullptr, false});
            continue;
        }
        if (auto made = next->instantiate(ss.script, ss.entity, info->name); !made) {
            return rollback("instantiate", made.error().message);
        }
        plan.push_back({&ss, info, wasParked});
    }

    // d. Restore fields by name (or former name), converting safely, parking the rest.
    const std::function<bool(ObjectId)> usable = [&](ObjectId id) {
        if (!world_.isAlive(id))
            return false;
        return !(world_.kindOf(id) == ObjectKind::Script && stagedParkedScripts.contains(id));
    };
    std::vector<FieldOutcome> outcomes;
    std::vector<ClearedRefs> clearedRefs;
    for (std::size_t k = 0; k < plan.size(); ++k) {
        const Planned& p = plan[k];
        if (p.info == nullptr)
            continue;
        ScriptSnapshot& ss = *p.saved;
        if (const FieldCarryPlan* carry = direct[k]) {
            clearedRefs.clear();
            if (auto carried = next->carryFields(*domain_, ss.script, *carry, usable, clearedRefs);
                !carried) {
                return rollback("restore", carried.error().message);
            }
            // The outcomes the snapshot path would report, in field order.
            auto a = carry->added.begin();
            auto c = clearedRefs.begin();
            while (a != carry->added.end() || c != clearedRefs.end()) {
                if (c == clearedRefs.end() || (a != carry->added.end() && *a < c->field)) {
                    outcomes.push_back({ss.script, p.info->name, p.info->fields[*a].name,
                                        FieldOutcome::Kind::Added,
                                        "new field: constructor default"});
                    ++a;
                } else {
                    outcomes.push_back(
                        {ss.script, p.info->name, p.info->fields[c->field].name,
                         FieldOutcome::Kind::Cleared,
                         fmt::format("{} reference(s) to objects that no longer exist set to null",
                                     c->count)});
                    ++c;
                }
            }
            ++report.restored;
            continue;
        }
        std::vector<FieldSnapshot> pool = std::move(ss.fields); // the snapshot is consumed here
        std::vector<FieldSnapshot> parkedHere;
        if (auto it = stagedParkedFields.find(ss.script); it != stagedParkedFields.end()) {
            parkedHere = std::move(it->second);
            stagedParkedFields.erase(it);
        }
        auto note = [&](const FieldInfo& f, FieldOutcome::Kind kind, std::string detail) {
            outcomes.push_back({ss.script, p.info->name, f.name, kind, std::move(detail)});
        };
        for (const FieldInfo& field : p.info->fields) {
            FieldSnapshot* source = findSaved(pool, field.name);
            FieldOutcome::Kind how = FieldOutcome::Kind::Converted;
            bool fromParked = false;
            std::string fromName = field.name;
            std::string displacedNote;
            if (source == nullptr) {
                for (const std::string& former : field.formerNames) {
                    if ((source = findSaved(pool, former))) {
                        how = FieldOutcome::Kind::Renamed;
                        fromName = former;
                        break;
                    }
                }
            }
            // A value parked when the field's type changed comes back when the type
            // changes back: prefer it over a current value that would need converting.
            if (source != nullptr && !sameShape(source->type, field.type)) {
                if (const FieldSnapshot* parkedValue = findSaved(parkedHere, field.name);
                    parkedValue != nullptr && sameShape(parkedValue->type, field.type)) {
                    // The displaced value is the default kept at the type change (or
                    // an edit made while the type was different): the report names it.
                    displacedNote = fmt::format(" (replaces {} {})", source->type.typeName,
                                                describe(source->value));
                    eraseSaved(pool, field.name);
                    pool.push_back(*parkedValue);
                    eraseSaved(parkedHere, field.name);
                    source = findSaved(pool, field.name);
                    how = FieldOutcome::Kind::Unparked;
                }
            }
            if (source == nullptr) {
                for (const std::string& name : [&] {
                         std::vector<std::string> names{field.name};
                         names.insert(names.end(), field.formerNames.begin(),
                                      field.formerNames.end());
                         return names;
                     }()) {
                    if ((source = findSaved(parkedHere, name))) {
                        how = FieldOutcome::Kind::Unparked;
                        fromName = name;
                        fromParked = true;
                        break;
                    }
                }
            }
            if (source == nullptr) {
                if (!p.revived)
                    note(field, FieldOutcome::Kind::Added, "new field: constructor default");
                continue;
            }
            // Taken out of its pool (by position: a moved-from entry has no name left).
            std::vector<FieldSnapshot>& from = fromParked ? parkedHere : pool;
            const auto at = from.begin() + (source - from.data());
            FieldSnapshot consumed = std::move(*at);
            from.erase(at);
            Value value;
            if (sameShape(consumed.type, field.type)) {
                value = std::move(consumed.value);
            } else {
                auto converted = convertValue(consumed.value, consumed.type, field.type);
                if (!converted) {
                    park(parkedHere, consumed);
                    note(field, FieldOutcome::Kind::Kept,
                         fmt::format("{} {} cannot become {}: {}; default kept, old value parked",
                                     kindName(consumed.type.kind), describe(consumed.value),
                                     field.type.typeName, converted.error().message));
                    continue;
                }
                value = std::move(*converted);
                if (how == FieldOutcome::Kind::Converted) {
                    note(field, how,
                         fmt::format("{} {} -> {} {}", consumed.type.typeName,
                                     describe(consumed.value), field.type.typeName,
                                     describe(value)));
                }
            }
            if (how == FieldOutcome::Kind::Renamed) {
                note(field, how, "from " + fromName);
            } else if (how == FieldOutcome::Kind::Unparked) {
                note(field, how, "parked value restored" + displacedNote);
            }
            if (const std::size_t cleared = clearReferences(value, usable)) {
                note(field, FieldOutcome::Kind::Cleared,
                     fmt::format("{} reference(s) to objects that no longer exist set to null",
                                 cleared));
            }
            const auto fieldIndex = static_cast<std::size_t>(&field - p.info->fields.data());
            if (auto written = next->setFieldAt(ss.script, fieldIndex, value); !written) {
                return rollback("restore", written.error().message);
            }
        }
        // Whatever the new class has no field for is parked on the slot.
        for (const FieldSnapshot& gone : pool) {
            park(parkedHere, gone);
            outcomes.push_back({ss.script, p.info->name, gone.name, FieldOutcome::Kind::Removed,
                                "no such field any more: value parked"});
        }
        if (!parkedHere.empty())
            stagedParkedFields[ss.script] = std::move(parkedHere);
        ++(p.revived ? report.created : report.restored);
    }

    // Preserved statics: initialise each class first, so its static constructor cannot
    // later overwrite what is restored.
    for (const ScriptClassInfo& info : next->scriptClasses()) {
        if (info.preservedStatics.empty())
            continue;
        if (auto init = next->initializeClass(info.name); !init) {
            return rollback("restore", init.error().message);
        }
        const StaticSnapshot* old = nullptr;
        for (const StaticSnapshot& s : saved->statics) {
            if (s.className == info.name)
                old = &s;
        }
        if (old == nullptr)
            continue;
        for (const FieldInfo& field : info.preservedStatics) {
            const FieldSnapshot* source = findSaved(old->fields, field.name);
            if (source == nullptr)
                continue;
            auto value = sameShape(source->type, field.type)
                             ? Result<Value>(source->value)
                             : convertValue(source->value, source->type, field.type);
            if (!value) {
                report.warnings.push_back(fmt::format("static {}.{}: {}; default kept", info.name,
                                                      field.name, value.error().message));
                continue;
            }
            clearReferences(*value, usable);
            if (auto written = next->setStatic(info.name, field.name, *value); !written) {
                return rollback("restore", written.error().message);
            }
        }
    }
    report.restoreMs = msSince(phase);

    // e. Schedule, then the scripts' own after-reload hook.
    phase = Clock::now();
    for (const Planned& p : plan) {
        if (p.info == nullptr)
            continue;
        if (auto attached = next->attach(p.saved->script, /*runInitialize*/ p.revived); !attached) {
            return rollback("hooks", attached.error().message);
        }
    }
    if (auto hooked = next->runAfterReload(); !hooked) {
        return rollback("hooks", hooked.error().message);
    }
    report.hooksMs = msSince(phase);

    // Commit: from here on nothing can fail the reload.
    report.fields = std::move(outcomes);
    pendingUnload_ = std::move(domain_); // unloaded by finishPendingUnload, maybe a frame later
    domain_ = std::move(next);
    for (const Planned& p : plan) {
        ScriptSlot* slot = world_.script(p.saved->script);
        slot->parked = p.info == nullptr;
        if (!slot->enabled && !slot->parked) {
            slot->enabled = true; // new code: a fresh chance
            ++report.reenabled;
        }
        failures_.forget(p.saved->script);
    }
    parkedScripts_ = std::move(stagedParkedScripts);
    parkedFields_ = std::move(stagedParkedFields);

    // Script-owned entities that nothing in the new generation refers to can never be
    // reached again except by name: release them as the collector would have.
    std::vector<ObjectId> unreferenced;
    for (ObjectId id : world_.entities()) {
        if (world_.entity(id)->ownedByScripts && !domain_->hasLiveProxy(id))
            unreferenced.push_back(id);
    }
    for (ObjectId id : unreferenced) {
        if (destroyEntity(id))
            ++report.released;
    }

    report.success = true;
    report.totalMs = report.loadMs + report.warmMs + msSince(started);
    return report;
}

} // namespace scripthost
