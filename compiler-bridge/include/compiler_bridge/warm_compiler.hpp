#pragma once
// WarmCompiler: builds through a resident compile server (mcs.exe loaded once under mono),
// falling back to a cold mcs process whenever the server misbehaves.

#include "compiler_bridge/compiler.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

namespace scripthost::compiler {

/// Folder of the running executable (from /proc/self/exe); empty if it cannot be read.
[[nodiscard]] std::filesystem::path executableDirectory();

/// `scripthost-compile-server.exe` beside the running executable, where the build puts it.
[[nodiscard]] std::filesystem::path defaultCompileServerPath();

/// Where WarmCompiler finds its pieces and how it looks after the server.
struct WarmCompilerOptions {
    /// The server assembly (built from compiler-bridge/server/CompileServer.cs).
    std::filesystem::path server = defaultCompileServerPath();
    /// The mono runtime: an absolute path or a name looked up on PATH.
    std::filesystem::path mono = "mono";
    /// The mcs assembly the server loads.
    std::filesystem::path mcsAssembly = "/usr/lib/mono/4.5/mcs.exe";
    /// mcs for the cold fallback: an absolute path or a name looked up on PATH.
    std::filesystem::path coldMcs = "mcs";
    /// Longest wait for a (re)started server's READY line, warm-up build included.
    std::chrono::milliseconds startupTimeout{20000};
    /// After a failed start the cold backend is used for this long before trying again.
    std::chrono::milliseconds retryStartAfter{30000};
    /// Restart the server after this many builds (0 = never). mcs resets its static state
    /// itself and RSS stays flat (measured: 67–93 MB over 70 builds), so this is only a
    /// safety net.
    std::size_t recycleAfterBuilds = 500;
    /// Let the server compile a throw-away file at start-up so the first real build is fast.
    bool serverWarmUp = true;
    /// MONO_GC_PARAMS of the server process, unless the environment sets its own. A build
    /// allocates tens of MB (mcs imports every type of every reference); Mono's default 4 MB
    /// nursery collects ~2 times per one-file build, each copying the live import graph.
    /// Empty: Mono's defaults. See compiler-bridge/README.md, "Where a warm build's time goes".
    std::string serverGcParams = "nursery-size=32m";
    /// Let the server read and import the references of a build like the last one while it
    /// waits for the next request, so that build skips them (most of a warm build's time;
    /// compiler-bridge/README.md, "Imported between builds"). Off: every build imports its own.
    bool prepareReferences = true;
    /// Test hook: runs on the compiling thread right after a request was sent to the server,
    /// with the server's pid (lets a test kill the server mid-build).
    std::function<void(int pid)> onRequestSent;
};

/// Counters since construction.
struct WarmCompilerStats {
    std::size_t warmBuilds = 0;    ///< builds the server answered
    std::size_t coldFallbacks = 0; ///< builds that had to use the cold backend
    std::size_t serverStarts = 0;  ///< server processes started
};

/// The default backend: about 35 ms per one-file build instead of about 130 ms.
///
/// The server starts lazily, on warmUp() or the first compile(). When it dies, hangs past the
/// request's timeout, answers garbage, or its mcs throws, it is killed, a replacement is
/// started right away (it warms up while the fallback runs), and *that* build runs cold:
/// the caller gets a normal result with `backend == Cold` and `fallbackReason` set, and
/// spdlog logs one warning. One build at a time (calls are serialised by a mutex).
class WarmCompiler final : public Compiler {
public:
    /// Nothing is started here; see warmUp().
    explicit WarmCompiler(WarmCompilerOptions options = {});
    /// Stops the server (QUIT, then SIGKILL after 2 s).
    ~WarmCompiler() override;

    /// Builds on the server; falls back to cold mcs on any server failure.
    [[nodiscard]] CompileResult compile(const CompileRequest& request) override;

    /// Asks the server (server/AssemblyInterface.cs). Nullopt when
    /// no server is available or it cannot read the file.
    [[nodiscard]] std::optional<std::string>
    interfaceOf(const std::filesystem::path& assembly) override;

    /// Starts the server and waits until it is ready (no-op when it already is).
    void warmUp() override;

    /// Always Backend::Warm (individual results say which backend actually ran).
    [[nodiscard]] Backend backend() const noexcept override { return Backend::Warm; }

    /// Counters since construction.
    [[nodiscard]] WarmCompilerStats stats() const;

    /// Lets the server do its between-builds work now instead of after its idle time, and
    /// says whether a build with the last build's arguments will use references imported
    /// ahead. For tests and benchmarks that must not wait on the server's idle timer; false
    /// when no server runs or it does not answer within `timeout` (it is then restarted).
    bool settle(std::chrono::milliseconds timeout = std::chrono::seconds(20));

    /// The running server's pid, if one is running.
    [[nodiscard]] std::optional<int> serverPid() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace scripthost::compiler
