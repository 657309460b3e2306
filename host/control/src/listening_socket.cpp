#include "listening_socket.hpp"

#include "unix_address.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace scripthost::control {

namespace fs = std::filesystem;

namespace {

std::string errnoText(int error) {
    return std::strerror(error);
}

/// Creates every missing folder of `folder` with mode 0700 (exactly: chmod after mkdir, so
/// the umask does not matter). An existing folder is used as it is, unless anyone else can
/// swap files in it: not ours, writable by others, and not sticky.
Result<void> preparePrivateFolder(const fs::path& folder) {
    if (folder.empty())
        return {};
    struct stat info {};
    if (::stat(folder.c_str(), &info) == 0) {
        if (!S_ISDIR(info.st_mode))
            return fail(fmt::format("{} exists and is not a folder", folder.string()));
        const bool othersCanWrite = (info.st_mode & (S_IWGRP | S_IWOTH)) != 0;
        const bool sticky = (info.st_mode & S_ISVTX) != 0;
        if (info.st_uid != ::geteuid() && othersCanWrite && !sticky) {
            return fail(fmt::format("refusing to serve in {}: it belongs to uid {} and others "
                                    "can write to it",
                                    folder.string(), info.st_uid));
        }
        return {};
    }
    if (errno != ENOENT)
        return fail(fmt::format("cannot inspect {}: {}", folder.string(), errnoText(errno)));
    if (auto parent = preparePrivateFolder(folder.parent_path()); !parent)
        return parent;
    if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
        return fail(fmt::format("cannot create {}: {}", folder.string(), errnoText(errno)));
    if (::chmod(folder.c_str(), 0700) != 0)
        return fail(
            fmt::format("cannot set mode 0700 on {}: {}", folder.string(), errnoText(errno)));
    return {};
}

/// Whether a process with this pid exists (a zombie counts: its parent has not reaped it).
bool processExists(pid_t pid) {
    return ::kill(pid, 0) == 0 || errno == EPERM;
}

/// Deals with whatever is at `path` before binding: nothing (fine), a live server (error),
/// a socket nobody listens on or a non-socket file (stale: removed). A socket that accepts
/// but whose listening process has exited is stale too: a child that server forked holds the
/// descriptor until its exec closes it (SOCK_CLOEXEC), and a host killed right after forking
/// its compiler leaves exactly that behind for the host restarted in its place.
Result<void> clearStaleSocket(const fs::path& path, const sockaddr_un& address) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) {
        if (errno == ENOENT)
            return {};
        return fail(fmt::format("cannot inspect {}: {}", path.string(), errnoText(errno)));
    }
    if (S_ISDIR(info.st_mode))
        return fail(fmt::format("{} is a folder, not a control socket", path.string()));

    if (S_ISSOCK(info.st_mode)) {
        posix::UniqueFd probe(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        if (!probe)
            return fail(fmt::format("cannot create a socket: {}", errnoText(errno)));
        const int result =
            ::connect(probe.get(), reinterpret_cast<const sockaddr*>(&address), sizeof(address));
        const int connectError = errno;
        const auto pid = result == 0 ? peerPid(probe.get()) : std::nullopt;
        if (pid && !processExists(*pid)) {
            spdlog::warn("control: {} still accepts, but pid {} that listened on it has exited "
                         "(a child it forked holds it until its exec): taking it over",
                         path.string(), *pid);
        } else if (result == 0 || connectError == EAGAIN) { // EAGAIN: the backlog is full
            return fail(fmt::format("another scripthost is serving {}{}", path.string(),
                                    pid ? fmt::format(" (pid {})", *pid) : std::string()));
        } else if (connectError != ECONNREFUSED) {
            return fail(fmt::format("cannot tell whether {} is in use: {}", path.string(),
                                    errnoText(connectError)));
        } else {
            spdlog::warn("control: removing stale socket {} (nobody is listening on it)",
                         path.string());
        }
    } else {
        spdlog::warn("control: removing {}: it is not a socket (a stale leftover?)", path.string());
    }
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
        return fail(fmt::format("cannot remove stale {}: {}", path.string(), errnoText(errno)));
    return {};
}

} // namespace

