#pragma once
// ScriptDomain: one generation of script code — an app domain with ScriptCore and the
// game's scripts assembly loaded, and the script instances living in it.

#include "host/model/assembly_file.hpp"
#include "host/model/coroutine_info.hpp"
#include "host/model/reload_report.hpp"
#include "host/model/script_class_info.hpp"
#include "host/model/script_phase.hpp"
#include "host/model/snapshot.hpp"
#include "host/model/value.hpp"
#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

class World;

/// How one script class's [SerializeField] values go from the previous generation's
/// instances straight into this generation's (ScriptDomain::carryFields), worked out once
/// per class per reload. Direct only when the fields line up simply: every old field has
/// a new one of the same name and shape; new fields the old class lacks keep their
/// defaults. Anything else (renamed, converted, removed fields) takes the snapshot path.
struct FieldCarryPlan {
    std::string className;
    bool direct = false;                 ///< carryFields may be used
    std::vector<std::size_t> added;      ///< new fields (indices in this class's fields)
    std::vector<std::string> notCarried; ///< old fields reloads cannot carry: "field (Type)"
};

/// A field whose references carryFields set to null (their objects are gone or parked).
struct ClearedRefs {
    std::size_t field = 0; ///< index in the class's fields
    std::size_t count = 0;
};

/// One generation of script code. Creating generation N+1 while N is alive works (the
/// reload builds the new one beside the old). Every call enters this domain first and
/// every managed call's exception is checked. Main thread only.
class ScriptDomain {
public:
    /// Creates an app domain and loads ScriptCore then the scripts from their bytes (with
    /// symbols, under a name unique to this generation), and finds the script classes.
    /// `world` is what ids in reference fields mean; it must outlive the domain.
    /// On failure nothing is left behind: the half-made domain is unloaded.
    [[nodiscard]] static Result<std::unique_ptr<ScriptDomain>>
    create(std::uint32_t generation, const AssemblyFile& scriptCore, const AssemblyFile& scripts,
           World& world);
    /// The same with several scripts assemblies (assemblies by folder), in dependency order:
    /// each after the ones it references. One script class name in two of them is an error.
    [[nodiscard]] static Result<std::unique_ptr<ScriptDomain>>
    create(std::uint32_t generation, const AssemblyFile& scriptCore,
           std::span<const AssemblyFile> scripts, World& world);

    /// create()'s first half, made ahead of the reload that will use it: the app domain with
    /// ScriptCore loaded, and ScriptCore's part of warmUp (the domain's first JIT, ~15 ms of
    /// the warm stage) started on its thread at once. The reload then only loads the scripts
    /// into it (loadScripts). `expectedGeneration` names the domain; the generation is the
    /// one loadScripts is given. On failure nothing is left behind.
    [[nodiscard]] static Result<std::unique_ptr<ScriptDomain>>
    prepare(std::uint32_t expectedGeneration, const AssemblyFile& scriptCore, World& world);
    /// create()'s second half for a domain made by prepare(): becomes generation
    /// `generation`, loads the scripts and finds the script classes. Once; after a failure
    /// the domain is of no further use (drop it: it is unloaded).
    [[nodiscard]] Result<void> loadScripts(std::uint32_t generation, const AssemblyFile& scripts);
    [[nodiscard]] Result<void> loadScripts(std::uint32_t generation,
                                           std::span<const AssemblyFile> scripts);
    /// Whether the scripts are loaded (always, for a domain made by create()).
    [[nodiscard]] bool scriptsLoaded() const noexcept;

