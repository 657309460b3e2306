#pragma once
// DomainRegistry: what the runtime knows about every live script app domain.

#include <mono/metadata/appdomain.h>
#include <mono/metadata/assembly.h>
#include <mono/metadata/image.h>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace scripthost::mono {

class ObjectBridge;

/// Per live app domain: the assemblies loaded into it and its object bridge. Mono's
/// preload hook and the internal calls are plain functions that only know the current
/// domain, so they look their domain's assemblies and bridge up here. Owned by the
/// RuntimeState; main thread only (domains are made, used and released there, and the
/// hook and internal calls run there).
class DomainRegistry {
public:
    /// Records an assembly loaded into `domain`, so the preload hook resolves references to
    /// it by name inside that domain (the safety net docs/MONO.md describes).
    void registerAssembly(MonoDomain* domain, MonoAssembly* assembly, bool isScriptCore);
    /// Records the object bridge of `domain`, for internal calls made in that domain.
    void registerBridge(MonoDomain* domain, ObjectBridge* bridge);
    /// Forgets every assembly and the bridge of `domain` (before it is unloaded).
    void forget(MonoDomain* domain);

    /// The object bridge of `domain`, or nullptr.
    [[nodiscard]] ObjectBridge* bridgeOf(MonoDomain* domain) const;
    /// The assembly named `name` loaded into `domain`, or nullptr (the preload hook).
    [[nodiscard]] MonoAssembly* findAssembly(MonoDomain* domain, std::string_view name) const;
    /// ScriptCore's image in `domain`, or nullptr.
    [[nodiscard]] MonoImage* scriptCoreImage(MonoDomain* domain) const;
    /// The image of the scripts assembly named `assemblyName` (e.g. "Scripts") in `domain`,
    /// or nullptr. For host-internal tools such as the dispatch benchmark.
    [[nodiscard]] MonoImage* scriptsImage(MonoDomain* domain, std::string_view assemblyName) const;

private:
    struct LoadedAssembly {
        MonoAssembly* assembly; // metadata, not a managed object: it does not move
        bool isScriptCore;
    };
    [[nodiscard]] const std::vector<LoadedAssembly>* assembliesOf(MonoDomain* domain) const;

    std::unordered_map<MonoDomain*, std::vector<LoadedAssembly>> assemblies_;
    std::unordered_map<MonoDomain*, ObjectBridge*> bridges_;
};

} // namespace scripthost::mono
