#include "host/runtime/finalized_proxies.hpp"

#include "runtime/runtime_state.hpp"

namespace scripthost {

// The mailbox itself is the runtime's (mono::RuntimeState::finalizedProxies): the
// finalizer thread has no ScriptContext to find a host by.
void noteProxyFinalized(ObjectId entity) noexcept {
    mono::runtimeState().finalizedProxies.note(entity);
}

std::vector<ObjectId> takeFinalizedProxies() {
    return mono::runtimeState().finalizedProxies.take();
}

} // namespace scripthost
