#pragma once
// ScriptContext: what the engine API (internal calls) acts on while scripts run.

#include "host/model/script_phase.hpp"
#include "scripthost/game/object_id.hpp"

#include <functional>
#include <string>

namespace scripthost {

class World;
class InputState;
class ScriptFailureTracker;
class ScriptEngine;
class NativeScripts;

/// One failure of a script call, as reported to the host.
struct ScriptFailure {
    ObjectId script;
    std::string className;
    ScriptPhase phase = ScriptPhase::Update;
    int consecutive = 1;       ///< failures in a row, this one included
    std::string exceptionType; ///< e.g. "System.NullReferenceException"
    std::string message;
    std::string text;      ///< type, message and managed stack with file:line
    bool disabled = false; ///< the host disabled the script because of it
    bool stopped = false;  ///< the watchdog aborted it: it ran past its time budget
};

/// The native state that internal calls read and write. Internal calls are registered
/// once per process and are plain functions, so they find their world through the
/// context bound on the main thread. A call made with no context bound raises an
/// InvalidOperationException in the script.
/// `world` must not change while the context is bound: binding records its epoch, which lets
/// scripts read transforms directly (WorldEpoch).
struct ScriptContext {
    World* world = nullptr;
    InputState* input = nullptr;
    ScriptFailureTracker* failures = nullptr;
    /// The engine, for calls that add or destroy scripts or ask about the game module; may
    /// be null (bare domains in tests).
    ScriptEngine* engine = nullptr;
    /// The native scripts' objects (a game module's), for their proxies' internal calls; may
    /// be null.
    NativeScripts* natives = nullptr;
    /// Called for every script failure (after logging), e.g. to count or collect them.
    std::function<void(const ScriptFailure&)> onFailure;

    /// The context bound now, or nullptr. Inline: every internal call asks.
    [[nodiscard]] static ScriptContext* current() noexcept;
};

namespace detail {
/// Only the main thread runs scripts; thread_local keeps a stray thread from seeing it.
inline thread_local ScriptContext* tBoundContext = nullptr;
} // namespace detail

inline ScriptContext* ScriptContext::current() noexcept {
    return detail::tBoundContext;
}

/// Binds a context for its lifetime (restoring the previous one after), and sets this thread's
/// detail::tBoundWorldEpoch to its world's epoch. Move-free.
class ScriptContextBinding {
public:
    explicit ScriptContextBinding(ScriptContext& context) noexcept;
    ~ScriptContextBinding();
    ScriptContextBinding(const ScriptContextBinding&) = delete;
    ScriptContextBinding& operator=(const ScriptContextBinding&) = delete;

private:
    ScriptContext* previous_;
};

} // namespace scripthost
