#include "compile_server_process.hpp"

#include "server_protocol.hpp"

#include <boost/process/args.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/posix.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace scripthost::compiler::detail {

namespace bp = boost::process;
using posix::UniqueFd;

namespace {

constexpr std::size_t maxLineBytes = 16 * 1024 * 1024;
constexpr std::size_t errorsTailBytes = 4096;

std::string systemError(const char* what) {
    return std::string(what) + ": " + std::strerror(errno);
}

int millisecondsUntil(Deadline deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    return static_cast<int>(std::clamp<long long>(left.count(), 0, 60 * 60 * 1000));
}

} // namespace

std::expected<std::unique_ptr<CompileServerProcess>, std::string>
CompileServerProcess::spawn(const ServerCommand& command) {
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        return std::unexpected(systemError("socketpair"));
    }
    UniqueFd ours(pair[0]);
    UniqueFd theirs(pair[1]);
    int errorPipe[2];
    if (::pipe2(errorPipe, O_CLOEXEC) != 0) {
        return std::unexpected(systemError("pipe2"));
    }
    UniqueFd errorsRead(errorPipe[0]);
    UniqueFd errorsWrite(errorPipe[1]);
    if (::fcntl(ours.get(), F_SETFL, O_NONBLOCK) != 0 ||
        ::fcntl(errorsRead.get(), F_SETFL, O_NONBLOCK) != 0) {
        return std::unexpected(systemError("fcntl"));
    }
    std::vector<std::string> args{command.server.string(), "--mcs=" + command.mcsAssembly.string()};
    if (command.warmUp) {
        args.emplace_back("--warmup");
    }
    if (!command.prepareReferences) {
        args.emplace_back("--no-prepare");
    }
    try {
        bp::environment environment = boost::this_process::environment();
        if (!command.gcParams.empty() && environment.find("MONO_GC_PARAMS") == environment.end()) {
            environment["MONO_GC_PARAMS"] = command.gcParams;
        }
        // dup2 onto 0/1/2 clears close-on-exec for those three; every other descriptor
        // made here stays close-on-exec, so neither mcs nor any later child inherits them.
        bp::child child(bp::exe = command.mono.string(), bp::args = args, bp::env = environment,
                        bp::posix::fd.bind(0, theirs.get()), bp::posix::fd.bind(1, theirs.get()),
                        bp::posix::fd.bind(2, errorsWrite.get()));
        return std::unique_ptr<CompileServerProcess>(
            new CompileServerProcess(std::move(child), std::move(ours), std::move(errorsRead)));
    } catch (const std::exception& e) {
        return std::unexpected("cannot start " + command.mono.string() + " " +
                               command.server.string() + ": " + e.what());
    }
}

CompileServerProcess::CompileServerProcess(bp::child child, UniqueFd socket, UniqueFd errors)
    : child_(std::move(child)), socket_(std::move(socket)), errors_(std::move(errors)),
      pid_(child_.id()) {}

CompileServerProcess::~CompileServerProcess() {
    if (socket_ && ready_) {
        // Polite first: QUIT, then wait briefly for the server to close its end.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        if (writeAll("QUIT\n", deadline)) {
            while (readLine(deadline)) {
            }
        }
    }
    kill();
}

void CompileServerProcess::kill() noexcept {
    socket_.reset();
    errors_.reset();
    std::error_code ec;
    if (child_.valid() && child_.running(ec)) {
        // Not child_.terminate(): in Boost 1.74 it reaps with WNOHANG right after SIGKILL,
        // which leaves a zombie. Kill, then wait for real.
        ::kill(pid_, SIGKILL);
        child_.wait(ec);
    }
}

std::expected<void, std::string> CompileServerProcess::waitReady(Deadline deadline) {
    if (ready_) {
        return {};
    }
    auto line = readLine(deadline);
    if (!line) {
        return std::unexpected("did not start: " + line.error());
    }
    const protocol::ServerLine parsed = protocol::parseLine(*line);
    if (parsed.kind == protocol::ServerLine::Kind::Fatal) {
        return std::unexpected("failed to start: " + parsed.text);
    }
    if (parsed.kind != protocol::ServerLine::Kind::Ready) {
        return std::unexpected("sent garbage instead of READY: " + line->substr(0, 200));
    }
    if (parsed.status != protocol::version) {
        return std::unexpected("speaks protocol " + std::to_string(parsed.status) + ", expected " +
                               std::to_string(protocol::version));
    }
    ready_ = true;
    return {};
}

std::expected<ServerReply, std::string>
CompileServerProcess::build(const std::vector<std::string>& args, Deadline deadline,
                            const std::function<void()>& onSent, bool prepareNext) {
    if (auto ready = waitReady(deadline); !ready) {
        return std::unexpected(ready.error());
    }
    const std::uint64_t id = nextId_++;
    std::error_code ec;
    const std::string cwd = std::filesystem::current_path(ec).string();
    if (auto written = writeAll(protocol::encodeBuild(id, cwd, args, prepareNext), deadline);
        !written) {
        return std::unexpected(written.error());
    }
    if (onSent) {
        onSent();
    }
    ServerReply reply;
    while (true) {
        auto line = readLine(deadline);
        if (!line) {
            return std::unexpected(line.error());
        }
        const protocol::ServerLine parsed = protocol::parseLine(*line);
        switch (parsed.kind) {
        case protocol::ServerLine::Kind::Output:
            reply.output += parsed.text;
            reply.output += '\n';
            break;
        case protocol::ServerLine::Kind::End:
            if (parsed.id != id) {
                return std::unexpected("answered request " + std::to_string(parsed.id) +
                                       " instead of " + std::to_string(id));
            }
            reply.status = parsed.status;
            reply.referencesPrepared = parsed.referencesPrepared;
            return reply;
        case protocol::ServerLine::Kind::Fatal:
            return std::unexpected("gave up: " + parsed.text);
        default:
            return std::unexpected("sent garbage: " + parsed.text);
        }
    }
}

