#pragma once
// The finalizer thread's mailbox: entity proxies the GC has finalized.

#include "scripthost/game/object_id.hpp"

#include <vector>

namespace scripthost {

/// Records that the proxy of `entity` was finalized. Called on the GC's finalizer
/// thread (so it only takes a lock and appends); the main thread decides what it means.
void noteProxyFinalized(ObjectId entity) noexcept;

/// Takes every id noted since the last call. Main thread.
[[nodiscard]] std::vector<ObjectId> takeFinalizedProxies();

} // namespace scripthost
