#include "posix/read_lease.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <utility>

namespace scripthost::posix {

std::expected<ReadLease, std::error_code>
ReadLease::take(const std::filesystem::path& file) noexcept {
    UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd) {
        return std::unexpected(std::error_code(errno, std::system_category()));
    }
    // The break notification: first a signal that is ignored by default, for the moment
    // between F_SETLEASE (which makes this process the descriptor's owner) and F_SETOWN 0
    // (after which no process is told).
    ::fcntl(fd.get(), F_SETSIG, SIGURG);
    if (::fcntl(fd.get(), F_SETLEASE, F_RDLCK) != 0) {
        return std::unexpected(std::error_code(errno, std::system_category()));
    }
    ::fcntl(fd.get(), F_SETOWN, 0);
    return ReadLease(std::move(fd));
}

ReadLease::~ReadLease() {
    release();
}

ReadLease& ReadLease::operator=(ReadLease&& other) noexcept {
    if (this != &other) {
        release();
        fd_ = std::move(other.fd_);
    }
    return *this;
}

void ReadLease::release() noexcept {
    if (fd_) {
        // Closing the descriptor would end the lease too; unlocking first says so plainly.
        ::fcntl(fd_.get(), F_SETLEASE, F_UNLCK);
        fd_.reset();
    }
}

} // namespace scripthost::posix
