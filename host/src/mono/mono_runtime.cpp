#include "host/mono_runtime.hpp"

#include "glue/core_internal_calls.hpp"
#include "mono/domain_unloader.hpp"
#include "mono/runtime_registry.hpp"

#include <cstdlib>
#include <mono/jit/jit.h>
#include <mono/metadata/mono-config.h>
#include <mono/metadata/mono-debug.h>
#include <mono/metadata/threads.h>
#include <mutex>
#include <spdlog/spdlog.h>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace scripthost {

namespace {

enum class State { NotStarted, Running, ShutDown };

struct LoadedAssembly {
    MonoAssembly* assembly;
    bool isScriptCore;
};

struct RuntimeState {
    State state = State::NotStarted;
    MonoDomain* root = nullptr;
    // Assemblies per live domain. Metadata pointers, not managed objects: they do not move.
    std::unordered_map<MonoDomain*, std::vector<LoadedAssembly>> assemblies;
    std::unordered_map<MonoDomain*, mono::ObjectBridge*> bridges;
};

RuntimeState& runtimeState() {
    static RuntimeState s;
    return s;
}

MonoAssembly* preloadHook(MonoAssemblyName* name, char** /*paths*/, void* /*user*/) {
    const char* wanted = mono_assembly_name_get_name(name);
    auto& state = runtimeState();
    auto it = state.assemblies.find(mono_domain_get());
    if (wanted == nullptr || it == state.assemblies.end()) {
        return nullptr;
    }
    for (const LoadedAssembly& loaded : it->second) {
        MonoAssemblyName* have = mono_assembly_get_name(loaded.assembly);
        const char* haveName = have ? mono_assembly_name_get_name(have) : nullptr;
        if (haveName != nullptr && std::string_view(haveName) == wanted) {
            return loaded.assembly;
        }
    }
    return nullptr;
}

} // namespace

namespace mono {

MonoDomain* rootDomain() noexcept {
    return runtimeState().root;
}

void registerAssembly(MonoDomain* domain, MonoAssembly* assembly, bool isScriptCore) {
    runtimeState().assemblies[domain].push_back({assembly, isScriptCore});
}

void forgetDomain(MonoDomain* domain) {
    runtimeState().assemblies.erase(domain);
    runtimeState().bridges.erase(domain);
}

void registerBridge(MonoDomain* domain, ObjectBridge* bridge) {
    runtimeState().bridges[domain] = bridge;
}

ObjectBridge* bridgeOf(MonoDomain* domain) {
    auto& bridges = runtimeState().bridges;
    auto it = bridges.find(domain);
    return it == bridges.end() ? nullptr : it->second;
}

MonoImage* scriptCoreImage(MonoDomain* domain) {
    auto& state = runtimeState();
    auto it = state.assemblies.find(domain);
    if (it == state.assemblies.end()) {
        return nullptr;
    }
    for (const LoadedAssembly& loaded : it->second) {
        if (loaded.isScriptCore) {
            return mono_assembly_get_image(loaded.assembly);
        }
    }
    return nullptr;
}

MonoImage* scriptsImage(MonoDomain* domain, const char* assemblyName) {
    auto& state = runtimeState();
    auto it = state.assemblies.find(domain);
    if (it == state.assemblies.end()) {
        return nullptr;
    }
    for (const LoadedAssembly& loaded : it->second) {
        MonoAssemblyName* name = mono_assembly_get_name(loaded.assembly);
        const char* text = name ? mono_assembly_name_get_name(name) : nullptr;
        if (!loaded.isScriptCore && text != nullptr && std::string_view(text) == assemblyName) {
            return mono_assembly_get_image(loaded.assembly);
        }
    }
    return nullptr;
}

} // namespace mono

MonoRuntime& MonoRuntime::instance() {
    // Never destroyed: Mono must not be cleaned up by a static destructor at exit.
    static MonoRuntime* runtime = new MonoRuntime();
    return *runtime;
}

Result<MonoRuntime*> MonoRuntime::start(const Options& options) {
    auto& state = runtimeState();
    if (state.state == State::Running) {
        return &instance();
    }
    if (state.state == State::ShutDown) {
        return fail("the Mono runtime was shut down and cannot start again in this process");
    }
    // Preemptive suspend: hybrid (Debian's default) aborts the process in
    // mono_domain_try_unload and makes every transition several times slower.
    setenv("MONO_THREADS_SUSPEND", "preemptive", 0);
    mono_config_parse(nullptr);
    // Before the JIT starts, so stack traces carry file:line from the .mdb files.
    mono_debug_init(MONO_DEBUG_FORMAT_MONO);
    state.root = mono_jit_init_version(options.rootDomainName.c_str(), "v4.0.30319");
    if (state.root == nullptr) {
        return fail("mono_jit_init_version failed: is the Mono runtime (mono-runtime) installed?");
    }
    mono_install_assembly_preload_hook(&preloadHook, nullptr);
    state.state = State::Running;
    glue::registerCoreInternalCalls(instance());
    spdlog::debug("Mono {} started", instance().version());
    return &instance();
}

MonoRuntime* MonoRuntime::running() noexcept {
    return runtimeState().state == State::Running ? &instance() : nullptr;
}

void MonoRuntime::shutdown() noexcept {
    auto& state = runtimeState();
    if (state.state != State::Running) {
        return;
    }
    mono::DomainUnloader::instance().stop(); // its thread must not outlive the runtime
    mono_jit_cleanup(state.root);
    state.root = nullptr;
    state.state = State::ShutDown;
}

void MonoRuntime::registerInternalCall(const std::string& name, const void* function) {
    mono_add_internal_call(name.c_str(), function);
}

std::string MonoRuntime::version() const {
    char* info = mono_get_runtime_build_info();
    std::string text = info ? info : "unknown";
    mono_free(info);
    return text;
}

} // namespace scripthost
