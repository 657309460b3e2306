#pragma once
// The game-module API: how a game (a shared library) attaches to the host.
//
// A game module is a shared library loaded with `scripthost run --game PATH`. It exports
// one entry point, written with SCRIPTHOST_GAME_MODULE, that receives a GameRegistry and
// registers what the game adds to the host: native component kinds, internal calls for
// its own C# API, input bindings, per-frame native systems, a renderer and native script
// classes (native_script.hpp).
//
// The API is a set of abstract classes and header-only types, so a module needs this
// header (and GLM) but links nothing of the host, and it never sees a Mono type.
//
// Threading: everything here runs on the host's main thread, between or inside frames.
//
// Internal calls a module registers (registerInternalCall<&function>, module_internal_call.hpp)
// are called from C# with plain (blittable) arguments, and run guarded like its systems: a
// crash in one raises an exception in the calling script and switches the module off, the
// host ticks on. A C++ exception raises one in the script too, but its message is all the
// script gets: prefer returning a status value and letting the C# side raise the exception.

#include "scripthost/game/error.hpp"
#include "scripthost/game/game_world.hpp"
#include "scripthost/game/module_internal_call.hpp"
#include "scripthost/game/native_script.hpp"
#include "scripthost/game/object_id.hpp"
#include "scripthost/game/text_canvas.hpp"
#include "scripthost/game/transform.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::game {

/// Bumped whenever a class below changes shape; the host refuses other versions.
/// 3: internal calls are registered typed and run guarded (registerInternalCall<&function>);
/// the untyped registerInternalCall(name, const void*) is gone.
/// 4: Transform::forward() is +Z, Unity's basis (it was -Z): a module built against 3 would
/// read another direction from the same call.
/// 5: entities form a hierarchy: GameWorld::transform() is the local transform, and
/// GameWorld gains worldTransform, parent, children and setParent (a new vtable).
inline constexpr std::uint32_t kApiVersion = 5;

/// Game time of the frame a system runs in.
struct FrameTime {
    double time = 0;        ///< game time in seconds since start
    double deltaTime = 0;   ///< this frame's step in seconds
    std::int64_t frame = 0; ///< frames run before this one
};

/// What the host shows in its status line; renderers may show parts of it too.
struct HostStatus {
    double fps = 0;
    std::uint32_t generation = 0; ///< the scripts' current generation (1 = first load)
    std::int64_t frame = 0;
    bool paused = false;
    std::string lastReload; ///< e.g. "ok, stall 3.1 ms" or "rolled back: …"; empty if none
};

/// Draws the game into a text canvas (the terminal); not called when --headless.
class GameRenderer {
public:
    virtual ~GameRenderer() = default;
    /// Draws one frame. `canvas` is cleared and sized to the space the host leaves for
    /// the game (the terminal minus its status lines).
    virtual void draw(GameWorld& world, const HostStatus& status, TextCanvas& canvas) = 0;
};

/// When a native system runs in a frame.
enum class SystemPhase {
    BeforeScripts, ///< before FixedUpdate/Update: read input, feed scripts
    AfterScripts,  ///< after Update: react to what scripts did
};

using SystemFunction = std::function<void(GameWorld&, const FrameTime&)>;

enum class LogLevel { Debug, Info, Warning, Error };

/// What a module registers with, during its attach call.
class GameRegistry {
public:
    virtual ~GameRegistry() = default;
    [[nodiscard]] virtual std::uint32_t apiVersion() const = 0;
    /// Declares a native component kind; scenes and AddComponent may then use it.
    virtual void registerComponent(std::string kind, std::string description) = 0;
    /// Registers `Function` (a free function taking and returning plain values) as the internal
    /// call of a C# `extern` method: `registerInternalCall<&halfWidth>("Demo.Arena::HalfWidth")`;
    /// a nested class is written "Demo.Arena/Native::HalfWidth". It runs guarded
    /// (module_internal_call.hpp): a crash in it raises an InvalidOperationException in the
    /// calling script and switches the module off, as a crash in a system does.
    ///
    /// There is no untyped form (a name and a `const void*`) any more: the host had no
    /// signature to put a guard around, so a crash in such a call ended the host. Every module
    /// in the tree registers the typed form, and kApiVersion 3 makes the host refuse a module
    /// built against the old form instead of running its calls unguarded.
    template <auto Function> void registerInternalCall(std::string managedName) {
        detail::internalCallBridge = internalCallBridge();
        registerInternalCallInfo(detail::InternalCallThunk<Function>::info(std::move(managedName)));
    }
    /// What registerInternalCall calls: registers a described internal call.
    virtual void registerInternalCallInfo(InternalCallInfo call) = 0;
    /// How the module's internal call thunks reach the host.
    [[nodiscard]] virtual InternalCallBridge internalCallBridge() const = 0;
    /// Binds a key to an input action: while the key is held (terminal key repeat keeps
    /// it held), the action reads `value`. Keys: a printable character ("w", " "), or
    /// "Up", "Down", "Left", "Right", "Enter", "Tab", "Escape".
    virtual void bindKey(std::string key, std::string action, float value) = 0;
    /// Adds a native system, run once per frame in `phase`, in registration order.
    virtual void addSystem(std::string name, SystemPhase phase, SystemFunction function) = 0;
    /// The renderer used when the host runs with a terminal (replaces any previous one).
    virtual void setRenderer(std::unique_ptr<GameRenderer> renderer) = 0;
    /// The world; valid until the module is detached (internal calls may keep a pointer).
    [[nodiscard]] virtual GameWorld& world() = 0;
    /// Writes a line into the host's log.
    virtual void log(LogLevel level, std::string_view message) = 0;
    /// Registers a native script class (native_script.hpp): scenes, AddComponent and the
    /// class's generated C# proxy may then use it.
    template <class T> void registerScript(NativeScriptClass<T> scriptClass) {
        detail::callBridge = nativeCallBridge();
        registerScriptClass(std::move(scriptClass).build());
    }
    /// What registerScript calls: registers a described class.
    virtual void registerScriptClass(NativeScriptClassInfo scriptClass) = 0;
    /// How the module's native methods reach the host.
    [[nodiscard]] virtual NativeCallBridge nativeCallBridge() const = 0;
};

