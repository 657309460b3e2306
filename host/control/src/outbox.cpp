#include "outbox.hpp"

#include <cerrno>
#include <sys/socket.h>

namespace scripthost::control {

namespace {
constexpr std::size_t kKeptCapacity = 256 * 1024;
} // namespace

Outbox::FlushStatus Outbox::flushTo(int socketFd) {
    FlushStatus status = FlushStatus::Drained;
    while (pending() > 0) {
        const ssize_t sent =
            ::send(socketFd, data_.data() + written_, pending(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0) {
            written_ += static_cast<std::size_t>(sent);
            continue;
        }
        if (sent < 0 && errno == EINTR)
            continue;
        status = (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) ? FlushStatus::WouldBlock
                                                                         : FlushStatus::PeerGone;
        break;
    }
    // Compact: drop the written prefix once it dominates, so memory follows what is pending.
    if (written_ == data_.size()) {
        if (data_.capacity() > kKeptCapacity)
            std::string().swap(data_); // a burst is over: give its memory back
        else
            data_.clear();
        written_ = 0;
    } else if (written_ > data_.size() / 2) {
        data_.erase(0, written_);
        written_ = 0;
    }
    return status;
}

} // namespace scripthost::control
