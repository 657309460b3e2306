#pragma once
// ManagedDispatcher: the C++ side of ScriptCore's UEngine.Internal.ScriptRuntime.

#include "host/model/script_phase.hpp"
#include "runtime/checked_call.hpp"
#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"

#include <cstddef>
#include <cstdint>
#include <mono/metadata/class.h>
#include <mono/metadata/object.h>
#include <string>
#include <string_view>

namespace scripthost::mono {

/// One generation's dispatcher. Each frame is one managed call per phase (the managed side
/// iterates the scheduled scripts), so this is the host's per-frame path: each call enters
/// the domain, calls the thunk and checks its exception through callChecked, and allocates
/// nothing unless it failed. Every operation goes through one managed method,
/// ScriptRuntime.Call(op, …), and so one unmanaged thunk: Mono keeps a few hundred bytes per
/// managed entry point and generation after the generation is unloaded (docs/MONO.md §19).
/// The thunk is made lazily (or by the JIT warm-up). Main thread only (the warm-up's thread
/// while the main thread does not use this generation); reset (= {}) before the domain
/// unloads.
class ManagedDispatcher {
public:
    /// The thunks makeThunk can make: ScriptRuntime.Call's.
    static constexpr std::size_t kThunkCount = 1;

    ManagedDispatcher() = default;

    /// Finds the dispatcher's methods in `runtime` (ScriptRuntime) of `domain`.
    [[nodiscard]] static Result<ManagedDispatcher> bind(MonoDomain* domain, MonoClass* runtime);

    /// Schedules `instance` for script slot `script` on `entity`; `messages` says which
    /// of Update (1) and FixedUpdate (2) its class overrides.
    [[nodiscard]] Result<void> attach(MonoObject* instance, ObjectId script, ObjectId entity,
                                      bool runInitialize, std::int32_t messages);
    /// Runs Destroy and unschedules the script.
    [[nodiscard]] Result<void> detach(ObjectId script);
    [[nodiscard]] Result<void> setEnabled(ObjectId script, bool enabled);
    /// ScriptActivation.EntityActiveChanged: the entity's scripts learn its activeInHierarchy.
    [[nodiscard]] Result<void> entityActiveChanged(ObjectId entity, bool active);
    [[nodiscard]] Result<void> runUpdate(float deltaTime, double time, std::int64_t frame);
    [[nodiscard]] Result<void> runFixedUpdate(float fixedDeltaTime, double time,
                                              std::int64_t frame);
    /// Scripts scheduled (and enabled) for `phase`.
    [[nodiscard]] Result<int> countScheduled(ScriptPhase phase);

    /// What RunAfterReload reports: the script whose OnAfterReload threw, and the
    /// exception (null when every script's hook ran). Valid until the next managed call.
    struct AfterReloadOutcome {
        ObjectId failedScript;
        MonoObject* thrown = nullptr;
    };
    /// Calls OnAfterReload on every attached script in attach order, up to the first throw.
    [[nodiscard]] Result<AfterReloadOutcome> runAfterReload();

    /// Runs the static constructor of `type`'s class; returns what it threw, or null.
    /// `failure` prefixes the error when the dispatcher itself throws.
    [[nodiscard]] Result<MonoObject*> runClassConstructor(MonoReflectionType* type,
                                                          std::string_view failure);
    /// Sizes the dispatcher's lists for `scripts` more scripts.
    [[nodiscard]] Result<void> reserve(std::size_t scripts);

    /// The running coroutines, one line each: "scriptId\tmethod\twaiting for\n"
    /// (ScriptRuntime.DescribeCoroutines). Not per frame: an ordinary runtime invoke.
    [[nodiscard]] Result<std::string> describeCoroutines();
    /// The async void methods suspended at an await and the continuations queued on the game
    /// loop: "Class.Method\tcount\n" lines, then "queued\tcount\n"
    /// (ScriptRuntime.DescribeInFlightAwaits).
    [[nodiscard]] Result<std::string> describeInFlightAwaits();

    /// CoroutineCarry.Export (coroutine_carry.hpp): the running coroutines, or null.
    [[nodiscard]] Result<MonoObject*> exportCoroutines(std::string_view failure);

    /// JIT warm-up steps: makes thunk `index` (< kThunkCount); compiles the dispatcher's
    /// per-script loops; runs part `part` (< kWarmParts) of DispatcherWarmUp.Warm (ScriptCore's
    /// own code, no script code; a few ms of JIT each).
    void makeThunk(std::size_t index);
    void compileLoops();
    [[nodiscard]] Result<void> runWarm(int part);
    /// How many parts DispatcherWarmUp.Warm has (its switch: 0 to 3).
    static constexpr int kWarmParts = 4;

    /// The message flags a script is attached with (ScriptRuntime.Messages: same bits). The
    /// Unity message methods it declares take the UnityMessage bits between them
    /// (host/model/unity_message.hpp).
    enum AttachFlag : std::uint32_t {
        OverridesUpdate = 1U << 0,
        OverridesFixedUpdate = 1U << 1,
        SelfDisabled = 1U << 30,   ///< the script had set its enabled to false (ScriptSlot)
        EntityInactive = 1U << 29, ///< its entity is inactive in the hierarchy
        AwakeDue = 1U << 28,       ///< Awake has not run yet (ScriptSlot::messagesDue)
        StartDue = 1U << 27,       ///< Start has not run yet (ScriptSlot::messagesDue)
    };

private:
    /// ScriptRuntime.Call's operations (its switch: same numbers).
    enum class Op : std::int32_t {
        Attach = 0,
        Detach = 1,
        SetEnabled = 2,
        RunUpdate = 3,
        RunFixedUpdate = 4,
        CountScheduled = 5,
        RunAfterReload = 6,
        RunClassConstructor = 7,
        Reserve = 8,
        Warm = 9,
        DescribeInFlightAwaits = 10,
        ExportCoroutines = 11,
        EntityActiveChanged = 12,
    };
    /// ScriptRuntime.Call's arguments; those an operation does not use stay zero.
    struct Args {
        MonoObject* arg = nullptr;
        std::uint64_t a = 0;
        std::uint64_t b = 0;
        std::int32_t i = 0;
        std::int32_t j = 0;
        float f = 0;
        double d = 0;
    };
    /// Calls ScriptRuntime.Call(op, args…, ref result) through the thunk: its object result,
    /// or the exception it threw as an error after `failure`.
    template <typename Failure>
    [[nodiscard]] Result<MonoObject*> call(Op op, const Failure& failure, const Args& args,
                                           std::uint64_t* result = nullptr) {
        std::uint64_t ignored = 0;
        return callChecked(domain_, call_, failure, static_cast<std::int32_t>(op), args.arg, args.a,
                           args.b, args.i, args.j, args.f, args.d,
                           result != nullptr ? result : &ignored);
    }
    /// Runs ScriptRuntime's static string method `method` (no arguments).
    [[nodiscard]] Result<std::string> describe(const char* method, const char* failure);

    MonoDomain* domain_ = nullptr;
    MonoClass* runtime_ = nullptr;
    LazyThunk<MonoObject*, std::int32_t, MonoObject*, std::uint64_t, std::uint64_t, std::int32_t,
              std::int32_t, float, double, std::uint64_t*>
        call_;
};

} // namespace scripthost::mono
