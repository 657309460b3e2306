#include "host/modules/game_module_host.hpp"

#include "host/engine/script_host.hpp"
#include "host/modules/elf_check.hpp"
#include "host/modules/native_proxy_source.hpp"
#include "host/runtime/mono_runtime.hpp"
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

    void registerInternalCallInfo(game::InternalCallInfo call) override {
        if (call.thunk == nullptr || call.managedName.find("::") == std::string::npos) {
            module_.registrationErrors_.push_back(
                "internal call '" + call.managedName +
                "' is not named Namespace.Class::Method (or has no function)");
            return;
        }
        if (ModuleCallIndex::bridge().invoke == nullptr) {
            module_.registrationErrors_.push_back(
                "internal call '" + call.managedName +
                "': the host has no bridge for module internal calls (the engine's internal "
                "calls were not registered)");
            return;
        }
        module_.guardedCalls_.add(call);
        bindInternalCall(std::move(call.managedName), call.thunk);
    }

    [[nodiscard]] game::InternalCallBridge internalCallBridge() const override {
        return ModuleCallIndex::bridge();
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

    void registerScriptClass(game::NativeScriptClassInfo scriptClass) override {
        auto valid = checkNativeClassName(scriptClass.name);
        if (valid)
            valid = checkNativeClassMembers(scriptClass);
        for (const game::NativeScriptClassInfo& c : module_.scriptClasses_) {
            if (valid && c.name == scriptClass.name)
                valid = fail("native script class " + c.name + " is registered twice");
        }
        if (!valid) {
            module_.registrationErrors_.push_back(valid.error().message);
            return;
        }
        for (const game::NativeMethodInfo& m : scriptClass.methods) {
            // The proxy's method binds to "Namespace.Class::Internal_Method".
            bindInternalCall(scriptClass.name + "::Internal_" + m.name, m.internalCall);
        }
        module_.scriptClasses_.push_back(std::move(scriptClass));
    }

    [[nodiscard]] game::NativeCallBridge nativeCallBridge() const override {
        return NativeScripts::callBridge();
    }

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
    /// Registers `function` with Mono as `managedName` (a thunk that reaches the host's guard:
    /// the module's own internal calls and its native script methods).
    void bindInternalCall(std::string managedName, const void* function) {
        if (MonoRuntime* runtime = MonoRuntime::running())
            runtime->registerInternalCall(managedName, function);
        module_.internalCalls_.emplace_back(std::move(managedName), function);
    }

    GameModuleHost& module_;
    ScriptHost& host_;
};

Result<std::unique_ptr<GameModuleHost>>
GameModuleHost::load(const std::filesystem::path& library, ScriptHost& host,
                     const std::filesystem::path& loadFrom) {
    std::unique_ptr<GameModuleHost> module(new GameModuleHost());
    module->path_ = library;
    module->host_ = &host;
    const std::filesystem::path& file = loadFrom.empty() ? library : loadFrom;
    // A library cut short (its writer stopped before the end) would be mapped past the end of
    // the file, and the loader would die of SIGBUS on the missing pages.
    if (const ElfCheck check = checkElf(file, library); check.shape == ElfCheck::Shape::CutShort)
        return fail("cannot load game module " + library.string() + ": " + check.why);
    // A bare name would make dlopen search the library path; a path is what users mean.
    const std::string path = file.has_parent_path() ? file.string() : ("./" + file.string());
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
    module->save_ = reinterpret_cast<ScripthostGameSaveStateFn>(
        ::dlsym(module->library_.handle, "scripthost_game_save_state"));
    module->restore_ = reinterpret_cast<ScripthostGameRestoreStateFn>(
        ::dlsym(module->library_.handle, "scripthost_game_restore_state"));
    module->world_ = std::make_unique<HostGameWorld>(host);
    Registry registry(*module, host);
    game::ModuleInfo info{nullptr, nullptr};
    std::string error;
    bool attached = false;
    if (auto crash = NativeFaultGuard::run([&] { attached = attach(&registry, &info, &error); })) {
        // What it registered may point into a state the crash left half-built: let it go
        // without running its destructors (a leak, not a second crash).
        module->leakModuleObjects();
        return fail("game module " + library.string() +
                    " crashed while attaching: " + crash->describe());
    }
    if (!attached) {
        return fail("game module " + library.string() + " failed to attach: " + error);
    }
    if (!module->registrationErrors_.empty()) {
        std::string all;
        for (const std::string& e : module->registrationErrors_)
            all += (all.empty() ? "" : "; ") + e;
        return fail("game module " + library.string() +
                    " registered what the host cannot take: " + all);
    }
    module->name_ = info.name ? info.name : library.stem().string();
    module->version_ = info.version ? info.version : "";
    spdlog::info("game module {} {} attached: {} component kind(s), {} system(s), {} native "
                 "script class(es), {} key binding(s){}",
                 module->name_, module->version_, module->components_.size(),
                 module->systems_.size(), module->scriptClasses_.size(), module->keys_.size(),
                 module->renderer_ ? ", a renderer" : "");
    return module;
}

