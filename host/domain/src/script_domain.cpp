// ScriptDomain: creation, class queries and the object bridge. The other members live
// with the part of the generation they use: script_domain_instances.cpp,
// script_domain_dispatch.cpp, script_domain_fields.cpp, script_domain_carry.cpp,
// script_domain_statics.cpp, script_domain_unload.cpp and jit_warm_up.cpp.
#include "host/domain/script_domain.hpp"

#include "host/runtime/forbidden_calls.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/unhandled_exception_hooks.hpp"
#include "script_domain_impl.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

namespace scripthost {

ScriptDomain::Impl::~Impl() {
    if (domain.loaded()) {
        if (auto r = unload(); !r) {
            spdlog::warn("{}", r.error().message);
        }
    }
}

Result<void> ScriptDomain::Impl::loadScriptCore(const AssemblyFile& scriptCore) {
    auto image = domain.load(scriptCore, true);
    if (!image)
        return std::unexpected(image.error());
    coreImage = *image;
    auto classesFound = mono::ScriptCoreClasses::bind(coreImage);
    if (!classesFound)
        return std::unexpected(classesFound.error());
    core = std::move(*classesFound);
    auto bound = mono::ManagedDispatcher::bind(domain.get(), core.dispatcher);
    if (!bound)
        return std::unexpected(bound.error());
    dispatcher = *bound;
    // Exceptions no one catches on this generation's threads, pool work, finalizers and
    // Tasks are reported against their scripts.
    return mono::installUnhandledExceptionReporting(domain.get(), coreImage);
}

Result<MonoImage*> ScriptDomain::Impl::loadScriptAssembly(const AssemblyFile& file) {
    auto image = domain.load(file, false);
    if (!image)
        return std::unexpected(image.error());
    if (auto forbidden = mono::findForbiddenCalls(*image); !forbidden.empty()) {
        std::vector<std::string> lines;
        for (const mono::ForbiddenCall& call : forbidden)
            lines.push_back(call.message());
        return fail(fmt::format("{} was not loaded: {}", file.path.filename().string(),
                                fmt::join(lines, "; ")));
    }
    core.collectComponentKinds(*image); // game modules' scripts may add kinds
    return *image;
}

Result<void> ScriptDomain::Impl::loadScripts(std::span<const AssemblyFile> assemblies) {
    if (assemblies.empty())
        return fail("no scripts assembly to load");
    // In dependency order: each assembly's references to the ones before it resolve in this
    // domain (the preload hook finds them by name). Those loaded ahead (preload) are in it
    // already, with their classes found: they come before any they do not reference.
    preloadQueue.clear();
    for (const AssemblyFile& file : assemblies) {
        MonoImage* image = nullptr;
        for (std::size_t i = 0; i < preloaded.size(); ++i) {
            if (preloaded[i].name == file.name) {
                if (preloaded[i].image != file.image)
                    return fail(fmt::format("{} was loaded ahead with other bytes", file.name));
                image = preloadedImages[i];
            }
        }
        if (image == nullptr) {
            auto loaded = loadScriptAssembly(file);
            if (!loaded)
                return std::unexpected(loaded.error());
            image = *loaded;
            classes.add(image, core, file.name);
        }
        scripts.images.push_back(image);
        scripts.names.push_back(file.name);
    }
    bridge = std::make_unique<mono::ObjectBridge>(
        domain.get(), std::move(core.proxyClasses), [this](ObjectId id) -> MonoObject* {
            const mono::ScriptInstance* found = instances.find(id);
            return found == nullptr ? nullptr : found->handle.target();
        });
    mono::runtimeState().domains.registerBridge(domain.get(), bridge.get());
    scriptsComplete = true;
    return classes.index();
}

Result<mono::ScriptInstance*> ScriptDomain::Impl::instance(ObjectId script) {
    if (!domain.loaded()) {
        return fail(fmt::format("generation {} is unloaded", generation));
    }
    mono::ScriptInstance* found = instances.find(script);
    if (found == nullptr) {
        return fail(
            fmt::format("no script instance {} in generation {}", script.toString(), generation));
    }
    return found;
}

ScriptDomain::ScriptDomain(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ScriptDomain::~ScriptDomain() = default;

namespace {

// The app domain with ScriptCore loaded into it: what create() and prepare() share.
Result<std::unique_ptr<ScriptDomain::Impl>>
makeDomainWithScriptCore(std::uint32_t generation, const AssemblyFile& scriptCore, World& world) {
    if (mono::runtimeState().root == nullptr) {
        return fail("the Mono runtime is not running (call MonoRuntime::start first)");
    }
    auto impl = std::make_unique<ScriptDomain::Impl>();
    impl->generation = generation;
    impl->world = &world;
    auto domain = mono::GenerationDomain::create(generation);
    if (!domain)
        return std::unexpected(domain.error());
    impl->domain = std::move(*domain);
    // ScriptCore first: the scripts assembly's reference to it then resolves in this domain.
    // On failure, the half-made domain is unloaded with `impl`.
    if (auto loaded = impl->loadScriptCore(scriptCore); !loaded)
        return std::unexpected(loaded.error());
    return impl;
}

} // namespace

Result<std::unique_ptr<ScriptDomain>> ScriptDomain::create(std::uint32_t generation,
                                                           const AssemblyFile& scriptCore,
                                                           const AssemblyFile& scripts,
                                                           World& world) {
    return create(generation, scriptCore, std::span(&scripts, 1), world);
}

Result<std::unique_ptr<ScriptDomain>> ScriptDomain::create(std::uint32_t generation,
                                                           const AssemblyFile& scriptCore,
                                                           std::span<const AssemblyFile> scripts,
                                                           World& world) {
    auto impl = makeDomainWithScriptCore(generation, scriptCore, world);
    if (!impl)
        return std::unexpected(impl.error());
    if (auto loaded = (*impl)->loadScripts(scripts); !loaded)
        return std::unexpected(loaded.error());
    return std::unique_ptr<ScriptDomain>(new ScriptDomain(std::move(*impl)));
}

Result<std::unique_ptr<ScriptDomain>> ScriptDomain::prepare(std::uint32_t expectedGeneration,
                                                            const AssemblyFile& scriptCore,
                                                            World& world) {
    // Made beside the running generation, whose domain this thread goes back to.
    MonoDomain* running = mono_domain_get();
    auto impl = makeDomainWithScriptCore(expectedGeneration, scriptCore, world);
    if (running != nullptr)
        mono::enterDomain(running);
    if (!impl)
        return std::unexpected(impl.error());
    (*impl)->startBackgroundWarm(/*profiled*/ true);
    return std::unique_ptr<ScriptDomain>(new ScriptDomain(std::move(*impl)));
}

Result<void> ScriptDomain::loadScripts(std::uint32_t generation, const AssemblyFile& scripts) {
    return loadScripts(generation, std::span(&scripts, 1));
}

Result<void> ScriptDomain::loadScripts(std::uint32_t generation,
                                       std::span<const AssemblyFile> scripts) {
    Impl& m = *impl_;
    if (m.scriptsComplete || !m.domain.loaded())
        return fail("a prepared domain takes scripts once");
    m.generation = generation;
    m.domain.enter();
    return m.loadScripts(scripts);
}

bool ScriptDomain::scriptsLoaded() const noexcept {
    return impl_->scriptsComplete;
}

std::uint32_t ScriptDomain::generation() const noexcept {
    return impl_->generation;
}

const std::vector<ScriptClassInfo>& ScriptDomain::scriptClasses() const {
    return impl_->classes.infos();
}

std::vector<const ScriptClassInfo*> ScriptDomain::classesWithPreservedStatics() const {
    std::vector<const ScriptClassInfo*> classes;
    for (const mono::ScriptClassEntry* entry : impl_->classes.withPreservedStatics())
        classes.push_back(&entry->info);
    return classes;
}

const ScriptClassInfo* ScriptDomain::findScriptClass(std::string_view name) const noexcept {
    const mono::ScriptClassEntry* entry = impl_->classes.find(name);
    return entry ? &entry->info : nullptr;
}

std::string ScriptDomain::explainMissingClass(std::string_view name) const {
    if (!impl_->domain.loaded()) {
        return "the script domain is unloaded";
    }
    impl_->domain.enter();
    return impl_->classes.explainMissing(name, impl_->scripts, impl_->core.scriptBase);
}

bool ScriptDomain::hasLiveProxy(ObjectId id) const {
    return impl_->bridge && impl_->bridge->hasLiveProxy(id);
}

void ScriptDomain::forgetProxy(ObjectId id) {
    if (impl_->bridge) {
        impl_->bridge->forget(id);
    }
}

std::size_t ScriptDomain::purgeCollectedProxies() {
    return impl_->bridge ? impl_->bridge->purgeCollected() : 0;
}

std::size_t ScriptDomain::proxyCount() const noexcept {
    return impl_->bridge ? impl_->bridge->proxyCount() : 0;
}

} // namespace scripthost
