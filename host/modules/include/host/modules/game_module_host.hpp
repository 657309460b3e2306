#pragma once
// GameModuleHost: one game module loaded into the host, and what it registered.

#include "host/engine/script_host.hpp"
#include "host/modules/module_call_index.hpp"
#include "host/safety/native_fault_guard.hpp"
#include "scripthost/game/error.hpp"
#include "scripthost/game/game_module.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace scripthost {

/// A key bound to an input action by a game module.
struct KeyBinding {
    std::string key; ///< "w", " ", "Up", …
    std::string action;
    float value = 0;
};

/// A native component kind a game module declared.
struct ComponentKind {
    std::string kind;
    std::string description;
};

/// Loads a game module (a shared library), checks its API version, lets it register
/// with the host, and keeps its systems, renderer and key bindings. Unloading runs in
/// reverse: the module's objects are destroyed before the library is closed. Internal
/// calls are registered with Mono by name: a script generation binds them as its methods
/// are compiled, so a later build of the module (ModuleReloader) registers its own and the
/// next generation binds to those; the library of a module a generation may still call
/// must stay loaded. The module's own internal calls reach this build through their thunks
/// (ModuleCallIndex) and run guarded (runInternalCall). Main thread only.
class GameModuleHost {
public:
    /// Loads `library` (from `loadFrom` when given: a private copy, since the loader caches
    /// by path and a linker writes in place).
    [[nodiscard]] static Result<std::unique_ptr<GameModuleHost>>
    load(const std::filesystem::path& library, ScriptHost& host,
         const std::filesystem::path& loadFrom = {});
    ~GameModuleHost();
    GameModuleHost(const GameModuleHost&) = delete;
    GameModuleHost& operator=(const GameModuleHost&) = delete;

    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    [[nodiscard]] const std::string& version() const noexcept { return version_; }
    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
    [[nodiscard]] const std::vector<ComponentKind>& components() const noexcept {
        return components_;
    }
    [[nodiscard]] const std::vector<KeyBinding>& keyBindings() const noexcept { return keys_; }
    [[nodiscard]] std::size_t systemCount() const noexcept { return systems_.size(); }
    /// The native script classes the module registered.
    [[nodiscard]] const std::vector<game::NativeScriptClassInfo>& scriptClasses() const noexcept {
        return scriptClasses_;
    }
    /// Makes this build's native script classes the host's: native scripts running on
    /// another build's classes move to these (ScriptHost::replaceNativeClasses); a crash in
    /// one switches this module off.
    NativeScriptCarry activateNativeScripts();

    /// Runs the systems of `phase` in registration order. A system that throws is logged
    /// and switched off; the others and the frame go on. A system that crashes (a crash
    /// signal in its native code) switches the whole module off (crashed()).
    void runSystems(game::SystemPhase phase, const game::FrameTime& time);
    /// The module's renderer, or nullptr if it has none (or the module crashed).
    [[nodiscard]] game::GameRenderer* renderer() noexcept { return renderer_.get(); }
    /// Draws through the renderer; a renderer that throws is logged and dropped, one that
    /// crashes switches the module off.
    void draw(const game::HostStatus& status, TextCanvas& canvas);
    /// What crashed the module's code and where ("system 'physics' (before scripts):
    /// SIGSEGV (no memory at 0x0) in step+0x14 (libgame.so)"), or empty while it runs.
    /// After a crash none of its systems, its renderer, its native scripts or its internal
    /// calls run again: the jump out of the crash skipped its destructors and left its state
    /// unknown.
    [[nodiscard]] const std::string& crashed() const noexcept { return crash_; }

    /// Runs one of the module's own internal calls, `name`: `body(frame)` under
    /// NativeFaultGuard. An error, whose message the calling script's exception carries, when
    /// the module is switched off already (its code is not run), when the call crashed (which
    /// switches the module off, as a system's crash does) or when it threw a C++ exception
    /// (the module stays on).
    [[nodiscard]] Result<void> runInternalCall(const std::string& name, game::InternalCallBody body,
                                               void* frame);

    /// Registers the module's internal calls with Mono again (after another build of the
    /// module replaced them, to put this one back).
    void registerInternalCallsAgain();
    /// Whether the module hands its state over (SCRIPTHOST_GAME_STATE).
    [[nodiscard]] bool carriesState() const noexcept { return save_ && restore_; }
    /// The module's own state (SCRIPTHOST_GAME_STATE's save), run guarded.
    [[nodiscard]] Result<std::string> saveState();
    /// Gives it the state an earlier build saved (SCRIPTHOST_GAME_STATE's restore), guarded.
    [[nodiscard]] Result<void> restoreState(const std::string& state);
    [[nodiscard]] game::GameWorld& world() noexcept { return *world_; }

private:
    class Registry;
    struct System {
        std::string name;
        game::SystemPhase phase;
        game::SystemFunction function;
        bool failed = false;
    };
    struct LibraryHandle {
        void* handle = nullptr;
        ~LibraryHandle();
    };
    GameModuleHost() = default;
    /// Switches every system and the renderer off after `what` crashed.
    void switchOffAfterCrash(const std::string& what, const NativeFault& fault);
    /// Lets go of the systems and the renderer without destroying them.
    void leakModuleObjects();

    LibraryHandle library_; // declared first: closed last
    ScripthostGameSaveStateFn save_ = nullptr;
    ScripthostGameRestoreStateFn restore_ = nullptr;
    // Every internal call registered with Mono (the module's own thunks and its native
    // script methods'), to register again after another build replaced them.
    std::vector<std::pair<std::string, const void*>> internalCalls_;
    ModuleCallIndex::Registration guardedCalls_{*this}; // the module's own, by thunk
    std::filesystem::path path_;
    std::string name_, version_;
    std::unique_ptr<game::GameWorld> world_;
    std::vector<ComponentKind> components_;
    std::vector<KeyBinding> keys_;
    std::vector<System> systems_;
    std::vector<game::NativeScriptClassInfo> scriptClasses_;
    std::vector<std::string> registrationErrors_; // fail the attach
    ScriptHost* host_ = nullptr;
    std::unique_ptr<game::GameRenderer> renderer_;
    std::string crash_;
};

} // namespace scripthost
