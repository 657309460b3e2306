#include "mono_owned_code.hpp"

#include "runtime/runtime_state.hpp"

#include <cstdint>
#include <dlfcn.h>
#include <link.h>
#include <mono/jit/jit.h>
#include <mono/metadata/appdomain.h>

namespace scripthost::mono {

namespace {

struct Range {
    std::uintptr_t begin = 0, end = 0;
};
Range monoLibrary;

int findLoadedRange(dl_phdr_info* info, std::size_t, void* data) {
    auto* range = static_cast<Range*>(data);
    if (info->dlpi_addr != range->begin)
        return 0;
    std::uintptr_t low = UINTPTR_MAX, high = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& segment = info->dlpi_phdr[i];
        if (segment.p_type != PT_LOAD)
            continue;
        low = std::min<std::uintptr_t>(low, info->dlpi_addr + segment.p_vaddr);
        high = std::max<std::uintptr_t>(high, info->dlpi_addr + segment.p_vaddr + segment.p_memsz);
    }
    *range = {low, high};
    return 1;
}

} // namespace

void rememberMonoLibrary() {
    Dl_info where{};
    if (dladdr(reinterpret_cast<void*>(&mono_jit_init_version), &where) == 0)
        return;
    Range range{reinterpret_cast<std::uintptr_t>(where.dli_fbase), 0};
    if (dl_iterate_phdr(&findLoadedRange, &range) == 1)
        monoLibrary = range;
}

bool isMonoOwnedCode(void* pc) noexcept {
    const auto at = reinterpret_cast<std::uintptr_t>(pc);
    if (at >= monoLibrary.begin && at < monoLibrary.end)
        return true;
    // What Mono's own handler asks: is there JIT info for this address? The current domain
    // first (a generation's scripts), then the root domain.
    MonoDomain* current = mono_domain_get();
    if (current != nullptr && mono_jit_info_table_find(current, pc) != nullptr)
        return true;
    MonoDomain* root = runtimeState().root;
    return root != nullptr && root != current && mono_jit_info_table_find(root, pc) != nullptr;
}

} // namespace scripthost::mono
