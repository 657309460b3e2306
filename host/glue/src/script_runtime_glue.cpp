// Internal calls of the managed dispatcher: failure reports from scripts.
#include "glue_access.hpp"
#include "host/runtime/script_watchdog.hpp"
#include "host/safety/script_failure_tracker.hpp"
#include "internal_call_groups.hpp"
#include "runtime/managed_exception.hpp"
#include "runtime/mono_text.hpp"

#include <spdlog/spdlog.h>

namespace scripthost::glue {

namespace {

// Called by ScriptRuntime when a script's message threw. Logs (rate-limited by the
// tracker), tells the context, and returns true when the script must be disabled.
MonoBoolean reportException(std::uint64_t scriptId, std::int32_t phaseNumber,
                            std::int32_t consecutive, MonoObject* exception) {
    return guarded("ScriptRuntime.ReportException", [&]() -> MonoBoolean {
        ScriptContext& c = context();
        const ObjectId id = ObjectId::unpack(scriptId);
        const auto phase = static_cast<ScriptPhase>(phaseNumber);
        ScriptFailure failure;
        failure.script = id;
        failure.phase = phase;
        failure.consecutive = consecutive;
        if (const ScriptSlot* slot = c.world->script(id)) {
            failure.className = slot->className;
        }
        const mono::ManagedException described = mono::describeException(exception);
        failure.exceptionType = described.type;
        failure.message = described.message;
        failure.text = described.text;

        ScriptFailureTracker fallback;
        ScriptFailureTracker& tracker = c.failures ? *c.failures : fallback;
        const auto decision = tracker.record(id, phase, consecutive);
        failure.disabled = decision.disable;
        if (ScriptSlot* slot = c.world->script(id); slot && decision.disable) {
            slot->enabled = false;
        }
        if (decision.log) {
            const std::string who =
                failure.className.empty() ? id.toString() : failure.className + " " + id.toString();
            if (consecutive <= 1) {
                spdlog::error("script {} threw in {}: {}", who, phaseName(phase), failure.text);
            } else {
                spdlog::error("script {} threw in {} {} times in a row: {}: {}", who,
                              phaseName(phase), consecutive, failure.exceptionType,
                              failure.message);
            }
            if (decision.disable) {
                spdlog::error("script {} disabled after {} consecutive failures", who, consecutive);
            }
        }
        if (c.onFailure) {
            c.onFailure(failure);
        }
        return decision.disable ? 1 : 0;
    });
}

// Called by ScriptRuntime when the watchdog aborted a script that ran past its budget;
// the dispatcher has reset the abort and disabled the script.
void reportStopped(std::uint64_t scriptId, std::int32_t phaseNumber, MonoObject* exception) {
    guarded("ScriptRuntime.ReportStopped", [&] {
        ScriptContext& c = context();
        const ObjectId id = ObjectId::unpack(scriptId);
        ScriptFailure failure;
        failure.script = id;
        failure.phase = static_cast<ScriptPhase>(phaseNumber);
        failure.stopped = true;
        failure.disabled = true;
        if (ScriptSlot* slot = c.world->script(id)) {
            failure.className = slot->className;
            slot->enabled = false;
        }
        ScriptWatchdog::abortHandled(); // the next runaway of this phase gets a full budget
        const mono::ManagedException described = mono::describeException(exception);
        failure.exceptionType = described.type;
        failure.message = "stopped by the watchdog: it ran past its time budget";
        failure.text = described.text;
        const std::string who =
            failure.className.empty() ? id.toString() : failure.className + " " + id.toString();
        spdlog::error("script {} ran past the watchdog's time budget in {} and was stopped; it "
                      "is disabled until the next reload. Where it was: {}",
                      who, phaseName(failure.phase), described.text);
        if (c.onFailure) {
            c.onFailure(failure);
        }
    });
}

// Called by ScriptRuntime when code on the game loop that no one script can be charged with
// threw: an await continuation (or an async void method's exception) whose code is not a
// script component's, or is one of a class with several attached scripts. Logged with the class it
// came from; the failure counts toward the host's total but disables no script.
void reportUnattributed(std::int32_t phaseNumber, MonoString* scriptClass, MonoObject* exception) {
    guarded("ScriptRuntime.ReportUnattributed", [&] {
        ScriptContext& c = context();
        const auto phase = static_cast<ScriptPhase>(phaseNumber);
        const std::string className = scriptClass ? mono::toUtf8(scriptClass) : std::string();
        const mono::ManagedException described = mono::describeException(exception);
        ScriptFailure failure;
        failure.phase = phase;
        failure.className = className;
        failure.consecutive = 1;
        failure.exceptionType = described.type;
        failure.message = described.message;
        failure.text = described.text;
        if (c.failures)
            (void)c.failures->record(ObjectId{}, phase, 1);
        if (className.empty()) {
            spdlog::error("{} on the game loop threw: {}", phaseName(phase), described.text);
        } else {
            spdlog::error("{} in {} threw (not charged to one script: no single attached script "
                          "has that class): {}",
                          phaseName(phase), className, described.text);
        }
        if (c.onFailure)
            c.onFailure(failure);
    });
}

// Called by ScriptActivation when a script set its own `enabled`: kept in its slot, so a reload
// and the state file keep it.
void setSelfEnabled(std::uint64_t scriptId, MonoBoolean enabled) {
    guarded("ScriptActivation.SetSelfEnabled", [&] {
        if (ScriptSlot* slot = context().world->script(ObjectId::unpack(scriptId)))
            slot->disabledByScript = enabled == 0;
    });
}

// Called by UnityMessages when a script's owed Awake or Start changed: kept in its slot, so a
// reload still calls them.
void setMessagesDue(std::uint64_t scriptId, std::int32_t messages) {
    guarded("UnityMessages.SetMessagesDue", [&] {
        if (ScriptSlot* slot = context().world->script(ObjectId::unpack(scriptId)))
            slot->messagesDue = static_cast<std::uint32_t>(messages);
    });
}

// Called by ScriptRuntime when it reset an abort that landed between two scripts.
void abortHandled() {
    ScriptWatchdog::abortHandled();
}

} // namespace

void registerScriptRuntimeCalls(MonoRuntime& runtime) {
    runtime.registerInternalCall("UEngine.Internal.ScriptActivation::Internal_SetSelfEnabled",
                                 reinterpret_cast<const void*>(&setSelfEnabled));
    runtime.registerInternalCall("UEngine.Internal.UnityMessages::Internal_SetMessagesDue",
                                 reinterpret_cast<const void*>(&setMessagesDue));
    runtime.registerInternalCall("UEngine.Internal.ScriptRuntime::Internal_AbortHandled",
                                 reinterpret_cast<const void*>(&abortHandled));
    runtime.registerInternalCall("UEngine.Internal.ScriptRuntime::Internal_ReportStopped",
                                 reinterpret_cast<const void*>(&reportStopped));
    runtime.registerInternalCall("UEngine.Internal.ScriptRuntime::Internal_ReportUnattributed",
                                 reinterpret_cast<const void*>(&reportUnattributed));
    runtime.registerInternalCall("UEngine.Internal.ScriptRuntime::Internal_ReportException",
                                 reinterpret_cast<const void*>(&reportException));
}

} // namespace scripthost::glue
