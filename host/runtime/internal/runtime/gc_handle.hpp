#pragma once
// GcHandle: an owning, move-only GC handle.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mono/metadata/object.h>
#include <utility>

namespace scripthost::mono {

/// Keeps a managed object alive (strong) or observes it (weak) across calls. sgen moves
/// objects, so C++ never stores a MonoObject* past one call: it stores one of these and
/// asks for the target each time. The destructor frees the handle.
class GcHandle {
public:
    GcHandle() noexcept = default;
    static GcHandle strong(MonoObject* object) { return GcHandle(mono_gchandle_new(object, 0)); }
    static GcHandle weak(MonoObject* object) {
        return GcHandle(mono_gchandle_new_weakref(object, 0));
    }

    GcHandle(GcHandle&& other) noexcept : handle_(std::exchange(other.handle_, 0)) {}
    GcHandle& operator=(GcHandle&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, 0);
        }
        return *this;
    }
    GcHandle(const GcHandle&) = delete;
    GcHandle& operator=(const GcHandle&) = delete;
    ~GcHandle() { reset(); }

    /// The object now (valid until the next managed call), or nullptr.
    [[nodiscard]] MonoObject* target() const noexcept {
        return handle_ ? mono_gchandle_get_target(handle_) : nullptr;
    }
    [[nodiscard]] explicit operator bool() const noexcept { return handle_ != 0; }

    void reset() noexcept {
        if (handle_ != 0) {
            mono_gchandle_free(handle_);
            handle_ = 0;
            liveCount_.fetch_sub(1, std::memory_order_relaxed);
        }
    }

    /// Handles alive in the process, for leak checks.
    [[nodiscard]] static std::size_t liveCount() noexcept {
        return liveCount_.load(std::memory_order_relaxed);
    }

private:
    explicit GcHandle(std::uint32_t handle) noexcept : handle_(handle) {
        if (handle_ != 0) {
            liveCount_.fetch_add(1, std::memory_order_relaxed);
        }
    }
    std::uint32_t handle_ = 0;
    static inline std::atomic<std::size_t> liveCount_{0};
};

} // namespace scripthost::mono
