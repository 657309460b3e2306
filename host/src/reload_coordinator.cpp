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

// The most JIT work the warm stage does between two frames; it takes as many frames as
// it needs (one to three for the demo, more for thousands of script classes).
constexpr std::chrono::microseconds kWarmSlice{2000};

struct ReloadCoordinator::Impl {
    ScriptHost* host = nullptr;
    ReloadCoordinatorOptions options;
    std::unique_ptr<watcher::SourceWatcher> watcher;
    std::unique_ptr<compiler::BuildQueue> builds;
    compiler::OutputGenerations outputs{{}, "Scripts"};
    std::set<std::string> pendingTrigger; // files changed since the last submitted build
    std::vector<std::string> inFlightTrigger;
    bool forced = false;
    // A reload in progress, spread over frames: prepared (loaded) → swapped → unloaded.
    std::optional<PreparedGeneration> prepared;
    std::vector<std::string> preparedTrigger;
    double preparedBuildMs = 0;
    std::optional<ReloadReport> swapped;       // old generation still to unload
    std::optional<ReloadReport> awaitingStall; // done: reported once its last frame is measured
    std::int64_t lastFrameSeen = 0;
    std::vector<double> reloadFrameMs; // the frames that carried a stage
    std::uint64_t sequence = 0;        // every report, failed builds included

    void log(const ReloadReport& report) const {
        if (report.success) {
            spdlog::info("{}", report.describe());
        } else {
            spdlog::error("{}", report.describe());
        }
    }

