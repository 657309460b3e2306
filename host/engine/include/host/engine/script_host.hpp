#pragma once
// ScriptHost: the world, the scripts' current generation and the frame, put together.

#include "host/domain/script_domain.hpp"
#include "host/engine/fixed_step_clock.hpp"
#include "host/engine/frame_stats.hpp"
#include "host/engine/input_state.hpp"
#include "host/engine/native_scripts.hpp"
#include "host/engine/script_context.hpp"
#include "host/engine/script_engine.hpp"
#include "host/model/assembly_file.hpp"
#include "host/model/parked_state.hpp"
#include "host/model/reload_report.hpp"
#include "host/model/scene.hpp"
#include "host/model/snapshot.hpp"
#include "host/model/world.hpp"
#include "host/runtime/script_watchdog.hpp"
#include "host/safety/script_failure_tracker.hpp"
#include "scripthost/game/error.hpp"

#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>

namespace scripthost {

class MonoRuntime;

/// What moving the native scripts to another build of the game module's classes did
/// (ScriptHost::replaceNativeClasses).
struct NativeScriptCarry {
    std::size_t carried = 0; ///< objects rebuilt from the new build's classes, fields carried
    std::size_t parked = 0;  ///< slots whose class the new build lacks: parked, values kept
    std::size_t revived = 0; ///< parked slots whose class is back (initialize ran)
    std::vector<FieldOutcome> outcomes; ///< fields not plainly restored (renamed, parked, …)
    std::vector<std::string> problems;  ///< scripts that could not be rebuilt (left parked)
    [[nodiscard]] std::string describe() const;
};

struct ScriptHostOptions {
    std::filesystem::path scriptCore; ///< ScriptCore.dll (its .mdb beside it)
    int disableAfterFailures = 10;    ///< consecutive failures before a script is disabled; 0 never
    double fixedStep = 1.0 / 50.0;    ///< FixedUpdate step, seconds
    /// Script code that runs longer than this in one go is stopped (ScriptWatchdog);
    /// zero turns the watchdog off.
    std::chrono::milliseconds watchdogBudget{1000};
    /// How long a stopped script may still hold the main thread before the watchdog
    /// gives up on the host (see ScriptWatchdog).
    std::chrono::milliseconds watchdogGrace{2000};
    /// What the watchdog does then; empty: log, print the managed stacks and exit.
    std::function<void(const std::string& phase, std::chrono::milliseconds held)> onHostage;
    /// Registers the engine API's internal calls with the started runtime. The engine
    /// does not know the glue that implements that API (the glue depends on the engine,
    /// not the other way round), so the composition root passes it:
    /// `glue::registerEngineInternalCalls`. Required: create() fails without it.
    std::function<void(MonoRuntime&)> registerInternalCalls;
};

/// Owns the native world, the current script generation and what is parked, and runs
/// frames: each tick runs the fixed steps that are due (one FixedUpdate dispatch each) and
/// one Update dispatch. A script's failure is logged, counted and, when it keeps failing, the
/// script is disabled; a tick never fails because of a script. Main thread only.
class ScriptHost : public ScriptEngine {
public:
    /// Starts the Mono runtime (once per process) and reads ScriptCore.
    [[nodiscard]] static Result<std::unique_ptr<ScriptHost>> create(ScriptHostOptions options);
    ~ScriptHost();
    ScriptHost(const ScriptHost&) = delete;
    ScriptHost& operator=(const ScriptHost&) = delete;

    /// Loads a scripts assembly as the first generation. (Swapping in a new generation
    /// while scripts run is ReloadTransaction's job.)
    [[nodiscard]] Result<void> loadScripts(const AssemblyFile& scripts);
    /// The same with several scripts assemblies (assemblies by folder), in dependency order.
    [[nodiscard]] Result<void> loadScripts(std::span<const AssemblyFile> scripts);

