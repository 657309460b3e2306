// ControlServer: the socket file — modes, a live or stale predecessor, cleanup.
#include "support/control_test_support.hpp"
#include "support/socket_peer.hpp"

#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace scripthost::control;
using namespace scripthost::control::test;
using nlohmann::json;
using scripthost::posix::UniqueFd;
namespace fs = std::filesystem;

namespace {

mode_t modeOf(const fs::path& path) {
    struct stat info {};
    REQUIRE(::lstat(path.c_str(), &info) == 0);
    return info.st_mode;
}

/// Proves the server at `path` answers: one request, one reply.
void checkServes(ControlServer& server) {
    SocketPeer peer(server.path());
    REQUIRE(peer.send("{\"id\":\"probe\",\"cmd\":\"status\"}\n"));
    const Request request = takeOneRequest(server);
    server.replyOk(request.client, request.id, "alive");
    CHECK(peer.readJson() == json::parse(R"({"id":"probe","ok":true,"result":"alive"})"));
}

} // namespace

TEST_CASE("ControlServer: the socket file is mode 0600 in created folders of mode 0700") {
    TempDir dir("control");
    const fs::path path = dir / "run/scripthost/control.sock";
    auto server = openServer(path);
    const mode_t socketMode = modeOf(path);
    CHECK(S_ISSOCK(socketMode));
    CHECK((socketMode & 07777) == 0600);
    CHECK((modeOf(dir / "run/scripthost") & 07777) == 0700);
    CHECK((modeOf(dir / "run") & 07777) == 0700);
    checkServes(*server);
}

TEST_CASE("ControlServer: a second server on the same path refuses, naming the path and the pid") {
    TempDir dir("control");
    const fs::path path = dir / "control.sock";
    auto first = openServer(path);
    auto second = ControlServer::open(path);
    REQUIRE_FALSE(second.has_value());
    const std::string& message = second.error().message;
    CHECK(message.find("another scripthost is serving " + path.string()) != std::string::npos);
    CHECK(message.find("pid " + std::to_string(::getpid())) != std::string::npos);
    // The probe did not hurt the first server.
    CHECK(first->waitForClientCount(0, 10s));
    checkServes(*first);
}

TEST_CASE("ControlServer: a stale socket nobody listens on is replaced") {
    TempDir dir("control");
    const fs::path path = dir / "control.sock";
    {
        // A crashed host: bound, never unlinked.
        UniqueFd stale(::socket(AF_UNIX, SOCK_STREAM, 0));
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
        REQUIRE(::bind(stale.get(), reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
    }
    REQUIRE(S_ISSOCK(modeOf(path)));
    auto server = openServer(path);
    CHECK((modeOf(path) & 07777) == 0600);
    checkServes(*server);
}

TEST_CASE("ControlServer: a plain file at the socket path is replaced") {
    TempDir dir("control");
    const fs::path path = dir / "control.sock";
    scripthost::testing::writeFile(path, "leftover");
    auto server = openServer(path);
    CHECK(S_ISSOCK(modeOf(path)));
    checkServes(*server);
}

TEST_CASE("ControlServer: the destructor removes the socket file, but not a successor's") {
    TempDir dir("control");
    const fs::path path = dir / "control.sock";
    auto server = openServer(path);
    REQUIRE(fs::exists(fs::symlink_status(path)));
    server.reset();
    CHECK_FALSE(fs::exists(fs::symlink_status(path)));

    auto old = openServer(path);
    fs::remove(path); // someone removed it and a new host took the path
    auto successor = openServer(path);
    old.reset();
    CHECK(fs::exists(fs::symlink_status(path)));
    checkServes(*successor);
}

TEST_CASE("ControlServer: a path too long for a Unix socket is a clear error") {
    TempDir dir("control");
    const fs::path path = dir / (std::string(120, 'x') + ".sock");
    auto server = ControlServer::open(path);
    REQUIRE_FALSE(server.has_value());
    CHECK(server.error().message.find("too long") != std::string::npos);
    CHECK(server.error().message.find(path.string()) != std::string::npos);
}

TEST_CASE("ControlServer: a folder at the socket path is not removed") {
    TempDir dir("control");
    const fs::path path = dir / "control.sock";
    fs::create_directory(path);
    auto server = ControlServer::open(path);
    REQUIRE_FALSE(server.has_value());
    CHECK(server.error().message.find("is a folder") != std::string::npos);
    CHECK(fs::is_directory(path));
}