    Result<compiler::CompileRequest> request() {
        auto sources = collectScriptSources(options.scriptDirs);
        if (!sources)
            return std::unexpected(sources.error());
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

Result<std::unique_ptr<ReloadCoordinator>>
ReloadCoordinator::start(ScriptHost& host, ReloadCoordinatorOptions options) {
    auto impl = std::make_unique<Impl>();
    impl->host = &host;
    impl->options = std::move(options);
    impl->outputs = compiler::OutputGenerations(impl->options.buildDir, "Scripts");

    if (impl->options.watch) {
        watcher::WatchOptions watch;
        watch.roots = impl->options.scriptDirs;
        watch.quietWindow = impl->options.quietWindow;
        watch.backend =
            impl->options.pollingWatcher ? watcher::Backend::Polling : watcher::Backend::Automatic;
        auto started = watcher::SourceWatcher::start(std::move(watch));
        if (!started) {
            return fail("cannot watch the scripts: " + started.error().message);
        }
        impl->watcher = std::move(*started);
    }

    std::unique_ptr<compiler::Compiler> compiler;
    if (impl->options.coldCompiler) {
        compiler = std::make_unique<compiler::ColdCompiler>();
    } else {
        compiler::WarmCompilerOptions warm;
        if (!impl->options.compileServer.empty())
            warm.server = impl->options.compileServer;
        compiler = std::make_unique<compiler::WarmCompiler>(std::move(warm));
    }
    impl->builds = std::make_unique<compiler::BuildQueue>(std::move(compiler));
    return std::unique_ptr<ReloadCoordinator>(new ReloadCoordinator(std::move(impl)));
}

Result<std::filesystem::path> ReloadCoordinator::buildNow() {
    auto request = impl_->request();
    if (!request)
        return std::unexpected(request.error());
    (void)impl_->builds->submit(std::move(*request));
    auto finished =
        impl_->builds->waitFor(std::chrono::steady_clock::now() + impl_->options.buildTimeout * 2 +
                               std::chrono::seconds(5));
    if (!finished)
        return fail("the build did not finish in time");
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
        if (!text.empty() && text.back() == '\n')
            text.pop_back();
        return fail(text.empty() ? std::string("the build failed") : text);
    }
    spdlog::info("built {} file(s) in {} ms ({})", finished->request.sources.size(),
                 result.duration.count(), compiler::backendName(result.backend));
    return result.output;
}

void ReloadCoordinator::requestReload() {
    impl_->forced = true;
}

bool ReloadCoordinator::busy() const {
    return !impl_->builds->idle();
}

void ReloadCoordinator::publish(ReloadReport report) {
    if (onReport)
        onReport(report);
    reports_.push_back(std::move(report));
    if (reports_.size() > 64)
        reports_.pop_front();
}

std::optional<ReloadReport> ReloadCoordinator::update() {
    Impl& m = *impl_;
    // Each stage ran between two frames, so the frame after it shows what it cost.
    const bool newFrame = m.host->frame() != m.lastFrameSeen;
    m.lastFrameSeen = m.host->frame();
    const bool inProgress = m.prepared || m.swapped || m.awaitingStall;
    if (inProgress && newFrame) {
        m.reloadFrameMs.push_back(m.host->stats().lastFrameMs());
    }
    if (m.awaitingStall && newFrame) {
        ReloadReport report = std::move(*m.awaitingStall);
        m.awaitingStall.reset();
        const double median = m.host->stats().summary().medianFrameMs;
        const double worst = m.reloadFrameMs.empty() ? 0.0
                                                     : *std::max_element(m.reloadFrameMs.begin(),
                                                                         m.reloadFrameMs.end());
        report.frameStallMs = std::max(0.0, worst - median);
        m.reloadFrameMs.clear();
        publish(std::move(report));
    }
    // Stage 4 (the frame after the swap): unload the old generation.
    if (m.swapped && newFrame) {
        ReloadReport report = std::move(*m.swapped);
        m.swapped.reset();
        m.host->finishPendingUnload(report);
        m.log(report);
        m.awaitingStall = std::move(report);
        return m.awaitingStall;
    }
    // Stage 2 (the frame after loading): JIT-compile the new generation.
    if (m.prepared && !m.prepared->warmed && newFrame) {
        m.host->warmGeneration(*m.prepared, kWarmSlice);
        return std::nullopt;
    }
    // Stage 3: snapshot, restore, hooks, swap — or roll back.
    if (m.prepared && newFrame) {
        ReloadReport report = m.host->completeReload(std::move(*m.prepared), m.preparedTrigger);
        m.prepared.reset();
        report.sequence = ++m.sequence;
        report.buildMs = m.preparedBuildMs;
        if (report.success && m.host->unloadPending()) {
            m.swapped = std::move(report);
            return std::nullopt; // reported once the old generation is unloaded
        }
        m.log(report);
        m.awaitingStall = report;
        return report;
    }
    while (auto changes = m.watcher ? m.watcher->poll() : std::nullopt) {
        for (const auto* list : {&changes->added, &changes->modified, &changes->removed}) {
            for (const auto& path : *list)
                m.pendingTrigger.insert(path.string());
        }
        if (changes->rescanned)
            m.pendingTrigger.insert("(rescan)");
    }
    if (!m.pendingTrigger.empty() || m.forced) {
        auto request = m.request();
        m.inFlightTrigger.assign(m.pendingTrigger.begin(), m.pendingTrigger.end());
        if (m.forced && m.inFlightTrigger.empty())
            m.inFlightTrigger.push_back("forced");
        m.pendingTrigger.clear();
        m.forced = false;
        if (!request) {
            ReloadReport report;
            report.sequence = ++m.sequence;
            report.trigger = m.inFlightTrigger;
            report.failedPhase = "build";
            report.errors.push_back(request.error().message);
            m.log(report);
            publish(report);
            return report;
        }
        (void)m.builds->submit(std::move(*request)); // supersedes a build in flight
    }

    if (m.prepared || m.swapped)
        return std::nullopt; // one reload at a time
    auto finished = m.builds->poll();
    if (!finished)
        return std::nullopt;
    const compiler::CompileResult& result = finished->result;
    ReloadReport report;
    if (!result.success) {
        report.sequence = ++m.sequence;
        report.trigger = m.inFlightTrigger;
        report.failedPhase = "build";
        report.buildMs = double(result.duration.count());
        report.fromGeneration = m.host->domain() ? m.host->domain()->generation() : 0;
        for (const auto& d : result.diagnostics) {
            if (d.severity == compiler::Severity::Error)
                report.errors.push_back(compiler::format(d));
        }
        if (report.errors.empty())
            report.errors.push_back("the build failed:\n" + result.log);
        m.log(report);
        publish(report);
        return report;
    }
    auto assembly = AssemblyFile::read(result.output);
    m.outputs.prune(3); // what is loaded was read into memory; old files can go
    auto prepared = assembly ? m.host->prepareGeneration(*assembly)
                             : Result<PreparedGeneration>(std::unexpected(assembly.error()));
    if (!prepared) {
        report.sequence = ++m.sequence;
        report.trigger = m.inFlightTrigger;
        report.failedPhase = "load";
        report.fromGeneration = m.host->domain() ? m.host->domain()->generation() : 0;
        report.buildMs = double(result.duration.count());
        report.errors.push_back(prepared.error().message);
        m.log(report);
        publish(report);
        return report;
    }
    // Stage 1 done (this frame): the swap happens at the next frame boundary.
    m.prepared = std::move(*prepared);
    m.preparedTrigger = m.inFlightTrigger;
    m.preparedBuildMs = double(result.duration.count());
    return std::nullopt;
}

} // namespace scripthost