GameModuleHost::~GameModuleHost() {
    // The module's objects hold code from the library: destroy them before closing it —
    // unless it crashed, when running their destructors could crash again.
    if (!crash_.empty())
        leakModuleObjects();
    renderer_.reset();
    systems_.clear();
    world_.reset();
}

void GameModuleHost::leakModuleObjects() {
    (void)renderer_.release();
    new std::vector<System>(std::move(systems_)); // NOLINT: deliberately never freed
    systems_.clear();
}

NativeScriptCarry GameModuleHost::activateNativeScripts() {
    return host_->replaceNativeClasses(scriptClasses_, *world_,
                                       [this](const std::string& what, const NativeFault& fault) {
                                           switchOffAfterCrash(what, fault);
                                       });
}

void GameModuleHost::switchOffAfterCrash(const std::string& what, const NativeFault& fault) {
    crash_ = fmt::format("{}: {}", what, fault.describe());
    // Its native scripts stop too (a no-op when one of them is what crashed).
    host_->natives().stop(crash_);
    for (System& system : systems_)
        system.failed = true;
    (void)renderer_.release(); // see leakModuleObjects
    spdlog::error("[{}] {} crashed; the module's systems, renderer, native scripts and internal "
                  "calls are switched off (the scripts and the host go on): {}",
                  name_, what, fault.describe());
}

Result<void> GameModuleHost::runInternalCall(const std::string& name, game::InternalCallBody body,
                                             void* frame) {
    if (!crash_.empty()) {
        return fail(fmt::format("native call {} is not run: the game module '{}' is switched off "
                                "after a crash ({})",
                                name, name_, crash_));
    }
    std::string error;
    const auto crash = NativeFaultGuard::run([&] {
        try {
            body(frame);
        } catch (const std::exception& e) {
            error = e.what()[0] != '\0' ? e.what() : "an exception";
        } catch (...) {
            error = "an unknown exception";
        }
    });
    if (crash) {
        switchOffAfterCrash(fmt::format("internal call '{}'", name), *crash);
        return fail(fmt::format("native call {} crashed: {}; the game module '{}' is switched off",
                                name, crash->describe(), name_));
    }
    if (!error.empty())
        return fail(fmt::format("native call {} threw: {}", name, error));
    return {};
}

void GameModuleHost::registerInternalCallsAgain() {
    if (MonoRuntime* runtime = MonoRuntime::running()) {
        for (const auto& [name, function] : internalCalls_)
            runtime->registerInternalCall(name, function);
    }
}

Result<std::string> GameModuleHost::saveState() {
    if (save_ == nullptr)
        return fail(name_ + " does not hand its state over (no SCRIPTHOST_GAME_STATE)");
    std::string state, error;
    bool saved = false;
    if (auto crash = NativeFaultGuard::run([&] { saved = save_(&state, &error); })) {
        switchOffAfterCrash("saving its state", *crash);
        return fail("saving the module's state crashed: " + crash->describe());
    }
    if (!saved)
        return fail("saving the module's state failed: " + error);
    return state;
}

Result<void> GameModuleHost::restoreState(const std::string& state) {
    if (restore_ == nullptr)
        return fail(name_ + " does not take state over (no SCRIPTHOST_GAME_STATE)");
    std::string error;
    bool restored = false;
    if (auto crash = NativeFaultGuard::run([&] { restored = restore_(&state, &error); })) {
        switchOffAfterCrash("restoring its state", *crash);
        return fail("restoring the module's state crashed: " + crash->describe());
    }
    if (!restored)
        return fail("restoring the module's state failed: " + error);
    return {};
}

void GameModuleHost::runSystems(game::SystemPhase phase, const game::FrameTime& time) {
    for (System& system : systems_) {
        if (system.failed || system.phase != phase)
            continue;
        try {
            if (auto crash = NativeFaultGuard::run([&] { system.function(*world_, time); })) {
                switchOffAfterCrash(fmt::format("system '{}' ({})", system.name, phaseName(phase)),
                                    *crash);
                return;
            }
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
        if (auto crash = NativeFaultGuard::run([&] { renderer_->draw(*world_, status, canvas); })) {
            switchOffAfterCrash("the renderer", *crash);
        }
    } catch (const std::exception& e) {
        spdlog::error("[{}] the renderer threw and is switched off: {}", name_, e.what());
        renderer_.reset();
    }
}

} // namespace scripthost