std::expected<protocol::ServerLine, std::string>
CompileServerProcess::ask(const std::function<std::string(std::uint64_t id)>& encode,
                          protocol::ServerLine::Kind kind, std::string_view kindName,
                          Deadline deadline) {
    if (auto ready = waitReady(deadline); !ready) {
        return std::unexpected(ready.error());
    }
    const std::uint64_t id = nextId_++;
    if (auto written = writeAll(encode(id), deadline); !written) {
        return std::unexpected(written.error());
    }
    auto line = readLine(deadline);
    if (!line) {
        return std::unexpected(line.error());
    }
    protocol::ServerLine parsed = protocol::parseLine(*line);
    if (parsed.kind != kind || parsed.id != id) {
        return std::unexpected("sent garbage instead of " + std::string(kindName) + ": " +
                               line->substr(0, 200));
    }
    return parsed;
}

std::expected<bool, std::string> CompileServerProcess::settle(Deadline deadline) {
    auto settled =
        ask(protocol::encodeSettle, protocol::ServerLine::Kind::Settled, "SETTLED", deadline);
    if (!settled) {
        return std::unexpected(settled.error());
    }
    return settled->referencesPrepared;
}

std::expected<std::string, std::string>
CompileServerProcess::interfaceOf(const std::filesystem::path& assembly, Deadline deadline) {
    auto answer =
        ask([&](std::uint64_t id) { return protocol::encodeInterface(id, assembly.string()); },
            protocol::ServerLine::Kind::Interface, "INTERFACE", deadline);
    if (!answer) {
        return std::unexpected(answer.error());
    }
    return std::move(answer->text);
}

std::expected<std::string, std::string> CompileServerProcess::readLine(Deadline deadline) {
    std::size_t scanned = 0;
    while (true) {
        if (const std::size_t newline = buffer_.find('\n', scanned); newline != std::string::npos) {
            std::string line = buffer_.substr(0, newline);
            buffer_.erase(0, newline + 1);
            return line;
        }
        scanned = buffer_.size();
        if (buffer_.size() > maxLineBytes) {
            return std::unexpected("sent garbage: a line longer than 16 MiB");
        }
        if (!socket_) {
            return std::unexpected("is not running");
        }
        pollfd fds[2] = {{socket_.get(), POLLIN, 0}, {errors_.get(), POLLIN, 0}};
        const int waitMs = millisecondsUntil(deadline);
        const int n = ::poll(fds, errors_ ? 2 : 1, waitMs);
        if (n < 0 && errno != EINTR) {
            return std::unexpected(systemError("poll"));
        }
        if (n == 0) {
            return std::unexpected("did not answer in time");
        }
        if (errors_ && fds[1].revents != 0) {
            drainErrors();
        }
        if (fds[0].revents != 0) {
            char chunk[65536];
            const ssize_t got = ::recv(socket_.get(), chunk, sizeof chunk, 0);
            if (got > 0) {
                buffer_.append(chunk, static_cast<std::size_t>(got));
            } else if (got == 0 || errno == ECONNRESET) {
                // ECONNRESET: the server died with part of our request still unread.
                return std::unexpected(diedMessage());
            } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return std::unexpected(systemError("reading from the compile server"));
            }
        }
    }
}

std::expected<void, std::string> CompileServerProcess::writeAll(std::string_view data,
                                                                Deadline deadline) {
    while (!data.empty()) {
        if (!socket_) {
            return std::unexpected("is not running");
        }
        const ssize_t sent = ::send(socket_.get(), data.data(), data.size(), MSG_NOSIGNAL);
        if (sent > 0) {
            data.remove_prefix(static_cast<std::size_t>(sent));
            continue;
        }
        if (errno == EPIPE || errno == ECONNRESET) {
            return std::unexpected(diedMessage());
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return std::unexpected(systemError("writing to the compile server"));
        }
        pollfd fd{socket_.get(), POLLOUT, 0};
        if (::poll(&fd, 1, millisecondsUntil(deadline)) == 0) {
            return std::unexpected("did not read its request in time");
        }
    }
    return {};
}

void CompileServerProcess::drainErrors() noexcept {
    char chunk[4096];
    while (errors_) {
        const ssize_t got = ::read(errors_.get(), chunk, sizeof chunk);
        if (got > 0) {
            errorsTail_.append(chunk, static_cast<std::size_t>(got));
            if (errorsTail_.size() > errorsTailBytes) {
                errorsTail_.erase(0, errorsTail_.size() - errorsTailBytes);
            }
        } else if (got == 0) {
            errors_.reset(); // the server closed stderr (exited)
        } else {
            return; // EAGAIN: nothing more for now
        }
    }
}

std::string CompileServerProcess::diedMessage() {
    drainErrors();
    std::string message = "exited";
    std::error_code ec;
    if (child_.valid() && !child_.running(ec) && !ec) {
        message += " (exit code " + std::to_string(child_.exit_code()) + ")";
    }
    if (!errorsTail_.empty()) {
        message += "; it said: " +
                   errorsTail_.substr(errorsTail_.size() > 500 ? errorsTail_.size() - 500 : 0);
    }
    return message;
}

} // namespace scripthost::compiler::detail
