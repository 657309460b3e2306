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
};

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
    }
    return "unknown phase";
}

} // namespace scripthost
