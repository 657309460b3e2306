#pragma once
// CompileServerProcess: one running scripthost-compile-server under mono, and the client
// half of its line protocol. Private to the warm compiler.

#include "posix/unique_fd.hpp"
#include "server_protocol.hpp"

#include <boost/process/child.hpp>
#include <chrono>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace scripthost::compiler::detail {

/// How to start the server.
struct ServerCommand {
    std::filesystem::path mono;        ///< absolute path of the mono runtime
    std::filesystem::path server;      ///< scripthost-compile-server.exe
    std::filesystem::path mcsAssembly; ///< mcs.exe the server loads
    bool warmUp = true;                ///< let the server JIT mcs with a throw-away build first
    /// Let the server import the next build's references between builds (off: --no-prepare).
    bool prepareReferences = true;
    /// MONO_GC_PARAMS for the server (empty: none set). Only used when the environment has
    /// none of its own, so an exported MONO_GC_PARAMS still wins.
    std::string gcParams;
};

/// The server's answer to one BUILD.
struct ServerReply {
    int status = 0;                  ///< 0 built, 1 compile errors, 2 the server's mcs threw
    std::string output;              ///< the compiler's messages, one per line
    bool referencesPrepared = false; ///< imported before the request came (see PreparedImport.cs)
};

using Deadline = std::chrono::steady_clock::time_point;

/// One server process. Its stdin and stdout are one end of a socketpair (so writing to a dead
/// server gives EPIPE instead of SIGPIPE), its stderr a pipe whose tail is kept for messages.
class CompileServerProcess {
public:
    /// Starts the process without waiting for it to be ready.
    [[nodiscard]] static std::expected<std::unique_ptr<CompileServerProcess>, std::string>
    spawn(const ServerCommand& command);

    /// Asks the server to quit, waits a moment, then kills it.
    ~CompileServerProcess();
    CompileServerProcess(const CompileServerProcess&) = delete;
    CompileServerProcess& operator=(const CompileServerProcess&) = delete;

    /// Waits for the READY line (only the first call waits).
    [[nodiscard]] std::expected<void, std::string> waitReady(Deadline deadline);

    /// Runs one build. `onSent` runs once the request is written; `prepareNext` as
    /// CompileRequest's. Any error (timeout, exit, garbage) leaves the process unusable: the
    /// caller kills it.
    [[nodiscard]] std::expected<ServerReply, std::string>
    build(const std::vector<std::string>& args, Deadline deadline,
          const std::function<void()>& onSent, bool prepareNext = true);

    /// Lets the server do its between-builds work now (collect, import the references of a
    /// build like the last one) instead of after its idle time. Returns whether the next build
    /// with the last build's arguments will use prepared references. Errors as for build().
    [[nodiscard]] std::expected<bool, std::string> settle(Deadline deadline);

    /// The hash of what other assemblies can see of the built assembly at `assembly`
    /// (server/AssemblyInterface.cs); empty when the server cannot read it. Errors as for
    /// build().
    [[nodiscard]] std::expected<std::string, std::string>
    interfaceOf(const std::filesystem::path& assembly, Deadline deadline);

    /// Process id, for logs and tests.
    [[nodiscard]] int pid() const noexcept { return pid_; }

    /// Kills the process at once (SIGKILL) and reaps it.
    void kill() noexcept;

private:
    CompileServerProcess(boost::process::child child, posix::UniqueFd socket,
                         posix::UniqueFd errors);
    [[nodiscard]] std::expected<std::string, std::string> readLine(Deadline deadline);
    /// Writes the request `encode(id)` makes and reads its one-line answer, which must be of
    /// `kind` and carry that id.
    [[nodiscard]] std::expected<protocol::ServerLine, std::string>
    ask(const std::function<std::string(std::uint64_t id)>& encode, protocol::ServerLine::Kind kind,
        std::string_view kindName, Deadline deadline);
    [[nodiscard]] std::expected<void, std::string> writeAll(std::string_view data,
                                                            Deadline deadline);
    void drainErrors() noexcept;
    [[nodiscard]] std::string diedMessage();

    boost::process::child child_;
    posix::UniqueFd socket_;
    posix::UniqueFd errors_;
    int pid_ = 0;
    bool ready_ = false;
    std::uint64_t nextId_ = 1;
    std::string buffer_;     ///< bytes read from stdout, not yet split into lines
    std::string errorsTail_; ///< last few KiB of the server's stderr
};

} // namespace scripthost::compiler::detail
