#pragma once
// SharedScriptCore: one ScriptCore image for every generation (docs/MONO.md §19).

#include "host/model/assembly_file.hpp"
#include "scripthost/game/error.hpp"

#include <cstdint>
#include <mono/metadata/assembly.h>
#include <vector>

namespace scripthost::mono {

/// ScriptCore, loaded once and used by every generation's domain. Mono keeps what it makes
/// for an image's methods (the dispatcher's unmanaged thunk, runtime-invoke wrappers, generic
/// instances over ScriptCore's types) in memory that outlives a domain; with an image per
/// generation that was ~2.9 KB per reload, never freed. With one image it is made once.
///
/// The first generation's ScriptCore bytes are loaded into the root domain, which never
/// unloads and so holds the assembly for the runtime's life. A generation domain then gets
/// that assembly (Mono hands back the image's assembly) and records it for the preload hook;
/// JIT code, statics and vtables stay per domain as for corlib. When a generation brings
/// different bytes (ScriptCore rebuilt while the host runs) the caller loads those into the
/// generation's own domain, as every generation did before: loading them into the root too
/// would hand back the first assembly by name (Mono's search hook), old code and all.
/// Main thread only (domains are made there).
class SharedScriptCore {
public:
    /// The shared assembly when `file` has the bytes it was loaded from, loading it into the
    /// root domain on first use; nullptr when the bytes differ. The current domain is the
    /// same after the call.
    [[nodiscard]] Result<MonoAssembly*> assemblyFor(const AssemblyFile& file);

    /// Generations that brought other bytes and loaded a ScriptCore of their own.
    [[nodiscard]] std::uint64_t ownCopies() const noexcept { return ownCopies_; }

private:
    std::vector<char> bytes_;
    MonoAssembly* assembly_ = nullptr;
    std::uint64_t ownCopies_ = 0;
};

} // namespace scripthost::mono
