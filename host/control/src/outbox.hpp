#pragma once
// Outbox: bytes queued for one client, written without blocking as the socket accepts them.

#include <cstddef>
#include <string>
#include <string_view>

namespace scripthost::control {

/// A FIFO of bytes for one non-blocking socket.
class Outbox {
public:
    void append(std::string_view bytes) { data_.append(bytes); }
    /// Bytes not yet written.
    [[nodiscard]] std::size_t pending() const noexcept { return data_.size() - written_; }

    enum class FlushStatus { Drained, WouldBlock, PeerGone };
    /// Writes as much as the socket takes now (MSG_NOSIGNAL: a gone peer is EPIPE, not
    /// SIGPIPE).
    [[nodiscard]] FlushStatus flushTo(int socketFd);

private:
    std::string data_;
    std::size_t written_ = 0; ///< prefix of data_ already sent
};

} // namespace scripthost::control
