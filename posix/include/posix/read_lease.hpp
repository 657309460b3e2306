#pragma once
// ReadLease: a file opened for reading that no process can open for writing while it is held.

#include "posix/unique_fd.hpp"

#include <expected>
#include <filesystem>
#include <system_error>

namespace scripthost::posix {

/// A file opened read-only with a Linux read lease on it (fcntl F_SETLEASE, F_RDLCK), released
/// and closed when destroyed. Taking it fails with EAGAIN while any process (this one too) has
/// the file open for writing: that is how to tell that a file's writers are done with it, not
/// only the one whose close was seen. While it is held, a process that opens the file for
/// writing or truncates it waits until it is released (at most /proc/sys/fs/lease-break-time),
/// so the file cannot change under a reader: hold it only for a short read.
///
/// The kernel grants a lease only to the file's owner or a process with CAP_LEASE, on a file
/// system that supports leases (not NFS, say); otherwise take() fails with EACCES or EINVAL
/// and the caller must do without. The lease-break notification, a signal to the holder (SIGIO
/// by default, whose default action ends the process), goes to no one: the holder lets go after
/// its read anyway (SIGURG, ignored by default, in the moment between taking the lease and
/// clearing the recipient).
///
/// Move-only (it owns the descriptor).
class ReadLease {
public:
    /// Opens `file` read-only (close-on-exec) and takes the lease. The error is errno: EAGAIN
    /// when some process has the file open for writing; EACCES or EINVAL when this process
    /// may not take leases on it; whatever open(2) said when the file cannot be opened.
    [[nodiscard]] static std::expected<ReadLease, std::error_code>
    take(const std::filesystem::path& file) noexcept;

    ~ReadLease();
    ReadLease(ReadLease&& other) noexcept = default;
    ReadLease& operator=(ReadLease&& other) noexcept;
    ReadLease(const ReadLease&) = delete;
    ReadLease& operator=(const ReadLease&) = delete;

    /// The file, opened read-only; still owned by the lease.
    [[nodiscard]] int fd() const noexcept { return fd_.get(); }

private:
    explicit ReadLease(UniqueFd fd) noexcept : fd_(std::move(fd)) {}
    void release() noexcept;

    UniqueFd fd_;
};

} // namespace scripthost::posix
