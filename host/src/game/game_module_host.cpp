#include "host/game_module_host.hpp"

#include "host/mono_runtime.hpp"
#include "host/script_host.hpp"
#include "host_game_world.hpp"

#include <dlfcn.h>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace {

const char* phaseName(game::SystemPhase phase) {
    return phase == game::SystemPhase::BeforeScripts ? "before scripts" : "after scripts";
}

} // namespace

GameModuleHost::LibraryHandle::~LibraryHandle() {
    if (handle != nullptr)
        ::dlclose(handle);
}

/// The registry a module's attach call sees; writes straight into the GameModuleHost.
class GameModuleHost::Registry final : public game::GameRegistry {
public:
    Registry(GameModuleHost& module, ScriptHost& host) : module_(module), host_(host) {}

    [[nodiscard]] std::uint32_t apiVersion() const override { return game::kApiVersion; }

    void registerComponent(std::string kind, std::string description) override {
        host_.registerComponentKind(kind);
        module_.components_.push_back({std::move(kind), std::move(description)});
    }

    void registerInternalCall(std::string managedName, const void* function) override {
        if (MonoRuntime* runtime = MonoRuntime::running())
            runtime->registerInternalCall(managedName, function);
    }

    void bindKey(std::string key, std::string action, float value) override {
        module_.keys_.push_back({std::move(key), std::move(action), value});
    }

    void addSystem(std::string name, game::SystemPhase phase,
                   game::SystemFunction function) override {
        module_.systems_.push_back({std::move(name), phase, std::move(function), false});
    }

    void setRenderer(std::unique_ptr<game::GameRenderer> renderer) override {
        module_.renderer_ = std::move(renderer);
    }

    [[nodiscard]] game::GameWorld& world() override { return *module_.world_; }

    void log(game::LogLevel level, std::string_view message) override {
        const auto& name =
            module_.name_.empty() ? module_.path_.filename().string() : module_.name_;
        switch (level) {
        case game::LogLevel::Debug:
            spdlog::debug("[{}] {}", name, message);
            break;
        case game::LogLevel::Info:
            spdlog::info("[{}] {}", name, message);
            break;
        case game::LogLevel::Warning:
            spdlog::warn("[{}] {}", name, message);
            break;
        case game::LogLevel::Error:
            spdlog::error("[{}] {}", name, message);
            break;
        }
    }

private:
    GameModuleHost& module_;
    ScriptHost& host_;
};

Result<std::unique_ptr<GameModuleHost>> GameModuleHost::load(const std::filesystem::path& library,
                                                             ScriptHost& host) {
    std::unique_ptr<GameModuleHost> module(new GameModuleHost());
    module->path_ = library;
    // A bare name would make dlopen search the library path; a path is what users mean.
    const std::string path =
        library.has_parent_path() ? library.string() : ("./" + library.string());
    ::dlerror();
    module->library_.handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module->library_.handle == nullptr) {
        const char* why = ::dlerror();
        return fail("cannot load game module " + library.string() + ": " +
                    (why ? why : "unknown error"));
    }
    auto version = reinterpret_cast<ScripthostGameApiVersionFn>(
        ::dlsym(module->library_.handle, "scripthost_game_api_version"));
    auto attach = reinterpret_cast<ScripthostGameAttachFn>(
        ::dlsym(module->library_.handle, "scripthost_game_attach"));
    if (version == nullptr || attach == nullptr) {
        return fail(library.string() +
                    " is not a scripthost game module (no scripthost_game_attach entry point; "
                    "define one with SCRIPTHOST_GAME_MODULE)");
    }
    if (const std::uint32_t v = version(); v != game::kApiVersion) {
        return fail(fmt::format("game module {} was built for game API version {}, this host "
                                "has version {}: rebuild the module",
                                library.string(), v, game::kApiVersion));
    }
    module->world_ = std::make_unique<HostGameWorld>(host);
    Registry registry(*module, host);
    game::ModuleInfo info{nullptr, nullptr};
    std::string error;
    if (!attach(&registry, &info, &error)) {
        return fail("game module " + library.string() + " failed to attach: " + error);
    }
    module->name_ = info.name ? info.name : library.stem().string();
    module->version_ = info.version ? info.version : "";
    spdlog::info("game module {} {} attached: {} component kind(s), {} system(s), {} key "
                 "binding(s){}",
                 module->name_, module->version_, module->components_.size(),
                 module->systems_.size(), module->keys_.size(),
                 module->renderer_ ? ", a renderer" : "");
    return module;
}

GameModuleHost::~GameModuleHost() {
    // The module's objects hold code from the library: destroy them before closing it.
    renderer_.reset();
    systems_.clear();
    world_.reset();
}

void GameModuleHost::runSystems(game::SystemPhase phase, const game::FrameTime& time) {
    for (System& system : systems_) {
        if (system.failed || system.phase != phase)
            continue;
        try {
            system.function(*world_, time);
        } catch (const std::exception& e) {
            system.failed = true;
            spdlog::error("[{}] system '{}' ({}) threw and is switched off: {}", name_, system.name,
                          phaseName(phase), e.what());
        } catch (...) {
            system.failed = true;
            spdlog::error("[{}] system '{}' ({}) threw and is switched off", name_, system.name,
                          phaseName(phase));
        }
    }
}

void GameModuleHost::draw(const game::HostStatus& status, TextCanvas& canvas) {
    if (!renderer_)
        return;
    try {
        renderer_->draw(*world_, status, canvas);
    } catch (const std::exception& e) {
        spdlog::error("[{}] the renderer threw and is switched off: {}", name_, e.what());
        renderer_.reset();
    }
}

} // namespace scripthost
