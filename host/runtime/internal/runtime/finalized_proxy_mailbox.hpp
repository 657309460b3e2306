#pragma once
// FinalizedProxyMailbox: entity proxies the GC has finalized, passed from the finalizer
// thread to the main thread.

#include "scripthost/game/object_id.hpp"

#include <mutex>
#include <utility>
#include <vector>

namespace scripthost::mono {

/// The finalizer thread has no ScriptContext to find a host by, so it posts here and the
/// main thread collects once per frame. Owned by the RuntimeState; the GC's finalizer
/// thread calls note(), the main thread take(); the mutex is all they share.
class FinalizedProxyMailbox {
public:
    /// Records that the proxy of `entity` was finalized. Only takes a lock and appends.
    void note(ObjectId entity) noexcept {
        try {
            std::lock_guard lock(mutex_);
            finalized_.push_back(entity);
        } catch (...) {
            // Out of memory on the finalizer thread: the entity stays until its owner is
            // unloaded.
        }
    }

    /// Takes every id noted since the last call.
    [[nodiscard]] std::vector<ObjectId> take() {
        std::lock_guard lock(mutex_);
        return std::exchange(finalized_, {});
    }

private:
    std::mutex mutex_;
    std::vector<ObjectId> finalized_;
};

} // namespace scripthost::mono
