#include "host/model/world_epoch.hpp"

#include <atomic>

namespace scripthost {

std::uint64_t WorldEpoch::next() noexcept {
    // Worlds are made on any thread (tests make several); the numbers only need to be unique.
    static std::atomic<std::uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

WorldEpoch::~WorldEpoch() {
    if (detail::tBoundWorldEpoch == value_) {
        detail::tBoundWorldEpoch = 0;
    }
}

void WorldEpoch::advance() noexcept {
    const std::uint64_t old = value_;
    value_ = next();
    // Numbers are unique, so the cell holds this world's old number only if this world is
    // the one bound on this thread.
    if (detail::tBoundWorldEpoch == old) {
        detail::tBoundWorldEpoch = value_;
    }
}

} // namespace scripthost
