#pragma once
// ModuleCallIndex: which game module build each guarded internal call belongs to, by its thunk.

#include "scripthost/game/module_internal_call.hpp"

#include <string>
#include <vector>

namespace scripthost {

class GameModuleHost;

/// The guarded internal calls (GameRegistry::registerInternalCall<&function>) of every game
/// module build loaded, found by their thunk — the function Mono calls, whose address is unique
/// to one build: two builds of a module each have their own, so a script generation still
/// bound to the previous build's calls reaches that build. Nothing of the module's own memory
/// (its statics) identifies a build: the dynamic loader may share a module's template statics
/// between two builds loaded at once. Process-wide, like Mono's table of internal calls; main
/// thread only.
class ModuleCallIndex {
public:
    struct Call {
        std::string name;                 ///< "Demo.Arena/Native::Internal_Flash"
        GameModuleHost* module = nullptr; ///< the build whose code it runs
    };

    /// A module build's calls in the index, for the registration's lifetime (the build's).
    class Registration {
    public:
        explicit Registration(GameModuleHost& module) noexcept : module_(&module) {}
        ~Registration();
        Registration(const Registration&) = delete;
        Registration& operator=(const Registration&) = delete;
        /// Adds `call`. A function registered under a second name keeps its first name (the
        /// one its exceptions' messages give).
        void add(const game::InternalCallInfo& call);

    private:
        GameModuleHost* module_;
        std::vector<const void*> thunks_;
    };

    /// The call whose thunk is `thunk`, or nullptr (its build has been unloaded).
    [[nodiscard]] static const Call* find(const void* thunk) noexcept;
    /// The bridge module thunks call (game::InternalCallBridge::invoke). It runs managed-side
    /// glue (the calling script's exception), so the glue sets it when it registers the engine's
    /// internal calls (host/glue/src/module_internal_call_glue.cpp), before any module loads;
    /// until then it is empty and GameModuleHost refuses internal calls.
    [[nodiscard]] static game::InternalCallBridge bridge() noexcept;
    static void setBridge(game::InternalCallBridge bridge) noexcept;
};

} // namespace scripthost
