#pragma once
// Process-wide bookkeeping the runtime keeps for every live app domain.

#include <mono/metadata/appdomain.h>
#include <mono/metadata/assembly.h>
#include <mono/metadata/image.h>

namespace scripthost::mono {

class ObjectBridge;

/// The root domain (valid once the runtime has started).
MonoDomain* rootDomain() noexcept;

/// Records an assembly loaded into `domain`, so the preload hook resolves references to
/// it by name inside that domain (the safety net MONO-NOTES asks for).
void registerAssembly(MonoDomain* domain, MonoAssembly* assembly, bool isScriptCore);

/// Records the object bridge of `domain`, for internal calls made in that domain.
void registerBridge(MonoDomain* domain, ObjectBridge* bridge);

/// The object bridge of `domain`, or nullptr. Main thread only.
ObjectBridge* bridgeOf(MonoDomain* domain);

/// Forgets every assembly and the bridge of `domain` (before it is unloaded).
void forgetDomain(MonoDomain* domain);

/// ScriptCore's image in `domain`, or nullptr.
MonoImage* scriptCoreImage(MonoDomain* domain);

/// The image of the scripts assembly named `assemblyName` (e.g. "Scripts") in `domain`,
/// or nullptr. For host-internal tools such as the dispatch benchmark.
MonoImage* scriptsImage(MonoDomain* domain, const char* assemblyName);

} // namespace scripthost::mono