/// Name and version a module reports about itself.
struct ModuleInfo {
    const char* name;
    const char* version;
};

} // namespace scripthost::game

/// Entry points the host looks up in a module (use SCRIPTHOST_GAME_MODULE to define them).
extern "C" {
using ScripthostGameApiVersionFn = std::uint32_t (*)();
using ScripthostGameAttachFn = bool (*)(scripthost::game::GameRegistry*,
                                        scripthost::game::ModuleInfo*, std::string* error);
// Optional (SCRIPTHOST_GAME_STATE): hand the module's own state to its next build.
using ScripthostGameSaveStateFn = bool (*)(std::string* state, std::string* error);
using ScripthostGameRestoreStateFn = bool (*)(const std::string* state, std::string* error);
}

/// Defines a module's entry points. The body receives `registry` (GameRegistry&) and
/// `info` (ModuleInfo&, to fill in) and returns a Result<void>: a failure stops the host
/// with the module's message.
///
///     SCRIPTHOST_GAME_MODULE(registry, info) {
///         info = {"my game", "1.0"};
///         registry.registerComponent("Wall", "a wall of the arena");
///         return {};
///     }
#define SCRIPTHOST_GAME_MODULE(registry, info)                                                     \
    static scripthost::Result<void> scripthostGameAttach(scripthost::game::GameRegistry&,          \
                                                         scripthost::game::ModuleInfo&);           \
    extern "C" __attribute__((visibility("default"))) std::uint32_t                                \
    scripthost_game_api_version() {                                                                \
        return scripthost::game::kApiVersion;                                                      \
    }                                                                                              \
    extern "C" __attribute__((visibility("default"))) bool scripthost_game_attach(                 \
        scripthost::game::GameRegistry* registry_, scripthost::game::ModuleInfo* info_,            \
        std::string* error_) {                                                                     \
        try {                                                                                      \
            auto attached = scripthostGameAttach(*registry_, *info_);                              \
            if (!attached) {                                                                       \
                *error_ = attached.error().message;                                                \
                return false;                                                                      \
            }                                                                                      \
            return true;                                                                           \
        } catch (const std::exception& e) {                                                        \
            *error_ = e.what();                                                                    \
            return false;                                                                          \
        } catch (...) {                                                                            \
            *error_ = "unknown exception";                                                         \
            return false;                                                                          \
        }                                                                                          \
    }                                                                                              \
    static scripthost::Result<void> scripthostGameAttach(scripthost::game::GameRegistry& registry, \
                                                         scripthost::game::ModuleInfo& info)

/// Optional: hands a module's own state (what lives in its globals, not in the world) to the
/// next build of the module when the host reloads it. `save` is a function
/// `std::string save()` called on the old build just before the swap; `restore` is
/// `scripthost::Result<void> restore(std::string_view state)`, called on the new build after
/// its attach and before its first frame. A failed restore keeps the old build running. A
/// module without them starts fresh on a reload, and the reload report says so.
///
///     SCRIPTHOST_GAME_STATE(saveCounters, restoreCounters)
#define SCRIPTHOST_GAME_STATE(save, restore)                                                       \
    extern "C" __attribute__((visibility("default"))) bool scripthost_game_save_state(             \
        std::string* state_, std::string* error_) {                                                \
        try {                                                                                      \
            *state_ = save();                                                                      \
            return true;                                                                           \
        } catch (const std::exception& e) {                                                        \
            *error_ = e.what();                                                                    \
            return false;                                                                          \
        }                                                                                          \
    }                                                                                              \
    extern "C" __attribute__((visibility("default"))) bool scripthost_game_restore_state(          \
        const std::string* state_, std::string* error_) {                                          \
        try {                                                                                      \
            auto restored = restore(std::string_view(*state_));                                    \
            if (!restored) {                                                                       \
                *error_ = restored.error().message;                                                \
                return false;                                                                      \
            }                                                                                      \
            return true;                                                                           \
        } catch (const std::exception& e) {                                                        \
            *error_ = e.what();                                                                    \
            return false;                                                                          \
        }                                                                                          \
    }
