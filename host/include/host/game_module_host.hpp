#pragma once
// GameModuleHost: one game module loaded into the host, and what it registered.

#include "host/error.hpp"
#include "host/game_module.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace scripthost {

class ScriptHost;

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
/// calls stay registered with Mono for the process's life, so a module is loaded once
/// per process, before the first script generation. Main thread only.
class GameModuleHost {
public:
    [[nodiscard]] static Result<std::unique_ptr<GameModuleHost>>
    load(const std::filesystem::path& library, ScriptHost& host);
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

    /// Runs the systems of `phase` in registration order. A system that throws is logged
    /// and switched off; the others and the frame go on.
    void runSystems(game::SystemPhase phase, const game::FrameTime& time);
    /// The module's renderer, or nullptr if it has none.
    [[nodiscard]] game::GameRenderer* renderer() noexcept { return renderer_.get(); }
    /// Draws through the renderer; a renderer that throws is logged and dropped.
    void draw(const game::HostStatus& status, TextCanvas& canvas);
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

    LibraryHandle library_; // declared first: closed last
    std::filesystem::path path_;
    std::string name_, version_;
    std::unique_ptr<game::GameWorld> world_;
    std::vector<ComponentKind> components_;
    std::vector<KeyBinding> keys_;
    std::vector<System> systems_;
    std::unique_ptr<game::GameRenderer> renderer_;
};

} // namespace scripthost