    /// Builds the scene's entities, components and scripts, sets their fields, then runs
    /// every new script's Initialize. Checked before anything is created: an unknown
    /// class or a bad field value fails the whole scene and leaves the world unchanged.
    [[nodiscard]] Result<void> instantiate(const Scene& scene);
    /// Declares a native component kind (a game module's); "Camera" and "Render" are
    /// built in. Scenes may only use known kinds.
    void registerComponentKind(std::string kind);
    [[nodiscard]] bool knowsComponentKind(std::string_view kind) const noexcept;
    [[nodiscard]] const std::vector<std::string>& componentKinds() const noexcept {
        return componentKinds_;
    }
    /// The attached game module's name (UEngine.Application.gameModule); "" for none.
    void setGameModuleName(std::string name) { gameModuleName_ = std::move(name); }
    [[nodiscard]] std::string_view gameModuleName() const noexcept override {
        return gameModuleName_;
    }
    /// The game module's native scripts (classes and objects).
    [[nodiscard]] NativeScripts& natives() noexcept { return natives_; }
    [[nodiscard]] const NativeScripts& natives() const noexcept { return natives_; }
    /// The full name of the native script class `name` names (full, or an unambiguous short
    /// name), or empty.
    [[nodiscard]] std::string nativeClassName(std::string_view name) const;
    /// Makes `classes` (a module build's) the native script classes: every native script's
    /// object is rebuilt from its class in `classes`, its fields carried with a reload's
    /// migration rules (afterReload runs, initialize does not); a script whose class is
    /// missing is parked with its values; a parked script whose class is back is revived
    /// (initialize runs). The first call (no native scripts yet) only sets the classes.
    NativeScriptCarry replaceNativeClasses(std::vector<game::NativeScriptClassInfo> classes,
                                           game::GameWorld& world, NativeCrashHandler onCrash);
    /// The shape of the class a live script slot runs (its native class's, or its C#
    /// class's in the current generation), or nullptr (parked, or no such slot).
    [[nodiscard]] const ScriptClassInfo* scriptClassOf(ObjectId script) const;
    /// Whether a native script's field refers to `id` (a reload keeps such entities).
    [[nodiscard]] bool referencedByNativeScript(ObjectId id) const;

    /// A scene with one entity per script class, each carrying that script.
    [[nodiscard]] Scene defaultScene() const;

    /// Adds a script to an entity: construct, set fields, Initialize.
    [[nodiscard]] Result<ObjectId> addScript(ObjectId entity, const SceneScript& script);
    /// ScriptEngine: a script with default field values (UEntity.AddComponent from C#).
    [[nodiscard]] Result<ObjectId> addScript(ObjectId entity, std::string_view className) override {
        return addScript(entity, SceneScript{std::string(className), nlohmann::json::object()});
    }
    /// Runs the script's Destroy and removes it.
    [[nodiscard]] Result<void> removeScript(ObjectId script);
    /// Removes the entity's scripts (running Destroy), then the entity.
    [[nodiscard]] Result<void> destroyEntity(ObjectId entity);
    /// Sets an entity's activeSelf from native code (a game module, the control socket): the
    /// scripts of every entity whose activeInHierarchy changed get OnEnable or OnDisable, as
    /// UEntity.SetActive does from C#.
    [[nodiscard]] Result<void> setEntityActive(ObjectId entity, bool active);
    /// Makes `child` the last child of `parent` (the null id: a root) from native code;
    /// keepWorld: it stays where it is in the world. Scripts learn of any change of their
    /// entities' activeInHierarchy. Fails, changing nothing, as World::setParent does.
    [[nodiscard]] Result<void> reparent(ObjectId child, ObjectId parent, bool keepWorld);
    /// The scene file the world was built from (SceneManager.GetActiveScene; the folder
    /// LoadScene looks in); set by whoever instantiates it.
    void setActiveScenePath(std::filesystem::path path) { activeScenePath_ = std::move(path); }
    [[nodiscard]] const std::filesystem::path& activeScenePath() const noexcept override {
        return activeScenePath_;
    }
    /// ScriptEngine: a scene load at the end of this frame (script_host_scene_load.cpp).
    [[nodiscard]] Result<void> requestSceneLoad(std::string_view name) override;
    void keepOnSceneLoad(ObjectId object) override;
    /// Destroys an entity, native component or script now, whatever it is.
    [[nodiscard]] Result<void> destroyObject(ObjectId id);
    /// Destroys an object at the end of the current frame (UObject.Destroy from scripts).
    void queueDestroy(ObjectId id) override { destroyQueue_.push_back(id); }
    void queueDestroyAfter(ObjectId id, double seconds) override {
        delayedDestroys_.emplace_back(time_ + seconds, id);
    }
    [[nodiscard]] Result<ObjectId> cloneObject(ObjectId original,
                                               const std::optional<Transform>& placed) override;
    /// Destroys what is queued, and the script-owned entities whose proxies the GC has
    /// finalized (and that no script has picked up again). Each frame runs this; a
    /// reload runs it before its snapshot. Returns how many objects were destroyed.
    std::size_t drainDestroyQueues();
    /// Counts the exceptions no one caught off the game loop (on a thread a script started,
    /// the thread pool, a timer, a finalizer, an unobserved Task) against their scripts:
    /// they were logged where they happened; here each becomes a ScriptFailure (phase
    /// OffLoop) for onFailure. Each frame runs this. Returns how many were counted.
    std::size_t countOffLoopFailures();