    /// Assemblies by folder: queues, on a domain made by prepare(), scripts assemblies the
    /// next reload is expected to reuse unchanged (in dependency order, each after those it
    /// references), for preloadStep to load, check for forbidden calls, find the classes of
    /// and JIT-warm ahead of the reload. The reload's loadScripts then loads only the others,
    /// and its warm stage compiles only their classes.
    void preload(std::vector<AssemblyFile> reused);
    /// Queued preload work, at most `slice` of it (an assembly's load is one step), on the
    /// main thread; back in the caller's domain after. Last, the carry plans of the classes
    /// loaded ahead against `running` (the generation the reload will replace; none: skipped).
    /// True when none is left. An error (an assembly that does not load, or calls what
    /// scripts may not) leaves the domain of no use: drop it.
    [[nodiscard]] Result<bool> preloadStep(std::chrono::microseconds slice,
                                           const ScriptDomain* running = nullptr);
    /// Whether loadScripts(`scripts`) can use this domain: every assembly loaded ahead is one
    /// of `scripts`, byte for byte (a loaded assembly cannot be replaced in its domain).
    [[nodiscard]] bool fits(std::span<const AssemblyFile> scripts) const;
    /// The names of the assemblies loaded ahead (preloadStep), in load order.
    [[nodiscard]] std::vector<std::string> preloadedAssemblies() const;

    ~ScriptDomain();
    ScriptDomain(const ScriptDomain&) = delete;
    ScriptDomain& operator=(const ScriptDomain&) = delete;

    [[nodiscard]] std::uint32_t generation() const noexcept;

    /// Script classes in the scripts assembly, sorted by name.
    [[nodiscard]] const std::vector<ScriptClassInfo>& scriptClasses() const;
    /// The script classes with [PreserveStatic] statics, sorted by name (what a swap carries;
    /// cheaper than scriptClasses() in a reload).
    [[nodiscard]] std::vector<const ScriptClassInfo*> classesWithPreservedStatics() const;
    /// The script class with this full (or, when unambiguous, short) name, or nullptr.
    [[nodiscard]] const ScriptClassInfo* findScriptClass(std::string_view name) const noexcept;
    /// Why `name` is not a usable script class: "no class …", "… does not derive from …".
    [[nodiscard]] std::string explainMissingClass(std::string_view name) const;

    /// Creates an instance of `className` for script slot `script` on `entity` by running
    /// its parameterless constructor. The instance is not scheduled until attach().
    [[nodiscard]] Result<void> instantiate(ObjectId script, ObjectId entity,
                                           std::string_view className);
    /// Whether `script` has an instance of `className` (its full name) here.
    [[nodiscard]] bool hasInstance(ObjectId script, std::string_view className) const;
    /// Frees every instance whose slot `keep` does not name (no Destroy runs: none was
    /// scheduled): a reload made them ahead for slots that are gone by the swap.
    void discardInstancesExcept(const std::function<bool(ObjectId)>& keep);
    /// Schedules an instantiated script; runs Initialize when `runInitialize`.
    /// (Initialize's own exceptions are reported as script failures, not returned.)
    [[nodiscard]] Result<void> attach(ObjectId script, bool runInitialize = true);
    /// Runs Destroy (its exceptions are reported as script failures) and frees the instance.
    [[nodiscard]] Result<void> detach(ObjectId script);
    /// Enables or disables a scheduled script.
    [[nodiscard]] Result<void> setEnabled(ObjectId script, bool enabled);
    /// Tells the scripts of `entity` that its activeInHierarchy is now `active` (set natively:
    /// a game module's or the control socket's SetActive or SetParent): OnEnable or OnDisable,
    /// coroutines stopped, as UEntity.SetActive does from C#.
    [[nodiscard]] Result<void> entityActiveChanged(ObjectId entity, bool active);

    /// One managed call per phase; the dispatcher iterates the scheduled scripts.
    [[nodiscard]] Result<void> runUpdate(float deltaTime, double time, std::int64_t frame);
    /// One fixed step of frame `frame` (the frame whose Update follows it).
    [[nodiscard]] Result<void> runFixedUpdate(float fixedDeltaTime, double time,
                                              std::int64_t frame);
    /// Scripts scheduled (and enabled) for Update or FixedUpdate (0 once unloaded); an
    /// error when the dispatcher throws.
    [[nodiscard]] Result<int> scheduledCount(ScriptPhase phase);
    /// The coroutines running now, in start order (none once unloaded).
    [[nodiscard]] Result<std::vector<CoroutineInfo>> coroutines();
    /// What a reload that replaced this generation now would cancel: each async void method
    /// suspended at an await ("Class.Method (async void) x N") and the continuations queued
    /// on the game loop. Their continuations never run: not in this generation's code, which
    /// is gone, nor in the new one's (an await's state cannot be carried exactly yet).
    [[nodiscard]] Result<std::vector<std::string>> inFlightAwaits();

