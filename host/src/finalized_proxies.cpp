#include "finalized_proxies.hpp"

#include <mutex>
#include <utility>

namespace scripthost {

namespace {
// Process-wide because the finalizer thread has no ScriptContext to find a host by.
std::mutex g_mutex;
std::vector<ObjectId> g_finalized;
} // namespace

void noteProxyFinalized(ObjectId entity) noexcept {
    try {
        std::lock_guard lock(g_mutex);
        g_finalized.push_back(entity);
    } catch (...) {
        // Out of memory on the finalizer thread: the entity stays until its owner is unloaded.
    }
}

std::vector<ObjectId> takeFinalizedProxies() {
    std::lock_guard lock(g_mutex);
    return std::exchange(g_finalized, {});
}

} // namespace scripthost
