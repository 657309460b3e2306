#pragma once
// ReloadReport: what one reload did, for people (describe()) and tools (toJson()).

#include "scripthost/game/object_id.hpp"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace scripthost {

/// A field whose value did not simply carry over, and what happened to it.
struct FieldOutcome {
    enum class Kind {
        Converted, ///< the type changed and the value converted exactly
        Renamed,   ///< restored from a [FormerlySerializedAs] name
        Added,     ///< new field: the constructor's default
        Removed,   ///< the field is gone: its value is parked on the slot
        Kept, ///< the type changed and the value could not convert: default kept, old value parked
        Unparked, ///< a parked value came back (the field returned)
        Cleared,  ///< a reference to an object that no longer exists became null
    };
    ObjectId script;
    std::string className;
    std::string field;
    Kind kind = Kind::Converted;
    std::string detail;
};

[[nodiscard]] const char* outcomeName(FieldOutcome::Kind kind) noexcept;

/// What a reload did with one running coroutine (docs/ARCHITECTURE.md, "Running behaviour").
struct CoroutineOutcome {
    enum class Kind {
        Resumed,   ///< every iterator's code unchanged: it goes on in the new code where it was
        Restarted, ///< its code was edited: started again from the beginning, same arguments
        Stopped,   ///< [StopOnEdit], its method or script is gone, or it could not be carried
    };
    ObjectId script;
    std::string className;
    std::string method; ///< "Count", nested ones "Count > Fade"
    Kind kind = Kind::Resumed;
    std::string reason;
};

[[nodiscard]] const char* outcomeName(CoroutineOutcome::Kind kind) noexcept;

/// What a reload did with one delegate a script's field held (an event's subscriber, an
/// Action): rebound to the same target's new instance and the method's new code, or dropped.
struct DelegateOutcome {
    enum class Kind {
        Rebound, ///< the same target and method in the new generation
        Dropped, ///< the method or the target is gone, or a lambda's code or captures changed
    };
    ObjectId script;       ///< the script whose field held it
    std::string className; ///< that script's class
    std::string field;     ///< e.g. "Hit" (an event's backing field) or "onDone"
    std::string target;    ///< e.g. "Demo.Counter.OnHit on #4:1" or "static Demo.Log.Write"
    Kind kind = Kind::Rebound;
    std::string reason; ///< why it was dropped (empty when rebound)
};

[[nodiscard]] const char* outcomeName(DelegateOutcome::Kind kind) noexcept;

/// Where a live reload's wall time went, from the first file event the watcher saw to the
/// swap (the new code runs from the next frame). Each span includes whatever waited in it
/// (the frames between stages among them), so they add up to `totalMs`.
struct ReloadTimeline {
    double watcherMs = 0; ///< first file event -> the reload coordinator took the change
    double buildMs = 0;   ///< build submitted -> finished (behind a superseded build too)
    double waitMs = 0;    ///< build finished -> the reload's first stage began
    double loadMs = 0;    ///< the load stage
    double warmMs = 0;    ///< the JIT warm-up slices and the reserve stage
    double swapMs = 0;    ///< warm-up done -> swapped
    double totalMs = 0;   ///< first file event -> swapped
};

/// One reload, successful or not. A failed reload changed nothing: the old generation
/// kept running.
struct ReloadReport {
    std::uint64_t sequence = 0;       ///< 1 for the host's first reload
    std::vector<std::string> trigger; ///< changed files, or "forced"
    bool success = false;
    std::string failedPhase;           ///< "build", "load", "instantiate", "restore", "hooks"
    std::vector<std::string> errors;   ///< why it failed (compile diagnostics included)
    std::vector<std::string> warnings; ///< things that did not stop it

    std::uint32_t fromGeneration = 0;
    std::uint32_t toGeneration = 0;
    /// The debugger rebind (ReloadStage::Rebind, docs/MONO.md §11): the generation the reload
    /// swapped in first, before it loaded the same code again as `toGeneration` once the old
    /// one was unloaded, so that a debugger binds breakpoints to it. 0: no rebind pass ran,
    /// or it failed (a warning says why, and `toGeneration` is the first new generation).
    std::uint32_t debuggerRebindFrom = 0;
    /// The scripts were loaded into a domain made ahead (ReloadTransaction::usePreparedDomain)
    /// rather than one made in the load stage.
    bool preparedDomain = false;
    /// The warm compile server had read and imported the build's references before the save
    /// (compiler::CompileResult::referencesPrepared), so the build only compiled the scripts.
    bool referencesImportedAhead = false;
    /// Assemblies by folder: the assemblies this reload's build compiled (the others were
    /// reused), in dependency order; empty for a project of one scripts assembly.
    std::vector<std::string> assembliesBuilt;
    /// Assemblies by folder: assemblies that reference one this build compiled and were
    /// reused anyway, as built before, because what they see of it (its interface) is
    /// unchanged: an edit of method bodies (compiler::AssemblyBuild::reusedWithNewReferences).
    std::vector<std::string> assembliesKept;
    /// Assemblies by folder: the reused assemblies that were loaded, checked and JIT-compiled
    /// in the domain made ahead before the save (ScriptDomain::preload), in load order; the
    /// load and warm stages paid only for the others.
    std::vector<std::string> assembliesLoadedAhead;

    double buildMs = 0;      ///< off the main thread
    double snapshotMs = 0;   ///< main thread, from here on
    double loadMs = 0;       ///< create the domain, load ScriptCore and the scripts
    double warmMs = 0;       ///< JIT-compile the new generation before the swap
    double restoreMs = 0;    ///< instantiate and restore fields
    double hooksMs = 0;      ///< attach and OnAfterReload
    double unloadMs = 0;     ///< let go of the old generation (Mono unloads it in the background)
    double totalMs = 0;      ///< the whole main-thread part
    double frameStallMs = 0; ///< longest frame around the reload minus the median frame

    std::size_t restored = 0;  ///< instances carried into the new generation
    std::size_t created = 0;   ///< instances whose class is back (parked before): Initialize ran
    std::size_t parked = 0;    ///< slots whose class is missing now: values kept aside
    std::size_t reenabled = 0; ///< scripts disabled after failures, enabled again
    std::size_t released = 0;  ///< script-owned entities nothing referenced any more
    std::vector<FieldOutcome> fields; ///< every field that was not a plain restore
    std::vector<std::string> missingClasses;
    /// Every coroutine that was running in the old generation, in start order.
    std::vector<CoroutineOutcome> coroutines;
    /// Every delegate scripts' fields held (each entry of an invocation list), in order.
    std::vector<DelegateOutcome> delegates;
    /// Awaits of the old generation that were in flight (ScriptDomain::inFlightAwaits): they
    /// are cancelled, never resumed in old code against the new world.
    std::vector<std::string> cancelledAwaits;
    /// Threads the generation let go of (the old one, or the new one on a rollback) had
    /// started and that still ran: Thread.Name, or the start method "Class.Method". They
    /// are aborted as it unloads; the unloader logs whether they stopped, and one that
    /// did not is a warning in the next report.
    std::vector<std::string> stoppedThreads;
    /// For a reload started by a file change and run by the reload coordinator.
    std::optional<ReloadTimeline> timeline;

    /// A readable block: one line of outcome and timings, then one line per notable event.
    [[nodiscard]] std::string describe() const;
    [[nodiscard]] nlohmann::json toJson() const;
};

} // namespace scripthost
