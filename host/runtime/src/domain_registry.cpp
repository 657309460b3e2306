#include "runtime/domain_registry.hpp"

namespace scripthost::mono {

namespace {
// The simple name of an assembly ("ScriptCore"), or an empty view.
std::string_view nameOf(MonoAssembly* assembly) {
    MonoAssemblyName* name = mono_assembly_get_name(assembly);
    const char* text = name ? mono_assembly_name_get_name(name) : nullptr;
    return text ? std::string_view(text) : std::string_view();
}
} // namespace

void DomainRegistry::registerAssembly(MonoDomain* domain, MonoAssembly* assembly,
                                      bool isScriptCore) {
    assemblies_[domain].push_back({assembly, isScriptCore});
}

void DomainRegistry::registerBridge(MonoDomain* domain, ObjectBridge* bridge) {
    bridges_[domain] = bridge;
}

void DomainRegistry::forget(MonoDomain* domain) {
    assemblies_.erase(domain);
    bridges_.erase(domain);
}

ObjectBridge* DomainRegistry::bridgeOf(MonoDomain* domain) const {
    auto it = bridges_.find(domain);
    return it == bridges_.end() ? nullptr : it->second;
}

const std::vector<DomainRegistry::LoadedAssembly>*
DomainRegistry::assembliesOf(MonoDomain* domain) const {
    auto it = assemblies_.find(domain);
    return it == assemblies_.end() ? nullptr : &it->second;
}

MonoAssembly* DomainRegistry::findAssembly(MonoDomain* domain, std::string_view name) const {
    if (const auto* loaded = assembliesOf(domain)) {
        for (const LoadedAssembly& entry : *loaded) {
            const std::string_view have = nameOf(entry.assembly);
            if (!have.empty() && have == name)
                return entry.assembly;
        }
    }
    return nullptr;
}

MonoImage* DomainRegistry::scriptCoreImage(MonoDomain* domain) const {
    if (const auto* loaded = assembliesOf(domain)) {
        for (const LoadedAssembly& entry : *loaded) {
            if (entry.isScriptCore)
                return mono_assembly_get_image(entry.assembly);
        }
    }
    return nullptr;
}

MonoImage* DomainRegistry::scriptsImage(MonoDomain* domain, std::string_view assemblyName) const {
    if (const auto* loaded = assembliesOf(domain)) {
        for (const LoadedAssembly& entry : *loaded) {
            const std::string_view have = nameOf(entry.assembly);
            if (!entry.isScriptCore && !have.empty() && have == assemblyName)
                return mono_assembly_get_image(entry.assembly);
        }
    }
    return nullptr;
}

} // namespace scripthost::mono
