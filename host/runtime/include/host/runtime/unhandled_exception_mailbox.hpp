#pragma once
// UnhandledExceptionMailbox: unhandled exceptions passed from the thread they happened on
// to the main thread.

#include "host/runtime/unhandled_exception_kind.hpp"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace scripthost::mono {

/// One unhandled exception, as plain text (no managed object crosses threads).
struct UnhandledExceptionRecord {
    UnhandledExceptionKind kind = UnhandledExceptionKind::ThreadPool;
    std::string scriptClass; ///< empty when no frame was in script code
    std::string exceptionType;
    std::string message;
    std::string text; ///< type, message and the managed stack with file:line
};

/// Pool, finalizer and script threads post (they are already logged there); the main
/// thread takes once per frame and counts them against their scripts. Bounded: a script
/// that throws on a thread in a tight loop cannot grow it without limit; what does not fit
/// is counted. Owned by the RuntimeState; the mutex is all the threads share.
class UnhandledExceptionMailbox {
public:
    static constexpr std::size_t kCapacity = 256;

    /// Appends `record`, or counts it as dropped when the mailbox is full. Never throws.
    void post(UnhandledExceptionRecord record) noexcept {
        try {
            std::lock_guard lock(mutex_);
            if (records_.size() >= kCapacity) {
                ++dropped_;
                return;
            }
            records_.push_back(std::move(record));
        } catch (...) {
            // Out of memory on a pool or finalizer thread: the log line is all there is.
        }
    }

    struct Taken {
        std::vector<UnhandledExceptionRecord> records;
        std::uint64_t dropped = 0; ///< records that did not fit since the last take
    };
    /// Takes everything posted since the last call.
    [[nodiscard]] Taken take() {
        std::lock_guard lock(mutex_);
        return {std::exchange(records_, {}), std::exchange(dropped_, 0)};
    }

private:
    std::mutex mutex_;
    std::vector<UnhandledExceptionRecord> records_;
    std::uint64_t dropped_ = 0;
};

} // namespace scripthost::mono
