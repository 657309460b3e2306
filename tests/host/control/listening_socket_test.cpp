// ListeningSocket on its own: bind() makes a private, listening, non-blocking socket file in
// private folders; it refuses a path a live server holds, a folder, a path too long, and a
// folder others can swap files in; it replaces stale leftovers; and only the owner of the
// file it bound removes it (removeFile, the destructor, a move), never a successor's.
#include "listening_socket.hpp"
#include "support/control_test_support.hpp"
#include "support/socket_peer.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace scripthost::control;
using namespace scripthost::control::test;
using scripthost::posix::UniqueFd;
namespace fs = std::filesystem;

namespace {

ListeningSocket bindOrFail(const fs::path& path) {
    auto bound = ListeningSocket::bind(path);
    REQUIRE_MESSAGE(bound.has_value(), (bound ? std::string() : bound.error().message));
    return std::move(*bound);
}

struct stat statOf(const fs::path& path) {
    struct stat info {};
    REQUIRE(::lstat(path.c_str(), &info) == 0);
    return info;
}

/// The next connection on the listening socket, waiting up to 10 s for one.
UniqueFd acceptOne(const ListeningSocket& socket) {
    UniqueFd accepted;
    const bool got = waitUntil([&] {
        accepted = UniqueFd(::accept4(socket.fd(), nullptr, nullptr, SOCK_CLOEXEC));
        return static_cast<bool>(accepted);
    });
    REQUIRE(got);
    return accepted;
}

/// Proves `socket` serves: a client connects, and bytes go both ways over what it accepts.
void checkServes(const ListeningSocket& socket) {
    SocketPeer peer(socket.path());
    const UniqueFd server = acceptOne(socket);
    REQUIRE(peer.send("ping\n"));
    char buffer[16] = {};
    pollfd readable{server.get(), POLLIN, 0};
    REQUIRE(::poll(&readable, 1, 10'000) == 1);
    CHECK(::recv(server.get(), buffer, sizeof buffer, 0) == 5);
    CHECK(std::string(buffer) == "ping\n");
    REQUIRE(::send(server.get(), "pong\n", 5, MSG_NOSIGNAL) == 5);
    CHECK(peer.readLine() == std::optional<std::string>("pong"));
}

/// Binds a socket at `path` that nobody listens on: what a crashed server leaves.
void leaveStaleSocket(const fs::path& path) {
    UniqueFd stale(::socket(AF_UNIX, SOCK_STREAM, 0));
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
    REQUIRE(::bind(stale.get(), reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
}

/// What a server killed right after it forked leaves: a process (the "server") listens on
/// `path`, forks a child that keeps the listening descriptor (a fork before its exec), and
/// exits. Returns the child's pid; the server is reaped.
pid_t leaveListenerHeldByOrphan(const fs::path& path) {
    int pidPipe[2];
    REQUIRE(::pipe(pidPipe) == 0);
    const pid_t server = ::fork();
    REQUIRE(server >= 0);
    if (server == 0) {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
        if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
            ::listen(fd, 8) != 0)
            ::_exit(1);
        const pid_t holder = ::fork();
        if (holder == 0) {
            // Not the test's output: ctest waits for every holder of its pipes.
            const int devNull = ::open("/dev/null", O_RDWR);
            ::dup2(devNull, STDOUT_FILENO);
            ::dup2(devNull, STDERR_FILENO);
            ::pause(); // holds the listening descriptor until killed
            ::_exit(0);
        }
        (void)!::write(pidPipe[1], &holder, sizeof holder);
        ::_exit(0);
    }
    ::close(pidPipe[1]);
    pid_t holder = -1;
    REQUIRE(::read(pidPipe[0], &holder, sizeof holder) == sizeof holder);
    ::close(pidPipe[0]);
    int status = 0;
    REQUIRE(::waitpid(server, &status, 0) == server);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    REQUIRE(holder > 0);
    return holder;
}

std::vector<std::string> namesIn(const fs::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder))
        names.push_back(entry.path().filename().string());
    std::ranges::sort(names);
    return names;
}

} // namespace

TEST_CASE("ListeningSocket: bind() makes a 0600 socket in new 0700 folders, listening, "
          "non-blocking") {
    TempDir dir("listening");
    const fs::path path = dir / "run/scripthost/control.sock";
    const ListeningSocket socket = bindOrFail(path);
    CHECK(socket.path() == path);
    const struct stat info = statOf(path);
    CHECK(S_ISSOCK(info.st_mode));
    CHECK((info.st_mode & 07777) == 0600);
    CHECK((statOf(dir / "run/scripthost").st_mode & 07777) == 0700);
    CHECK((statOf(dir / "run").st_mode & 07777) == 0700);
    // Staged under another name and linked: only the socket file is left in the folder.
    CHECK(namesIn(dir / "run/scripthost") == std::vector<std::string>{"control.sock"});

    CHECK((::fcntl(socket.fd(), F_GETFL) & O_NONBLOCK) != 0);
    CHECK((::fcntl(socket.fd(), F_GETFD) & FD_CLOEXEC) != 0);
    // Nobody is waiting: accept returns at once instead of blocking.
    const int accepted = ::accept(socket.fd(), nullptr, nullptr);
    const int error = errno;
    CHECK(accepted == -1);
    CHECK(error == EAGAIN);
    checkServes(socket);
}

TEST_CASE("ListeningSocket: a relative path is bound as an absolute one") {
    TempDir dir("listening");
    const fs::path previous = fs::current_path();
    fs::current_path(dir.path());
    auto bound = ListeningSocket::bind("sub/control.sock");
    fs::current_path(previous); // the socket must not depend on the working folder any more
    REQUIRE_MESSAGE(bound.has_value(), (bound ? std::string() : bound.error().message));
    CHECK(bound->path() == dir / "sub/control.sock");
    CHECK(S_ISSOCK(statOf(dir / "sub/control.sock").st_mode));
    checkServes(*bound);
    bound->removeFile();
    CHECK_FALSE(fs::exists(fs::symlink_status(dir / "sub/control.sock")));
}

TEST_CASE("ListeningSocket: a path a live server holds is refused, naming it and the pid") {
    TempDir dir("listening");
    const fs::path path = dir / "control.sock";
    const ListeningSocket first = bindOrFail(path);
    const ino_t inode = statOf(path).st_ino;

    const auto second = ListeningSocket::bind(path);
    REQUIRE_FALSE(second.has_value());
    CHECK(second.error().message.find("another scripthost is serving " + path.string()) !=
          std::string::npos);
    CHECK(second.error().message.find("(pid " + std::to_string(::getpid()) + ")") !=
          std::string::npos);
    // The first server's file is untouched and still serves (past the refused one's probe).
    CHECK(statOf(path).st_ino == inode);
    (void)acceptOne(first); // the probe's connection
    checkServes(first);
}

TEST_CASE("ListeningSocket: a stale socket or a plain file at the path is replaced") {
    TempDir dir("listening");
    const fs::path stalePath = dir / "stale.sock";
    leaveStaleSocket(stalePath);
    REQUIRE(::chmod(stalePath.c_str(), 0666) == 0);
    const ListeningSocket replacingSocket = bindOrFail(stalePath);
    CHECK((statOf(stalePath).st_mode & 07777) == 0600);
    checkServes(replacingSocket);

    const fs::path filePath = dir / "file.sock";
    scripthost::testing::writeFile(filePath, "leftover");
    const ListeningSocket replacingFile = bindOrFail(filePath);
    CHECK(S_ISSOCK(statOf(filePath).st_mode));
    checkServes(replacingFile);
}

TEST_CASE("ListeningSocket: a socket that still accepts but whose listening process has exited "
          "is taken over, as after a host killed while it forked its compiler") {
    TempDir dir("listening");
    const fs::path path = dir / "control.sock";
    const pid_t holder = leaveListenerHeldByOrphan(path);
    struct KillOnExit {
        pid_t pid;
        ~KillOnExit() { ::kill(pid, SIGKILL); }
    } killHolder{holder};
    CHECK_NOTHROW(SocketPeer{path}); // it accepts: the orphan holds the listening descriptor
    const ListeningSocket taken = bindOrFail(path);
    checkServes(taken);
}

TEST_CASE("ListeningSocket: a folder at the path is refused and left alone") {
    TempDir dir("listening");
    const fs::path path = dir / "control.sock";
    fs::create_directory(path);
    scripthost::testing::writeFile(path / "kept.txt", "x");
    const auto bound = ListeningSocket::bind(path);
    REQUIRE_FALSE(bound.has_value());
    CHECK(bound.error().message == path.string() + " is a folder, not a control socket");
    CHECK(fs::is_regular_file(path / "kept.txt"));
}

TEST_CASE("ListeningSocket: a path too long for a Unix socket is refused before any folder is "
          "made") {
    TempDir dir("listening");
    const fs::path path = dir / "new-folder" / (std::string(120, 'x') + ".sock");
    const auto bound = ListeningSocket::bind(path);
    REQUIRE_FALSE(bound.has_value());
    CHECK(bound.error().message.find("too long") != std::string::npos);
    CHECK(bound.error().message.find(path.string()) != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "new-folder"));
}

