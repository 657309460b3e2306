#include "runtime/generation_domain.hpp"

#include "assembly_from_memory.hpp"
#include "runtime/managed_exception.hpp"
#include "runtime/runtime_state.hpp"

#include <fmt/format.h>
#include <mono/metadata/assembly.h>
#include <spdlog/spdlog.h>
#include <utility>

namespace scripthost::mono {

GenerationDomain::GenerationDomain(MonoDomain* domain, std::string name) noexcept
    : domain_(domain), name_(std::move(name)) {}

GenerationDomain::GenerationDomain(GenerationDomain&& other) noexcept
    : domain_(std::exchange(other.domain_, nullptr)), name_(std::move(other.name_)) {}

GenerationDomain& GenerationDomain::operator=(GenerationDomain&& other) noexcept {
    if (this != &other) {
        if (MonoDomain* dying = release()) {
            if (auto r = unloadNow(dying, name_); !r)
                spdlog::warn("{}", r.error().message);
        }
        domain_ = std::exchange(other.domain_, nullptr);
        name_ = std::move(other.name_);
    }
    return *this;
}

GenerationDomain::~GenerationDomain() {
    if (MonoDomain* dying = release()) {
        if (auto r = unloadNow(dying, name_); !r)
            spdlog::warn("{}", r.error().message);
    }
}

Result<GenerationDomain> GenerationDomain::create(std::uint32_t generation) {
    RuntimeState& runtime = runtimeState();
    std::string name = fmt::format("scripthost-gen{}-{}", generation, ++runtime.domainSerial);
    MonoDomain* domain = mono_domain_create_appdomain(name.data(), nullptr);
    if (domain == nullptr) {
        return fail("cannot create app domain " + name);
    }
    runtime.liveDomains.fetch_add(1, std::memory_order_relaxed); // counted down by release
    enterDomain(domain);
    mono_domain_set_config(domain, ".", "");
    return GenerationDomain(domain, std::move(name));
}

Result<MonoImage*> GenerationDomain::load(const AssemblyFile& file, bool isScriptCore) {
    MonoAssembly* assembly = nullptr;
    if (isScriptCore) {
        auto shared = runtimeState().scriptCore.assemblyFor(file);
        if (!shared)
            return std::unexpected(shared.error());
        assembly = *shared;
    }
    if (assembly == nullptr) {
        auto own = loadAssemblyFromMemory(file, name_ + "/" + file.name);
        if (!own)
            return std::unexpected(own.error());
        assembly = *own;
    }
    runtimeState().domains.registerAssembly(domain_, assembly, isScriptCore);
    return mono_assembly_get_image(assembly);
}

void GenerationDomain::switchToRoot() noexcept {
    MonoDomain* root = runtimeState().root;
    if (mono_domain_get() != root) {
        mono_domain_set(root, true);
        recordDomainEntered(root);
    }
}

MonoDomain* GenerationDomain::handOut() noexcept {
    RuntimeState& runtime = runtimeState();
    runtime.domains.forget(domain_);
    runtime.liveDomains.fetch_sub(1, std::memory_order_relaxed);
    return std::exchange(domain_, nullptr);
}

Result<void> GenerationDomain::unloadNow(MonoDomain* dying, const std::string& label) {
    // One unload at a time: finish the ones in the background first.
    RuntimeState& runtime = runtimeState();
    runtime.unloader.waitIdle(std::chrono::steady_clock::time_point::max());
    const std::vector<StartedThread> threads = runtime.threads.takeRunning(dying);
    if (std::string failure = DomainUnloader::unload(dying, label, threads); !failure.empty())
        return fail(std::move(failure));
    return {};
}

std::vector<std::string> GenerationDomain::unloadInBackground(MonoDomain* dying,
                                                              std::string label) {
    RuntimeState& runtime = runtimeState();
    std::vector<StartedThread> threads = runtime.threads.takeRunning(dying);
    std::vector<std::string> names;
    for (const StartedThread& t : threads)
        names.push_back(t.name);
    runtime.unloader.submit(dying, std::move(label), std::move(threads));
    return names;
}

} // namespace scripthost::mono
