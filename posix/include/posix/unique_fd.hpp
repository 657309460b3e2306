#pragma once
// UniqueFd: the sole owner of one POSIX file descriptor.

namespace scripthost::posix {

/// Owns a file descriptor (or none: -1) and closes it when destroyed or reset, so an early
/// return can never leak one. Move-only: a descriptor has exactly one owner.
class UniqueFd {
public:
    UniqueFd() noexcept = default;
    /// Takes ownership of `fd` (a negative value means "none", e.g. a failed ::socket()).
    explicit UniqueFd(int fd) noexcept : fd_(fd < 0 ? -1 : fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept {
        if (this != &other) {
            reset(other.release());
        }
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;

    /// The descriptor, or -1; still owned by this object.
    [[nodiscard]] int get() const noexcept { return fd_; }
    /// Whether a descriptor is owned.
    [[nodiscard]] explicit operator bool() const noexcept { return fd_ >= 0; }

    /// Gives up ownership without closing; the caller must close what is returned.
    [[nodiscard]] int release() noexcept {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }

    /// Closes the owned descriptor (if any) and takes `fd` instead (-1: none).
    void reset(int fd = -1) noexcept;

private:
    int fd_ = -1;
};

} // namespace scripthost::posix