TEST_CASE("ListeningSocket: a path that fits but whose staging name does not is bound directly") {
    TempDir dir("listening");
    // The staging name is <folder>/.scripthost-<pid>.sock: longer than a one-letter name.
    const std::size_t limit = sizeof(sockaddr_un{}.sun_path) - 1; // longest path that fits
    const std::size_t folderLength = limit - 2;                   // "/s" makes it exactly fit
    const std::size_t padding = folderLength - dir.path().string().size() - 1;
    REQUIRE(padding < 100);
    const fs::path folder = dir / std::string(padding, 'f');
    const fs::path path = folder / "s";
    REQUIRE(path.string().size() == limit);

    const ListeningSocket socket = bindOrFail(path);
    CHECK(S_ISSOCK(statOf(path).st_mode));
    CHECK((statOf(path).st_mode & 07777) == 0600);
    CHECK(namesIn(folder) == std::vector<std::string>{"s"});
    checkServes(socket);
}

TEST_CASE("ListeningSocket: a folder of another user that others can write to is refused unless "
          "sticky") {
    TempDir dir("listening");
    const fs::path shared = dir / "shared";
    fs::create_directory(shared);
    if (::chown(shared.c_str(), 12345, 12345) != 0) {
        MESSAGE("skipped: cannot give a folder to another user (" << std::strerror(errno) << ")");
        return;
    }
    REQUIRE(::chmod(shared.c_str(), 0777) == 0);
    const auto refused = ListeningSocket::bind(shared / "control.sock");
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message.find("refusing to serve in " + shared.string()) !=
          std::string::npos);
    CHECK(refused.error().message.find("uid 12345") != std::string::npos);
    CHECK(namesIn(shared).empty());

    REQUIRE(::chmod(shared.c_str(), 01777) == 0); // like /tmp: nobody can swap our file
    const ListeningSocket socket = bindOrFail(shared / "control.sock");
    checkServes(socket);
}

