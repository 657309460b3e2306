// InspectorProcess: the inspector forked into a process of its own, stopped with its owner.
#include "../../support/test_support.hpp"
#include "inspector_process.hpp"

#include <arpa/inet.h>
#include <csignal>
#include <doctest/doctest.h>
#include <inspector/loopback_listener.hpp>
#include <netinet/in.h>
#include <regex>
#include <sys/socket.h>
#include <unistd.h>

using namespace scripthost;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;

namespace {

std::uint16_t portOf(const std::string& url) {
    std::smatch match;
    REQUIRE(std::regex_search(url, match, std::regex(R"(127\.0\.0\.1:(\d+)/)")));
    return static_cast<std::uint16_t>(std::stoi(match[1]));
}

/// The status line's code of `GET target` on 127.0.0.1:port (0 when nothing answered).
int statusOf(std::uint16_t port, const std::string& target) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    timeval timeout{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int status = 0;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
        const std::string request = "GET " + target +
                                    " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                                    "\r\nConnection: close\r\n\r\n";
        (void)!::write(fd, request.data(), request.size());
        char buffer[64] = {};
        const ssize_t got = ::read(fd, buffer, sizeof buffer - 1);
        if (got > 12 && std::string_view(buffer, 9) == "HTTP/1.1 ")
            status = std::atoi(buffer + 9);
    }
    ::close(fd);
    return status;
}

} // namespace

TEST_CASE(
    "InspectorProcess: serves the page on 127.0.0.1 from a child, behind the token, and stops "
    "with its owner") {
    TempDir dir("inspector-process");
    writeFile(dir / "page" / "index.html", "<title>x</title>");
    pid_t pid = 0;
    std::uint16_t port = 0;
    {
        auto started = InspectorProcess::start(
            {.port = 0, .controlSocket = dir / "control.sock", .pageFolder = dir / "page"});
        REQUIRE_MESSAGE(started.has_value(), (started ? "" : started.error().message));
        const std::string url = started->url();
        CHECK(std::regex_match(url, std::regex(R"(http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64})")));
        pid = started->pid();
        CHECK(pid != ::getpid());
        port = portOf(url);
        CHECK(statusOf(port, "/") == 403);
        CHECK(statusOf(port, url.substr(url.find("/?"))) == 303);
    }
    // The destructor stopped and reaped it: the pid is gone and nothing listens.
    CHECK(::kill(pid, 0) == -1);
    CHECK(statusOf(port, "/") == 0);
}

TEST_CASE("InspectorProcess: missing page files or a taken port fail before anything starts") {
    TempDir dir("inspector-process");
    auto noPage = InspectorProcess::start(
        {.port = 0, .controlSocket = dir / "control.sock", .pageFolder = dir / "nowhere"});
    REQUIRE_FALSE(noPage.has_value());
    CHECK(noPage.error().message.find("index.html") != std::string::npos);

    writeFile(dir / "page" / "index.html", "<title>x</title>");
    auto taken = inspector::LoopbackListener::bind(0);
    REQUIRE(taken.has_value());
    auto busy = InspectorProcess::start(
        {.port = taken->port(), .controlSocket = dir / "control.sock", .pageFolder = dir / "page"});
    REQUIRE_FALSE(busy.has_value());
    CHECK(busy.error().message.find(std::to_string(taken->port())) != std::string::npos);
}
