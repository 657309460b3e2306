#include "runtime/shared_script_core.hpp"

#include "assembly_from_memory.hpp"
#include "runtime/checked_call.hpp"
#include "runtime/runtime_state.hpp"

#include <fmt/format.h>
#include <mono/metadata/appdomain.h>
#include <spdlog/spdlog.h>

namespace scripthost::mono {

Result<MonoAssembly*> SharedScriptCore::assemblyFor(const AssemblyFile& file) {
    if (assembly_ != nullptr) {
        if (file.image == bytes_)
            return assembly_;
        if (ownCopies_++ == 0)
            spdlog::info("{} changed while the host runs: each generation loads its own copy "
                         "of it from now on (more memory per reload)",
                         file.path.string());
        return static_cast<MonoAssembly*>(nullptr);
    }
    RuntimeState& runtime = runtimeState();
    MonoDomain* current = mono_domain_get();
    enterDomain(runtime.root);
    auto loaded = loadAssemblyFromMemory(
        file, fmt::format("scripthost-shared-{}/{}", ++runtime.domainSerial, file.name));
    enterDomain(current);
    if (!loaded)
        return loaded;
    assembly_ = *loaded;
    bytes_ = file.image;
    return assembly_;
}

} // namespace scripthost::mono