    /// Reads / writes a [SerializeField] field of a script instance.
    [[nodiscard]] Result<Value> getField(ObjectId script, std::string_view field);
    [[nodiscard]] Result<void> setField(ObjectId script, std::string_view field,
                                        const Value& value);
    /// Writes the field at `index` in the class's ScriptClassInfo::fields (no name lookup).
    [[nodiscard]] Result<void> setFieldAt(ObjectId script, std::size_t index, const Value& value);
    /// Reads the fields at `indices` (in the class's ScriptClassInfo::fields) of one instance
    /// into `out` (as long as `indices`), looking the instance up once: what a field watch
    /// samples every tenth of a second.
    [[nodiscard]] Result<void> readFieldsAt(ObjectId script, std::span<const std::uint32_t> indices,
                                            std::span<Value> out);
    /// A script's instance, looked up once (opaque): readFieldsAt(InstanceRef, …) reads it
    /// again without the lookup while instancesVersion() is unchanged.
    struct InstanceRef {
        const void* instance = nullptr;
    };
    [[nodiscard]] Result<InstanceRef> findInstance(ObjectId script);
    /// Changes whenever an instance is freed (a script destroyed, the generation torn down):
    /// an InstanceRef found before may then be gone.
    [[nodiscard]] std::uint64_t instancesVersion() const noexcept;
    [[nodiscard]] Result<void>
    readFieldsAt(InstanceRef script, std::span<const std::uint32_t> indices, std::span<Value> out);

    /// Prepares for `scripts` more instances (maps and the dispatcher's lists), so a
    /// reload that instantiates them all in one frame does not grow them step by step.
    void reserve(std::size_t scripts);

    /// The plan for carrying `className`'s fields from `from`, the generation this one
    /// replaces (cached per class; valid while both generations are loaded).
    [[nodiscard]] const FieldCarryPlan& carryPlan(const ScriptDomain& from,
                                                  std::string_view className);
    /// Copies `script`'s [SerializeField] values from its instance in `from` into its
    /// instance here, following `plan` (from this domain's carryPlan, direct): plain data
    /// as bytes, strings as UTF-16, references by id — no snapshot Values in between for
    /// them. A reference `usable` rejects becomes null and is listed in `cleared`.
    [[nodiscard]] Result<void> carryFields(const ScriptDomain& from, ObjectId script,
                                           const FieldCarryPlan& plan,
                                           const std::function<bool(ObjectId)>& usable,
                                           std::vector<ClearedRefs>& cleared);

    /// Sets this generation's clock (UEngine.Time: time, frame, delta times) to `from`'s, so
    /// what runs before its first frame — constructors, carried coroutines, OnAfterReload —
    /// sees the game's clock, not zero; and its UEngine.Random to `from`'s generator state, so
    /// a reload neither restarts nor reseeds the sequence.
    [[nodiscard]] Result<void> continueClockFrom(const ScriptDomain& from);
    /// Carries the coroutines running in `from` (the generation this one replaces) into
    /// this one, whose scripts are restored and attached and have run nothing yet: each is
    /// resumed where it was (its code unchanged), restarted with the same arguments (edited)
    /// or stopped ([StopOnEdit], gone, not carriable), in start order. `from` is only read.
    [[nodiscard]] Result<std::vector<CoroutineOutcome>> carryCoroutines(const ScriptDomain& from);
    /// Rebuilds here the delegates the scripts' fields held in `from` (event subscribers,
    /// Action fields): same targets' new instances, same methods' new code, same order;
    /// each entry that cannot be rebound is dropped. Scripts attached, nothing run yet.
    [[nodiscard]] Result<std::vector<DelegateOutcome>> carryDelegates(const ScriptDomain& from);

    /// A frame before carryFields: makes this generation's proxies for the world-owned
    /// entities and components `script`'s reference fields in `from` point at now, so the
    /// swap's frame does not build them. (Held weakly: one collected by then is remade.)
    void prepareCarry(const ScriptDomain& from, ObjectId script, const FieldCarryPlan& plan);