    /// The whole world as a scene (entities, components, scripts and their field values,
    /// with ids), loadable by instantiate() into another host: the state file's format.
    [[nodiscard]] Result<Scene> saveScene();

    /// The current state of every script (parked ones included), as a reload carries it.
    [[nodiscard]] Result<Snapshot> snapshot();

    /// Saved state of a slot whose class is missing, or nullptr.
    [[nodiscard]] const ScriptSnapshot* parkedScript(ObjectId script) const;
    /// Values parked on a slot (fields that vanished or could not convert).
    [[nodiscard]] const std::vector<FieldSnapshot>* parkedFields(ObjectId script) const;
    /// Everything parked (a reload stages a copy of it).
    [[nodiscard]] const ParkedState& parked() const noexcept { return parked_; }

    // The reload's side of the host (ReloadTransaction is the only caller; everything else
    // reloads through a ReloadTransaction, see reload_transaction.hpp).

    /// ScriptCore's bytes, loaded into every generation.
    [[nodiscard]] const AssemblyFile& scriptCore() const noexcept { return scriptCore_; }
    /// A generation number never used before in this process (Mono caches images by name,
    /// so every generation's image name, made from it, must be new).
    [[nodiscard]] std::uint32_t takeGenerationNumber() noexcept { return nextGeneration_++; }
    /// The number takeGenerationNumber() hands out next (a domain made ahead is named by it).
    [[nodiscard]] std::uint32_t peekGenerationNumber() const noexcept { return nextGeneration_; }
    /// The next reload sequence number: one counter for every report the host's reloads
    /// and their builds publish, failed builds included.
    [[nodiscard]] std::uint64_t takeReloadSequence() noexcept { return ++reloadCount_; }
    /// The context internal calls act on; bound around every call into script code.
    [[nodiscard]] ScriptContext& context() noexcept { return context_; }
    /// Makes `next` the current generation and `parked` the parked state, and hands back
    /// the generation it replaces (its owner unloads it). Nothing here can fail: a reload
    /// calls it once everything else has succeeded.
    [[nodiscard]] std::unique_ptr<ScriptDomain> adoptGeneration(std::unique_ptr<ScriptDomain> next,
                                                                ParkedState parked);

    /// Runs one frame of `deltaSeconds`.
    void tick(double deltaSeconds);

    /// Resolves references written as in a scene file ({"id": n}, {"entity": "Ball"},
    /// {"entity": "Ball", "script": "BallScript"}) against the live world.
    [[nodiscard]] RefResolver worldResolver() const;
    /// Reads / writes a script's [SerializeField] field.
    [[nodiscard]] Result<Value> getField(ObjectId script, std::string_view field);
    /// Reads the fields at `indices` of scriptClassOf(script)->fields into `out` (as long as
    /// `indices`), finding the script once: a field watch's sample. The indices hold while
    /// classesVersion() does.
    [[nodiscard]] Result<void> readFieldsAt(ObjectId script, std::span<const std::uint32_t> indices,
                                            std::span<Value> out);
    /// A script looked up once, for reading its fields again without the lookups (a field
    /// watch's targets): valid while classesVersion() and instancesVersion() are unchanged.
    struct FoundScript {
        ObjectId script;
        ScriptDomain::InstanceRef instance; ///< none: a native script, read by its id
    };
    [[nodiscard]] Result<FoundScript> findScript(ObjectId script);
    [[nodiscard]] Result<void> readFieldsAt(const FoundScript& script,
                                            std::span<const std::uint32_t> indices,
                                            std::span<Value> out);
    /// Changes whenever a script instance of the running generation is freed (a script
    /// destroyed): a FoundScript found before may be gone. A new generation changes
    /// classesVersion() instead.
    [[nodiscard]] std::uint64_t instancesVersion() const noexcept {
        return domain_ ? domain_->instancesVersion() : 0;
    }
    /// Changes whenever a script class may have changed shape (a new generation, the game
    /// module's native classes replaced), so that what was resolved against the classes
    /// (ScriptClassInfo pointers, field indices) is resolved again.
    [[nodiscard]] std::uint64_t classesVersion() const noexcept { return classesVersion_; }
    [[nodiscard]] Result<void> setField(ObjectId script, std::string_view field,
                                        const Value& value);

