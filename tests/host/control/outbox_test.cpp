// Outbox: what a client has not read yet, written as its socket takes it.
#include "outbox.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

using namespace scripthost::control;

namespace {

/// A connected non-blocking socket pair with a small send buffer, closed at the end.
struct SocketPair {
    int writer = -1, reader = -1;
    SocketPair() {
        int fds[2];
        REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
        writer = fds[0];
        reader = fds[1];
        const int small = 4096;
        ::setsockopt(writer, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
        ::fcntl(writer, F_SETFL, ::fcntl(writer, F_GETFL) | O_NONBLOCK);
    }
    ~SocketPair() {
        if (writer >= 0)
            ::close(writer);
        if (reader >= 0)
            ::close(reader);
    }
    std::string readAvailable() {
        std::string out;
        char buffer[65536];
        ::fcntl(reader, F_SETFL, ::fcntl(reader, F_GETFL) | O_NONBLOCK);
        for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;)
            out.append(buffer, static_cast<std::size_t>(n));
        return out;
    }
};

} // namespace

TEST_CASE("Outbox: bytes go out in order, and what the socket cannot take now waits for the next "
          "flush") {
    SocketPair pair;
    Outbox outbox;
    const std::string big(1 << 20, 'x');
    outbox.append("first\n");
    outbox.append(big);
    CHECK(outbox.pending() == 6 + big.size());

    CHECK(outbox.flushTo(pair.writer) == Outbox::FlushStatus::WouldBlock);
    const std::size_t left = outbox.pending();
    CHECK(left > 0);
    CHECK(left < 6 + big.size());
    std::string received = pair.readAvailable();
    CHECK(received.rfind("first\nxxx", 0) == 0);
    CHECK(received.size() + left == 6 + big.size());

    Outbox::FlushStatus status = Outbox::FlushStatus::WouldBlock;
    for (int round = 0; round < 10000 && status != Outbox::FlushStatus::Drained; ++round) {
        status = outbox.flushTo(pair.writer);
        received += pair.readAvailable();
    }
    CHECK(status == Outbox::FlushStatus::Drained);
    CHECK(outbox.pending() == 0);
    CHECK(received == "first\n" + big);
}

TEST_CASE("Outbox: a peer that is gone is PeerGone, not a SIGPIPE") {
    SocketPair pair;
    ::close(pair.reader);
    pair.reader = -1;
    Outbox outbox;
    outbox.append("hello\n");
    CHECK(outbox.flushTo(pair.writer) == Outbox::FlushStatus::PeerGone);
    CHECK(outbox.pending() == 6);
}
