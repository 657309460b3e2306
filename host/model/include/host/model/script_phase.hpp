#pragma once
// ScriptPhase: which script message was running.

#include <string_view>

namespace scripthost {

/// The script messages the host calls. The numbers are shared with the managed
/// dispatcher (ScriptCore/src/Internal/ScriptRuntime.cs) and must not change.
enum class ScriptPhase : int {
    Initialize = 0,
    Update = 1,
    FixedUpdate = 2,
    Destroy = 3,
    Constructor = 4,  ///< the host's own call of a script's constructor
    Coroutine = 5,    ///< a step of one of the script's coroutines
    Continuation = 6, ///< an await continuation run on the game loop
    OffLoop = 7,      ///< code no message call ran: a thread, the pool, a finalizer, a Task
    // Unity's message methods (UnityMessage), declared without `override`.
    Awake = 8,
    Start = 9,
    LateUpdate = 10,
    OnEnable = 11,
    OnDisable = 12,
    OnDestroy = 13,
    Invoke = 14, ///< a method called by Invoke or InvokeRepeating
};

/// Whether a phase runs once per script (a failure there is never part of a per-frame flood).
[[nodiscard]] constexpr bool runsOnce(ScriptPhase phase) noexcept {
    switch (phase) {
    case ScriptPhase::Initialize:
    case ScriptPhase::Destroy:
    case ScriptPhase::Constructor:
    case ScriptPhase::Awake:
    case ScriptPhase::Start:
    case ScriptPhase::OnDestroy:
        return true;
    default:
        return false;
    }
}

[[nodiscard]] constexpr std::string_view phaseName(ScriptPhase phase) noexcept {
    switch (phase) {
    case ScriptPhase::Initialize:
        return "Initialize";
    case ScriptPhase::Update:
        return "Update";
    case ScriptPhase::FixedUpdate:
        return "FixedUpdate";
    case ScriptPhase::Destroy:
        return "Destroy";
    case ScriptPhase::Constructor:
        return "constructor";
    case ScriptPhase::Coroutine:
        return "a coroutine";
    case ScriptPhase::Continuation:
        return "an await continuation";
    case ScriptPhase::OffLoop:
        return "code off the game loop";
    case ScriptPhase::Awake:
        return "Awake";
    case ScriptPhase::Start:
        return "Start";
    case ScriptPhase::LateUpdate:
        return "LateUpdate";
    case ScriptPhase::OnEnable:
        return "OnEnable";
    case ScriptPhase::OnDisable:
        return "OnDisable";
    case ScriptPhase::OnDestroy:
        return "OnDestroy";
    case ScriptPhase::Invoke:
        return "Invoke";
    }
    return "unknown phase";
}

} // namespace scripthost
