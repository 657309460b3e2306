// unixAddress and peerPid: the socket address a path makes, and who is at the other end.
#include "unix_address.hpp"

#include <doctest/doctest.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace scripthost::control;

TEST_CASE("unixAddress: a path that fits becomes sun_path with its NUL, and an empty or too long "
          "one is an error that says why") {
    auto address = unixAddress("/tmp/scripthost/control.sock");
    REQUIRE(address);
    CHECK(address->sun_family == AF_UNIX);
    CHECK(std::string(address->sun_path) == "/tmp/scripthost/control.sock");

    const std::string longest(sizeof(sockaddr_un{}.sun_path) - 1, 'a');
    CHECK(unixAddress(longest));
    const auto tooLong = unixAddress(longest + "a");
    REQUIRE_FALSE(tooLong);
    CHECK(tooLong.error().message.find("too long (108 bytes") != std::string::npos);
    CHECK(unixAddress("").error().message == "the control socket path is empty");
}

TEST_CASE("peerPid: the other end of a socket pair is this process, and a non-socket has none") {
    int fds[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
    CHECK(peerPid(fds[0]) == ::getpid());
    CHECK_FALSE(peerPid(-1).has_value());
    ::close(fds[0]);
    ::close(fds[1]);
}