Result<ListeningSocket> ListeningSocket::bind(const fs::path& requestedPath) {
    // Absolute, so the destructor removes the right file even if the working folder changes.
    std::error_code ignored;
    const fs::path path = fs::absolute(requestedPath, ignored).lexically_normal();
    auto address = unixAddress(path);
    if (!address)
        return std::unexpected(address.error());
    if (auto folder = preparePrivateFolder(path.parent_path()); !folder)
        return std::unexpected(folder.error());
    if (auto cleared = clearStaleSocket(path, *address); !cleared)
        return std::unexpected(cleared.error());

    // The socket is made under a temporary name in the same folder, made private, set
    // listening, and only then linked to `path`: a client never finds the file before the
    // server listens on it (it would be refused and take the socket for a stale one), and
    // link() never replaces a server that appeared meanwhile.
    const fs::path staging = path.parent_path() / fmt::format(".scripthost-{}.sock", ::getpid());
    auto stagingAddress = unixAddress(staging);
    const bool staged = stagingAddress.has_value();
    const fs::path& bound = staged ? staging : path; // a name too long to stage binds directly
    const sockaddr_un& bindAddress = staged ? *stagingAddress : *address;
    if (staged)
        ::unlink(staging.c_str()); // ours, from a crashed run with the same pid

    posix::UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd)
        return fail(fmt::format("cannot create a socket: {}", errnoText(errno)));
    if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&bindAddress), sizeof(bindAddress)) !=
        0) {
        if (errno == EADDRINUSE) // lost a race with another server starting right now
            return fail(fmt::format("another scripthost is serving {}", path.string()));
        return fail(fmt::format("cannot bind {}: {}", bound.string(), errnoText(errno)));
    }
    // The umask is process-wide (changing it would race other threads creating files), so the
    // mode is set after bind; until then the 0700 folder keeps others out.
    struct stat info {};
    if (::chmod(bound.c_str(), 0600) != 0 || ::lstat(bound.c_str(), &info) != 0) {
        const std::string reason = errnoText(errno);
        ::unlink(bound.c_str());
        return fail(fmt::format("cannot make {} private (mode 0600): {}", path.string(), reason));
    }
    if ((info.st_mode & 07777) != 0600) {
        ::unlink(bound.c_str());
        return fail(fmt::format("cannot make {} private: its mode is {:o} after chmod 0600",
                                path.string(), info.st_mode & 07777));
    }
    if (::listen(fd.get(), SOMAXCONN) != 0) {
        const std::string reason = errnoText(errno);
        ::unlink(bound.c_str());
        return fail(fmt::format("cannot listen on {}: {}", path.string(), reason));
    }
    if (staged) {
        const int linked = ::link(staging.c_str(), path.c_str());
        const int error = errno;
        ::unlink(staging.c_str());
        if (linked != 0) {
            if (error == EEXIST) // lost a race with another server starting right now
                return fail(fmt::format("another scripthost is serving {}", path.string()));
            return fail(fmt::format("cannot create {}: {}", path.string(), errnoText(error)));
        }
    }
    return ListeningSocket(std::move(fd), path, info.st_dev, info.st_ino);
}

ListeningSocket::ListeningSocket(posix::UniqueFd fd, fs::path path, dev_t device,
                                 ino_t inode) noexcept
    : fd_(std::move(fd)), path_(std::move(path)), device_(device), inode_(inode), ownsFile_(true) {}

ListeningSocket::ListeningSocket(ListeningSocket&& other) noexcept
    : fd_(std::move(other.fd_)), path_(std::move(other.path_)), device_(other.device_),
      inode_(other.inode_), ownsFile_(std::exchange(other.ownsFile_, false)) {}

ListeningSocket::~ListeningSocket() {
    removeFile();
}

void ListeningSocket::removeFile() noexcept {
    if (!std::exchange(ownsFile_, false))
        return;
    struct stat info {};
    if (::lstat(path_.c_str(), &info) == 0 && info.st_dev == device_ && info.st_ino == inode_)
        ::unlink(path_.c_str());
}

} // namespace scripthost::control