    /// Whether `id` (entity or component) has a managed proxy that is still alive.
    [[nodiscard]] bool hasLiveProxy(ObjectId id) const;
    /// Forgets the proxy of a destroyed object.
    void forgetProxy(ObjectId id);
    /// Drops the bookkeeping of proxies the GC collected; returns how many.
    std::size_t purgeCollectedProxies();
    /// Proxies tracked (alive or awaiting purge).
    [[nodiscard]] std::size_t proxyCount() const noexcept;

    /// Every [SerializeField] field of a script instance with its type and value, in
    /// schema order. Fields of a type the host cannot carry are left out and named in
    /// `skipped`.
    [[nodiscard]] Result<std::vector<FieldSnapshot>>
    readFields(ObjectId script, std::vector<std::string>* skipped = nullptr);

    /// Runs a class's static constructor (safely: its exception comes back as an error).
    [[nodiscard]] Result<void> initializeClass(std::string_view className);
    /// Reads / writes a [PreserveStatic] field; the class must be initialised first.
    [[nodiscard]] Result<Value> getStatic(std::string_view className, std::string_view field);
    [[nodiscard]] Result<void> setStatic(std::string_view className, std::string_view field,
                                         const Value& value);

    /// Calls OnAfterReload on every attached script in attach order; the first exception
    /// stops it and comes back as an error naming the script.
    [[nodiscard]] Result<void> runAfterReload();

    /// JIT-compiles the dispatcher (its thunks included) and every script class's
    /// constructor and messages, without running any script code — so the frame that
    /// swaps this generation in does not pay for compilation. ScriptCore's own part (the
    /// dispatcher, the carry calls; the domain's first JIT, ~6 ms in one piece) runs on a
    /// thread of its own, started by the first call: until it is done, a call with a
    /// `slice` returns false at once (one without waits for it). The script classes are
    /// compiled here, in small steps, until `slice` has been spent; returns true when
    /// everything is done (call it again, e.g. once per frame, until then).
    bool warmUp(std::chrono::microseconds slice = std::chrono::microseconds::max());
    /// Sleeps until the background part of warmUp is done or `until`; true when it is
    /// done (or was never started).
    bool waitForBackgroundWarm(std::chrono::steady_clock::time_point until);

    /// Script instances alive in this domain.
    [[nodiscard]] std::size_t instanceCount() const noexcept;

    /// Unloads the domain: switches to the root domain, frees every GC handle and cached
    /// pointer of this generation, then mono_domain_try_unload. Reports a failed unload.
    /// Never call it from inside a managed call. Idempotent.
    [[nodiscard]] Result<void> unload();
    /// Like unload, but Mono's part (finalizers, collections, freeing the domain) runs on
    /// the process's unloader thread while the caller goes on; what this generation held
    /// is released before it returns. The threads this generation started and that still
    /// run are aborted there first (at most 2 s; one that will not stop keeps the domain
    /// loaded, reported as a failure); their names (Thread.Name, or the start method) are
    /// returned. A failure is logged and kept for takeUnloadFailures. Never call it from
    /// inside a managed call. Idempotent.
    std::vector<std::string> unloadInBackground();
    /// Waits until every background unload has finished; false when `timeout` ran out.
    static bool waitForUnloads(std::chrono::milliseconds timeout);
    /// Messages of background unloads that failed since the last call.
    [[nodiscard]] static std::vector<std::string> takeUnloadFailures();

    /// Runs a full garbage collection and waits for the finalizers it queued (tests and
    /// leak checks; a reload uses it to settle script-owned objects before its snapshot).
    static void collectGarbage();
    /// GC handles alive in the process (leak checks).
    [[nodiscard]] static std::size_t liveGcHandles() noexcept;
    /// App domains not yet unloaded in the process, background unloads in progress
    /// included (leak checks).
    [[nodiscard]] static std::size_t liveDomains() noexcept;

    struct Impl;

private:
    explicit ScriptDomain(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace scripthost
