#pragma once
// ListeningSocket: the daemon's bound, listening Unix socket file, removed when done.

#include "posix/unique_fd.hpp"
#include "scripthost/game/error.hpp"

#include <filesystem>
#include <sys/types.h>

namespace scripthost::control {

/// Binds a Unix stream socket at a path and owns both the descriptor and the socket file.
/// Move-only; the destructor unlinks the file only if it is still the one bound here (same
/// device and inode), so a successor's socket is never removed.
class ListeningSocket {
public:
    /// Prepares the parent folder (created 0700 when missing), replaces a stale socket (or
    /// non-socket file) left at `path`, refuses when a live server answers there, binds,
    /// sets the file mode to exactly 0600 and listens. The descriptor is non-blocking.
    [[nodiscard]] static Result<ListeningSocket> bind(const std::filesystem::path& path);

    ListeningSocket(ListeningSocket&& other) noexcept;
    ListeningSocket& operator=(ListeningSocket&&) = delete;
    ListeningSocket(const ListeningSocket&) = delete;
    ListeningSocket& operator=(const ListeningSocket&) = delete;
    ~ListeningSocket();
    /// Removes the socket file now if it is still ours (the destructor does it otherwise).
    void removeFile() noexcept;

    [[nodiscard]] int fd() const noexcept { return fd_.get(); }
    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

private:
    ListeningSocket(posix::UniqueFd fd, std::filesystem::path path, dev_t device,
                    ino_t inode) noexcept;

    posix::UniqueFd fd_;
    std::filesystem::path path_;
    dev_t device_ = 0;
    ino_t inode_ = 0;
    bool ownsFile_ = false;
};

} // namespace scripthost::control
