#include "host/reload_coordinator.hpp"

#include "compiler_bridge/build_queue.hpp"
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/output_generations.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "host/script_host.hpp"
#include "host/script_sources.hpp"
#include "watcher/source_watcher.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <spdlog/spdlog.h>

namespace scripthost {

struct ReloadCoordinator::Impl {
    ScriptHost* host = nullptr;
    ReloadCoordinatorOptions options;
    std::unique_ptr<watcher::SourceWatcher> watcher;
    std::unique_ptr<compiler::BuildQueue> builds;
    compiler::OutputGenerations outputs{{}, "Scripts"};
    std::set<std::string> pendingTrigger; // files changed since the last submitted build
    std::vector<std::string> inFlightTrigger;
    bool forced = false;
    std::optional<ReloadReport> awaitingStall; // reported once the next frame has run
    std::uint64_t framesAtReload = 0;
    std::uint64_t sequence = 0; // every report, failed builds included

    void log(const ReloadReport& report) const {
        if (report.success) {
            spdlog::info("{}", report.describe());
        } else {
            spdlog::error("{}", report.describe());
        }
    }

    Result<compiler::CompileRequest> request() {
        auto sources = collectScriptSources(options.scriptDirs);
        if (!sources) return std::unexpected(sources.error());
        compiler::CompileRequest r;
        r.sources = std::move(*sources);
        r.references = {options.scriptCore};
        r.output = outputs.next();
        r.timeout = options.buildTimeout;
        return r;
    }
};

ReloadCoordinator::ReloadCoordinator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ReloadCoordinator::~ReloadCoordinator() = default;

Result<std::unique_ptr<ReloadCoordinator>> ReloadCoordinator::start(ScriptHost& host,
                                                                    ReloadCoordinatorOptions options) {
    auto impl = std::make_unique<Impl>();
    impl->host = &host;
    impl->options = std::move(options);
    impl->outputs = compiler::OutputGenerations(impl->options.buildDir, "Scripts");

    watcher::WatchOptions watch;
    watch.roots = impl->options.scriptDirs;
    watch.quietWindow = impl->options.quietWindow;
    watch.backend = impl->options.pollingWatcher ? watcher::Backend::Polling : watcher::Backend::Automatic;
    auto started = watcher::SourceWatcher::start(std::move(watch));
    if (!started) {
        return fail("cannot watch the scripts: " + started.error().message);
    }
    impl->watcher = std::move(*started);

    std::unique_ptr<compiler::Compiler> compiler;
    if (impl->options.coldCompiler) {
        compiler = std::make_unique<compiler::ColdCompiler>();
    } else {
        compiler::WarmCompilerOptions warm;
        if (!impl->options.compileServer.empty()) warm.server = impl->options.compileServer;
        compiler = std::make_unique<compiler::WarmCompiler>(std::move(warm));
    }
    impl->builds = std::make_unique<compiler::BuildQueue>(std::move(compiler));
    return std::unique_ptr<ReloadCoordinator>(new ReloadCoordinator(std::move(impl)));
}

Result<std::filesystem::path> ReloadCoordinator::buildNow() {
    auto request = impl_->request();
    if (!request) return std::unexpected(request.error());
    (void)impl_->builds->submit(std::move(*request));
    auto finished = impl_->builds->waitFor(std::chrono::steady_clock::now() +
                                           impl_->options.buildTimeout * 2 + std::chrono::seconds(5));
    if (!finished) return fail("the build did not finish in time");
    const compiler::CompileResult& result = finished->result;
    std::string text;
    for (const auto& d : result.diagnostics) {
        if (d.severity == compiler::Severity::Error) {
            text += compiler::format(d) + "\n";
        } else {
            spdlog::warn("{}", compiler::format(d));
        }
    }
    if (!result.success) {
        if (!text.empty() && text.back() == '\n') text.pop_back();
        return fail(text.empty() ? std::string("the build failed") : text);
    }
    spdlog::info("built {} file(s) in {} ms ({})", finished->request.sources.size(),
                 result.duration.count(), compiler::backendName(result.backend));
    return result.output;
}

void ReloadCoordinator::requestReload() { impl_->forced = true; }

bool ReloadCoordinator::busy() const { return !impl_->builds->idle(); }

std::optional<ReloadReport> ReloadCoordinator::update() {
    Impl& m = *impl_;
    // A report waits one frame for its stall figure: the frame that contained the swap.
    if (m.awaitingStall && m.host->frame() > static_cast<std::int64_t>(m.framesAtReload)) {
        ReloadReport report = std::move(*m.awaitingStall);
        m.awaitingStall.reset();
        const auto summary = m.host->stats().summary();
        report.frameStallMs = std::max(0.0, m.host->stats().lastFrameMs() - summary.medianFrameMs);
        if (onReport) onReport(report);
        reports_.push_back(report);
        if (reports_.size() > 64) reports_.pop_front();
    }

    while (auto changes = m.watcher->poll()) {
        for (const auto* list : {&changes->added, &changes->modified, &changes->removed}) {
            for (const auto& path : *list) m.pendingTrigger.insert(path.string());
        }
        if (changes->rescanned) m.pendingTrigger.insert("(rescan)");
    }
    if (!m.pendingTrigger.empty() || m.forced) {
        auto request = m.request();
        m.inFlightTrigger.assign(m.pendingTrigger.begin(), m.pendingTrigger.end());
        if (m.forced && m.inFlightTrigger.empty()) m.inFlightTrigger.push_back("forced");
        m.pendingTrigger.clear();
        m.forced = false;
        if (!request) {
            ReloadReport report;
            report.sequence = ++m.sequence;
            report.trigger = m.inFlightTrigger;
            report.failedPhase = "build";
            report.errors.push_back(request.error().message);
            m.log(report);
            if (onReport) onReport(report);
            reports_.push_back(report);
            return report;
        }
        (void)m.builds->submit(std::move(*request)); // supersedes a build in flight
    }

    auto finished = m.builds->poll();
    if (!finished) return std::nullopt;
    const compiler::CompileResult& result = finished->result;
    ReloadReport report;
    if (!result.success) {
        report.sequence = ++m.sequence;
        report.trigger = m.inFlightTrigger;
        report.failedPhase = "build";
        report.buildMs = double(result.duration.count());
        report.fromGeneration = m.host->domain() ? m.host->domain()->generation() : 0;
        for (const auto& d : result.diagnostics) {
            if (d.severity == compiler::Severity::Error) report.errors.push_back(compiler::format(d));
        }
        if (report.errors.empty()) report.errors.push_back("the build failed:\n" + result.log);
        m.log(report);
        if (onReport) onReport(report);
        reports_.push_back(report);
        return report;
    }
    auto assembly = AssemblyFile::read(result.output);
    if (!assembly) {
        report.sequence = ++m.sequence;
        report.failedPhase = "load";
        report.errors.push_back(assembly.error().message);
        m.log(report);
        reports_.push_back(report);
        return report;
    }
    report = m.host->reload(*assembly, m.inFlightTrigger);
    report.sequence = ++m.sequence;
    report.buildMs = double(result.duration.count());
    m.log(report);
    m.outputs.prune(3); // the loaded assembly was read into memory; old files can go
    m.awaitingStall = report;
    m.framesAtReload = static_cast<std::uint64_t>(m.host->frame());
    return report;
}

} // namespace scripthost
