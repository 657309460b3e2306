#pragma once
// UniqueFd: sole owner of one file descriptor, closed on destruction.

namespace scripthost::control {

/// Owns a file descriptor (or none, -1). Move-only; closes it when destroyed or reset.
class UniqueFd {
public:
    UniqueFd() noexcept = default;
    explicit UniqueFd(int fd) noexcept : fd_(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;

    [[nodiscard]] int get() const noexcept { return fd_; }
    [[nodiscard]] explicit operator bool() const noexcept { return fd_ >= 0; }
    /// Gives up ownership without closing.
    [[nodiscard]] int release() noexcept {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }
    /// Closes the current descriptor (if any) and takes `fd`.
    void reset(int fd = -1) noexcept;

private:
    int fd_ = -1;
};

} // namespace scripthost::control
