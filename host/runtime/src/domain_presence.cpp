#include "runtime/domain_presence.hpp"

#include <array>
#include <atomic>
#include <thread>

namespace scripthost::mono {

namespace {

// One slot per host thread that ever switched domains: the main thread, the warm-up worker,
// the unloader, the watchdog, and the threads tests start. A slot is claimed on a thread's
// first switch and given back when the thread ends.
constexpr std::size_t kSlots = 128;

struct Slot {
    std::atomic<bool> claimed{false};
    std::atomic<MonoDomain*> domain{nullptr};
};

std::array<Slot, kSlots>& slots() {
    static std::array<Slot, kSlots> table; // never destroyed before the threads using it
    return table;
}

// The calling thread's slot (nullptr when the table is full: that thread goes untracked).
class ThreadSlot {
public:
    ThreadSlot() {
        for (Slot& s : slots()) {
            bool expected = false;
            if (s.claimed.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
                slot_ = &s;
                return;
            }
        }
    }
    ~ThreadSlot() {
        if (slot_ != nullptr) {
            slot_->domain.store(nullptr, std::memory_order_release);
            slot_->claimed.store(false, std::memory_order_release);
        }
    }
    ThreadSlot(const ThreadSlot&) = delete;
    ThreadSlot& operator=(const ThreadSlot&) = delete;
    [[nodiscard]] Slot* get() const noexcept { return slot_; }

private:
    Slot* slot_ = nullptr;
};

Slot* ownSlot() {
    thread_local ThreadSlot slot;
    return slot.get();
}

} // namespace

void recordDomainEntered(MonoDomain* domain) noexcept {
    if (Slot* s = ownSlot())
        s->domain.store(domain, std::memory_order_release);
}

int threadsIn(MonoDomain* domain) noexcept {
    const Slot* own = ownSlot();
    int n = 0;
    for (const Slot& s : slots()) {
        if (&s != own && s.claimed.load(std::memory_order_acquire) &&
            s.domain.load(std::memory_order_acquire) == domain)
            ++n;
    }
    return n;
}

bool waitUntilNoThreadIn(MonoDomain* domain, std::chrono::steady_clock::time_point deadline) {
    // Rare and short (a worker between its job's end and its switch to the root domain), so
    // a poll: the switch itself takes no lock the waiter could share.
    for (;;) {
        if (threadsIn(domain) == 0)
            return true;
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

} // namespace scripthost::mono
