#include "compiler_bridge/warm_compiler.hpp"

#include "compile_server_process.hpp"
#include "compiler_bridge/cold_compiler.hpp"
#include "result_support.hpp"

#include <boost/process/search_path.hpp>
#include <mutex>
#include <spdlog/spdlog.h>

namespace scripthost::compiler {

using detail::CompileServerProcess;
using Clock = std::chrono::steady_clock;

std::filesystem::path executableDirectory() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : self.parent_path();
}

std::filesystem::path defaultCompileServerPath() {
    return executableDirectory() / "scripthost-compile-server.exe";
}

namespace {

/// An absolute program path: as given, or looked up on PATH (empty when not found).
std::filesystem::path resolveProgram(const std::filesystem::path& program) {
    if (program.is_absolute() || program.has_parent_path()) {
        return program;
    }
    return boost::process::search_path(program.string()).string();
}

} // namespace

struct WarmCompiler::State {
    explicit State(WarmCompilerOptions opts) : options(std::move(opts)), cold(options.coldMcs) {}

    WarmCompilerOptions options;
    ColdCompiler cold;
    mutable std::mutex mutex; // guards everything below; held for a whole build
    std::unique_ptr<CompileServerProcess> server;
    std::size_t buildsOnServer = 0;
    std::optional<Clock::time_point> retryStartAt; // set after a failed start
    std::string startError;                        // why that start failed
    WarmCompilerStats stats;

    /// Starts a server process if none runs (does not wait for it). Error message on failure.
    std::string spawn() {
        if (server) {
            return {};
        }
        const std::filesystem::path mono = resolveProgram(options.mono);
        if (mono.empty()) {
            return "cannot find " + options.mono.string() + " on PATH (install mono-runtime)";
        }
        std::error_code ec;
        if (!std::filesystem::is_regular_file(options.server, ec)) {
            return "cannot find the compile server at " + options.server.string();
        }
        auto started = CompileServerProcess::spawn({mono, options.server, options.mcsAssembly,
                                                    options.serverWarmUp, options.prepareReferences,
                                                    options.serverGcParams});
        if (!started) {
            return started.error();
        }
        server = std::move(*started);
        buildsOnServer = 0;
        ++stats.serverStarts;
        return {};
    }

    /// A ready server, or why there is none. Failed starts are not retried for a while.
    std::expected<CompileServerProcess*, std::string> readyServer() {
        if (retryStartAt && Clock::now() < *retryStartAt) {
            return std::unexpected("compile server unavailable: " + startError);
        }
        std::string problem = spawn();
        if (problem.empty()) {
            auto ready = server->waitReady(Clock::now() + options.startupTimeout);
            if (ready) {
                retryStartAt.reset();
                return server.get();
            }
            problem = "compile server " + ready.error();
            server->kill();
            server.reset();
        }
        retryStartAt = Clock::now() + options.retryStartAfter;
        startError = problem;
        spdlog::warn("{}; building with mcs instead (retrying the server in {} s)", problem,
                     options.retryStartAfter.count() / 1000);
        return std::unexpected(problem);
    }

    /// Kills a misbehaving server and starts its replacement, which warms up meanwhile.
    void replaceServer() {
        if (server) {
            server->kill();
            server.reset();
        }
        if (std::string problem = spawn(); !problem.empty()) {
            retryStartAt = Clock::now() + options.retryStartAfter;
            startError = std::move(problem);
        }
    }

    CompileResult coldFallback(const CompileRequest& request, std::string reason) {
        ++stats.coldFallbacks;
        CompileResult result = cold.compile(request);
        result.fallbackReason = std::move(reason);
        return result;
    }
};

WarmCompiler::WarmCompiler(WarmCompilerOptions options)
    : state_(std::make_unique<State>(std::move(options))) {}

WarmCompiler::~WarmCompiler() = default;

void WarmCompiler::warmUp() {
    const std::lock_guard lock(state_->mutex);
    (void)state_->readyServer();
}

bool WarmCompiler::settle(std::chrono::milliseconds timeout) {
    const std::lock_guard lock(state_->mutex);
    if (!state_->server) {
        return false;
    }
    auto settled = state_->server->settle(Clock::now() + timeout);
    if (!settled) {
        spdlog::warn("compile server {}; restarted it", settled.error());
        state_->replaceServer();
        return false;
    }
    return *settled;
}

std::optional<std::string> WarmCompiler::interfaceOf(const std::filesystem::path& assembly) {
    const std::lock_guard lock(state_->mutex);
    auto server = state_->readyServer();
    if (!server) {
        return std::nullopt;
    }
    constexpr std::chrono::seconds timeout{10};
    auto hash = (*server)->interfaceOf(assembly, Clock::now() + timeout);
    if (!hash) {
        spdlog::warn("compile server {}; restarted it", hash.error());
        state_->replaceServer();
        return std::nullopt;
    }
    if (hash->empty()) {
        return std::nullopt;
    }
    return std::move(*hash);
}

WarmCompilerStats WarmCompiler::stats() const {
    const std::lock_guard lock(state_->mutex);
    return state_->stats;
}

std::optional<int> WarmCompiler::serverPid() const {
    const std::lock_guard lock(state_->mutex);
    if (!state_->server) {
        return std::nullopt;
    }
    return state_->server->pid();
}

CompileResult WarmCompiler::compile(const CompileRequest& request) {
    const auto started = Clock::now();
    auto finish = [&](CompileResult result) {
        result.duration = detail::elapsedSince(started);
        return result;
    };
    if (request.sources.empty()) {
        return finish(detail::nothingToBuildResult(request, Backend::Warm));
    }
    if (std::string problem = detail::prepareOutputFolder(request); !problem.empty()) {
        return finish(detail::failedResult(request, Backend::Warm, std::move(problem)));
    }

    State& s = *state_;
    const std::lock_guard lock(s.mutex);
    auto server = s.readyServer();
    if (!server) {
        return finish(s.coldFallback(request, server.error()));
    }
    const int pid = (*server)->pid();
    std::function<void()> onSent;
    if (s.options.onRequestSent) {
        onSent = [&] { s.options.onRequestSent(pid); };
    }
    auto reply = (*server)->build(ColdCompiler::arguments(request), started + request.timeout,
                                  onSent, request.prepareNext);
    if (!reply || (reply->status != 0 && reply->status != 1)) {
        std::string reason = reply ? "compile server error: " + reply->output.substr(0, 2000)
                                   : "compile server " + reply.error();
        spdlog::warn("{} (pid {}); restarted it, this build used mcs", reason, pid);
        s.replaceServer();
        return finish(s.coldFallback(request, std::move(reason)));
    }

    CompileResult result;
    result.output = request.output;
    result.backend = Backend::Warm;
    result.log = std::move(reply->output);
    result.diagnostics = parseMcsDiagnostics(result.log);
    result.success = reply->status == 0;
    result.referencesPrepared = reply->referencesPrepared;
    if (!result.success && result.errorCount() == 0) {
        result.diagnostics.push_back(
            {"", 0, 0, Severity::Error, "", "mcs failed: " + result.log.substr(0, 2000)});
    }
    detail::checkOutputs(result);
    ++s.stats.warmBuilds;
    if (s.options.recycleAfterBuilds != 0 && ++s.buildsOnServer >= s.options.recycleAfterBuilds) {
        s.server.reset(); // graceful QUIT
        (void)s.spawn();  // the next one warms up while the caller handles this result
    }
    return finish(std::move(result));
}

} // namespace scripthost::compiler
