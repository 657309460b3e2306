#pragma once
// ScriptDomain::Impl: one generation's parts, one per Mono concept. The ScriptDomain
// facade's members are defined next to the part they use (script_domain*.cpp).

#include "carry/carry_plan.hpp"
#include "domain/object_bridge.hpp"
#include "field_access.hpp"
#include "host/domain/script_domain.hpp"
#include "host/model/world.hpp"
#include "managed_dispatcher.hpp"
#include "runtime/generation_domain.hpp"
#include "script_class_registry.hpp"
#include "script_core_classes.hpp"
#include "script_instances.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <future>
#include <memory>
#include <span>
#include <string>

namespace scripthost {

struct ScriptDomain::Impl {
    std::uint32_t generation = 0;
    const World* world = nullptr; ///< what ids mean when references are marshaled

    mono::GenerationDomain domain; ///< the app domain and the assemblies loaded into it
    MonoImage* coreImage = nullptr;
    mono::ScriptImages scripts; ///< the scripts assemblies, in dependency order

    mono::ScriptCoreClasses core;               ///< ScriptCore's classes in this domain
    mono::ManagedDispatcher dispatcher;         ///< ScriptRuntime's thunks
    mono::ScriptClassRegistry classes;          ///< the script classes
    std::unique_ptr<mono::ObjectBridge> bridge; ///< ids ↔ proxies and instances
    mono::ScriptInstances instances;
    mono::CarryPlans carryPlans;  ///< against the generation this one replaces
    std::size_t warmStep = 0;     ///< how far warmUp has come
    bool scriptsComplete = false; ///< loadScripts has run (the bridge and classes are made)
    /// Assemblies by folder, in a domain made ahead (script_domain_preload.cpp): those queued
    /// to load ahead, and those loaded (their bytes, for fits()), with their images.
    std::vector<AssemblyFile> preloadQueue;
    std::vector<AssemblyFile> preloaded;
    std::vector<MonoImage*> preloadedImages;
    std::size_t plannedAhead = 0; ///< classes whose carry plans preloadStep has made
    /// The warm-up of ScriptCore's own code (jit_warm_up.cpp), running on the warm-up worker
    /// thread while the loop ticks: ready when it has run.
    std::future<void> backgroundWarm;
    /// Script classes warmed by two threads (warmClassesUntil): the main thread and the warm-up
    /// worker each take the next class of `sharedWarm` from `sharedWarmNext` until none is left.
    std::vector<const mono::ScriptClassEntry*> sharedWarm;
    std::atomic<std::size_t> sharedWarmNext = 0;
    std::future<void> sharedWarmHelper; ///< the worker's part: ready when it has no class left

    Impl() = default;
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    /// Unloads the domain if it is still loaded (a warning when that fails).
    ~Impl();

    /// Loads ScriptCore and binds its classes and the dispatcher (create's first half).
    [[nodiscard]] Result<void> loadScriptCore(const AssemblyFile& scriptCore);
    /// Loads the scripts assemblies (in dependency order), checks them for forbidden calls,
    /// makes the object bridge and finds the script classes (create's second half).
    [[nodiscard]] Result<void> loadScripts(std::span<const AssemblyFile> assemblies);
    /// Loads one scripts assembly into the domain and checks it for forbidden calls; the
    /// game modules' component kinds it declares are added. (Its classes are not found.)
    [[nodiscard]] Result<MonoImage*> loadScriptAssembly(const AssemblyFile& file);
    /// JIT-warms, on this thread, classes found so far that are not warm yet (a domain made
    /// ahead: those of its preloaded assemblies) until `deadline`; true when all are.
    bool warmClassesUntil(std::chrono::steady_clock::time_point deadline);

    /// What marshaling values in this generation needs.
    [[nodiscard]] mono::MarshalContext marshal() const noexcept {
        return {domain.get(), world, bridge.get()};
    }
    /// The instance of `script`; an error when unloaded or when it has none.
    [[nodiscard]] Result<mono::ScriptInstance*> instance(ObjectId script);

    /// Starts ScriptCore's part of the warm-up on the warm-up worker (jit_warm_up.cpp), if
    /// it has not been started: it needs only ScriptCore, so a prepared domain starts it
    /// before it has scripts. `profiled`: then also what earlier generations compiled of
    /// corlib and ScriptCore (JitProfile) — a prepared domain has the time.
    void startBackgroundWarm(bool profiled);
    /// Waits for the background warm-up, if one was started (before anything it uses goes
    /// away).
    void joinBackgroundWarm() noexcept {
        if (backgroundWarm.valid())
            backgroundWarm.wait();
    }
    /// Stops the warm-up worker's share of the script classes (no class left for it to take)
    /// and waits for the class it is on (before the domain goes away).
    void stopSharedWarm() noexcept {
        if (sharedWarmHelper.valid()) {
            sharedWarmNext = sharedWarm.size();
            sharedWarmHelper.wait();
        }
    }
    /// Whether the background warm-up has run (false when it was never started).
    [[nodiscard]] bool backgroundWarmDone() const {
        return backgroundWarm.valid() &&
               backgroundWarm.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    }
    /// Drops everything this generation holds in its domain and hands the domain out for
    /// an unload; nullptr when already unloaded.
    [[nodiscard]] MonoDomain* release();
    /// release(), then the unload on this thread.
    [[nodiscard]] Result<void> unload();
};

} // namespace scripthost