    /// Removes every script (running Destroy) and unloads the generation. Idempotent.
    [[nodiscard]] Result<void> shutdown();

    [[nodiscard]] World& world() noexcept { return world_; }
    [[nodiscard]] InputState& input() noexcept { return input_; }
    [[nodiscard]] const FrameStats& stats() const noexcept { return stats_; }
    [[nodiscard]] FrameStats& stats() noexcept { return stats_; }
    [[nodiscard]] ScriptDomain* domain() noexcept { return domain_.get(); }
    [[nodiscard]] ScriptFailureTracker& failures() noexcept { return failures_; }
    /// The watchdog that stops runaway scripts, or nullptr when it is turned off.
    [[nodiscard]] const ScriptWatchdog* watchdog() const noexcept { return watchdog_.get(); }
    /// Game time in seconds and frames run.
    [[nodiscard]] double time() const noexcept { return time_; }
    [[nodiscard]] std::int64_t frame() const noexcept { return frame_; }
    /// Script-owned entities destroyed because the GC finalized their last proxy.
    [[nodiscard]] std::uint64_t releasedByCollector() const noexcept {
        return releasedByCollector_;
    }
    /// Script failures seen so far (every one, logged or not).
    [[nodiscard]] std::uint64_t scriptFailureCount() const noexcept { return failureCount_; }
    /// The most recent script failures, oldest first (at most kRecentFailures).
    [[nodiscard]] const std::deque<ScriptFailure>& recentFailures() const noexcept {
        return recentFailures_;
    }
    static constexpr std::size_t kRecentFailures = 64;

private:
    /// The scripts of each of `entities` learn that its activeInHierarchy is now `active`.
    [[nodiscard]] Result<void> tellActiveChanged(const std::vector<ObjectId>& entities,
                                                 bool active);
    /// One scene being instantiated: what is made so far, so a failure can undo it
    /// (script_host_scene.cpp).
    struct SceneBuild;

    explicit ScriptHost(ScriptHostOptions options, AssemblyFile scriptCore);
    [[nodiscard]] RefResolver
    sceneResolver(const std::unordered_map<std::uint64_t, ObjectId>& remap,
                  const std::vector<ObjectId>& sceneEntities) const;
    [[nodiscard]] std::string knownComponentKindList() const;
    [[nodiscard]] Result<ScriptSnapshot> parkedFromJson(ObjectId slot, const nlohmann::json& fields,
                                                        const RefResolver& resolve) const;
    /// A new native script on `entity` with the scene's field values; no message runs yet.
    [[nodiscard]] Result<ObjectId> makeNativeScript(ObjectId entity, const std::string& className,
                                                    const nlohmann::json& fields,
                                                    const RefResolver& resolve);
    [[nodiscard]] Result<void> writeSceneFields(ObjectId slot, const ScriptClassInfo& info,
                                                const nlohmann::json& fields,
                                                const RefResolver& resolve);

    ScriptHostOptions options_;
    AssemblyFile scriptCore_;
    World world_;
    InputState input_;
    ScriptFailureTracker failures_;
    FrameStats stats_;
    FixedStepClock fixedClock_;
    ScriptContext context_;
    std::unique_ptr<ScriptDomain> domain_;
    std::unique_ptr<ScriptWatchdog> watchdog_; // null when turned off
    std::uint32_t nextGeneration_ = 1;
    double time_ = 0;
    std::int64_t frame_ = 0;
    std::uint64_t failureCount_ = 0;
    std::uint64_t releasedByCollector_ = 0;
    std::deque<ScriptFailure> recentFailures_;
    std::vector<ObjectId> destroyQueue_;
    std::vector<std::pair<double, ObjectId>> delayedDestroys_; ///< game time due, object
    ParkedState parked_;
    NativeScripts natives_;
    std::uint64_t reloadCount_ = 0;
    std::uint64_t classesVersion_ = 0;
    std::vector<std::string> componentKinds_{"Camera", "Render"};
    std::string gameModuleName_;
    std::filesystem::path activeScenePath_;
    /// The scene a script asked for, read and checked, built at the end of the frame.
    struct SceneRequest {
        std::filesystem::path path;
        Scene scene;
    };
    std::optional<SceneRequest> requestedScene_;
    std::unordered_set<ObjectId> keptOnSceneLoad_; ///< root entities DontDestroyOnLoad kept
    /// Builds the requested scene: the world's root entities not kept are destroyed first.
    void loadRequestedScene();
};

} // namespace scripthost
