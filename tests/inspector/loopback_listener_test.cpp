// LoopbackListener: 127.0.0.1 only, the kernel's free port or the one asked for.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <inspector/loopback_listener.hpp>
#include <netinet/in.h>
#include <sys/socket.h>

using namespace scripthost::inspector;

TEST_CASE("LoopbackListener: port 0 gets a free port, bound on 127.0.0.1") {
    auto listener = LoopbackListener::bind(0);
    REQUIRE(listener.has_value());
    CHECK(listener->port() != 0);
    const std::uint16_t port = listener->port();
    auto fd = listener->release();
    sockaddr_in address{};
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &length) == 0);
    CHECK(ntohl(address.sin_addr.s_addr) == INADDR_LOOPBACK);
    CHECK(ntohs(address.sin_port) == port);
}

TEST_CASE("LoopbackListener: a port that is taken fails with a message naming it") {
    auto first = LoopbackListener::bind(0);
    REQUIRE(first.has_value());
    auto second = LoopbackListener::bind(first->port());
    REQUIRE_FALSE(second.has_value());
    CHECK(second.error().message.find(std::to_string(first->port())) != std::string::npos);
}