TEST_CASE("ListeningSocket: removeFile() and the destructor remove only the file bound here") {
    TempDir dir("listening");
    const fs::path path = dir / "control.sock";
    {
        ListeningSocket socket = bindOrFail(path);
        socket.removeFile();
        CHECK_FALSE(fs::exists(fs::symlink_status(path)));
        socket.removeFile(); // again: nothing to do, nothing else removed
    }
    {
        const ListeningSocket socket = bindOrFail(path);
        REQUIRE(fs::exists(fs::symlink_status(path)));
    }
    CHECK_FALSE(fs::exists(fs::symlink_status(path)));

    auto old = std::make_optional(bindOrFail(path));
    fs::remove(path); // someone removed it, and a successor took the path
    const ListeningSocket successor = bindOrFail(path);
    old.reset();
    CHECK(fs::exists(fs::symlink_status(path)));
    checkServes(successor);
}

TEST_CASE("ListeningSocket: a moved-from socket leaves the file to the one moved into") {
    TempDir dir("listening");
    const fs::path path = dir / "control.sock";
    auto from = std::make_optional(bindOrFail(path));
    const int fd = from->fd();
    auto into = std::make_optional(std::move(*from));
    CHECK(into->fd() == fd);
    CHECK(into->path() == path);
    from.reset();
    CHECK(fs::exists(fs::symlink_status(path)));
    checkServes(*into);
    into.reset();
    CHECK_FALSE(fs::exists(fs::symlink_status(path)));
}
