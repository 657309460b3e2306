#include "host/reload/reload_coordinator.hpp"

#include "compiler_bridge/build_queue.hpp"
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/compile_failure.hpp"
#include "compiler_bridge/output_generations.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "host/domain/script_domain.hpp"
#include "host/engine/script_host.hpp"
#include "host/runtime/mono_runtime.hpp"
#include "next_domain.hpp"
#include "script_assembly_builds.hpp"
#include "stage_costs.hpp"
#include "watcher/source_watcher.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <set>
#include <spdlog/spdlog.h>
#include <thread>

namespace scripthost {

// The most JIT work the warm stage does between two frames; it takes as many frames as
// it needs (one to three for the demo, more for thousands of script classes).
constexpr std::chrono::microseconds kWarmSlice{2000};

// Idle time is only used when the stage is expected to end this long before the next frame
// is due (a stage can take longer than it did the last time).
constexpr std::chrono::microseconds kIdleMargin{1500};

// A loop that never has idle time (unpaced, or frames that fill the period) gets the next
// reload's domain made at a frame boundary instead, once this many frames have run with nothing
// to reload: a paced loop with idle time has made it long before.
constexpr std::int64_t kPrepareAfterFrames = 30;

using Clock = std::chrono::steady_clock;

struct ReloadCoordinator::Impl {
    ScriptHost* host = nullptr;
    ReloadCoordinatorOptions options;
    std::unique_ptr<watcher::SourceWatcher> watcher;
    std::unique_ptr<compiler::BuildQueue> builds;
    std::unique_ptr<ScriptAssemblyBuilds> scriptBuilds; // what a change builds
    std::set<std::string> pendingTrigger; // files changed since the last submitted build
    std::vector<std::string> inFlightTrigger;
    bool inFlightReferencesPrepared = false; // the in-flight reload's build (its report says)
    // requestReload since the last submission: the broadest asked for.
    std::optional<ReloadCoordinator::Rebuild> requested;
    std::unique_ptr<ReloadTransaction> reload; // in progress: one stage per frame boundary
    std::vector<AssemblyFile> candidate;       // the reload in progress's assemblies
    std::optional<compiler::FinishedBuild> candidateBuild; // the reload in progress's build
    std::vector<AssemblyFile> running;                     // the running generation's
    std::uint64_t runningVersion = 0;
    // The next reload's domain, made ahead in idle time (ScriptCore loaded, its JIT warm-up
    // running or done, the assemblies the next build should reuse loaded and warm): the next
    // reload's load stage only loads what was built into it.
    std::unique_ptr<NextDomain> next;
    std::optional<ReloadReport> awaitingStall; // done: reported once its last frame is measured
    std::int64_t lastFrameSeen = 0;
    bool paused = false;               ///< setPaused: no frame comes, each update() is a boundary
    std::int64_t quietSince = 0;       // the frame the last reload ended in (0: none yet)
    std::vector<double> reloadFrameMs; // the frames that carried a stage
    StageCosts costs;
    // The timeline of the build in flight and of the reload in progress (ReloadTimeline).
    struct Timing {
        std::optional<Clock::time_point> firstSeen; ///< the first file event (none: forced)
        Clock::time_point submitted, finished, started, loaded, warmed, swapped;
    };
    std::optional<Clock::time_point> pendingSince; // the earliest first event not yet built
    Timing building, reloading;

    void log(const ReloadReport& report) const {
        if (report.success) {
            spdlog::info("{}", report.describe());
        } else {
            spdlog::error("{}", report.describe());
        }
    }

    // Submits the build of the changes noted (`pendingTrigger`): the trigger's paths, or
    // everything for a forced reload or a rescan.
    Result<void> submitBuild() {
        std::vector<std::filesystem::path> changed;
        bool everything = requested == Rebuild::Everything;
        for (const std::string& path : pendingTrigger) {
            if (path == "(rescan)")
                everything = true;
            else if (!path.starts_with("("))
                changed.emplace_back(path);
        }
        return scriptBuilds->submit(*builds, changed, everything);
    }

    // A report for a reload that ended before it had a transaction (no build, no assembly).
    ReloadReport failedBefore(std::string phase, std::vector<std::string> errors, double buildMs) {
        ReloadReport report;
        report.sequence = host->takeReloadSequence();
        report.trigger = inFlightTrigger;
        report.failedPhase = std::move(phase);
        report.buildMs = buildMs;
        report.fromGeneration = host->domain() ? host->domain()->generation() : 0;
        report.errors = std::move(errors);
        return report;
    }

    void note(const watcher::ChangeSet& changes) {
        if (changes.firstSeen && (!pendingSince || *changes.firstSeen < *pendingSince))
            pendingSince = changes.firstSeen;
        for (const auto* list : {&changes.added, &changes.modified, &changes.removed}) {
            for (const auto& path : *list)
                pendingTrigger.insert(path.string());
        }
        if (changes.rescanned)
            pendingTrigger.insert("(rescan)");
    }

    // The watcher holds changes it has not flushed: a finished build may have read a file in
    // the middle of a later save, and the build those changes submit supersedes it. (A
    // complete save is flushed at once, so a burst's later saves are what waits here.)
    bool watcherHolding() const { return watcher && watcher->holdingChanges(); }

    // In idle time: the next reload's domain, when there is none, the old generations are
    // unloaded (their collections and this would compete) and it fits before the next frame.
    // Not while a debugger is attached (its client would see a domain with no scripts).
    bool mayWorkAhead() const {
        return !reload && !MonoRuntime::debuggerAttached() && options.prepareDomains;
    }
    bool prepareNextDomain(Clock::time_point until) {
        return mayWorkAhead() && next->make(until, scriptBuilds->likelyReused());
    }

    // Loads ahead into the next reload's domain what it is expected to reuse, while the time
    // left before `until` allows. True when it did some (the caller looks again).
    bool preloadNextDomain(Clock::time_point until) {
        const auto left = std::chrono::duration_cast<std::chrono::microseconds>(
            until - Clock::now() - kIdleMargin);
        if (!mayWorkAhead() || left < kWarmSlice / 2)
            return false;
        return next->preload(left) == NextDomain::Progress::Worked;
    }

    void takeChanges() {
        while (auto changes = watcher ? watcher->poll() : std::nullopt)
            note(*changes);
    }
};

ReloadCoordinator::ReloadCoordinator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ReloadCoordinator::~ReloadCoordinator() = default;
Result<std::unique_ptr<ReloadCoordinator>>
ReloadCoordinator::start(ScriptHost& host, ReloadCoordinatorOptions options) {
    auto impl = std::make_unique<Impl>();
    impl->host = &host;
    impl->options = std::move(options);
    impl->next = std::make_unique<NextDomain>(host);
    impl->scriptBuilds = std::make_unique<ScriptAssemblyBuilds>(
        ScriptAssemblyBuildOptions{impl->options.scriptDirs, impl->options.generatedSources,
                                   impl->options.generatedSourcesOnScripts,
                                   impl->options.scriptCore, impl->options.buildTimeout,
                                   impl->options.onLayoutWalked},
        impl->options.buildDir);

    if (impl->options.watch) {
        watcher::WatchOptions watch;
        watch.roots = impl->options.scriptDirs;
        watch.quietWindow = impl->options.quietWindow;
        watch.flushCompleteSaves = true; // a save builds at once; a later one supersedes it
        watch.waitForMissingRoots = impl->options.waitForMissingFolders;
        watch.backend =
            impl->options.pollingWatcher ? watcher::Backend::Polling : watcher::Backend::Automatic;
        auto started = watcher::SourceWatcher::start(std::move(watch));
        if (!started) {
            return fail("cannot watch the scripts: " + started.error().message);
        }
        impl->watcher = std::move(*started);
    }

    auto makeCompiler = [&]() -> std::unique_ptr<compiler::Compiler> {
        if (impl->options.coldCompiler)
            return std::make_unique<compiler::ColdCompiler>();
        compiler::WarmCompilerOptions warm;
        if (!impl->options.compileServer.empty())
            warm.server = impl->options.compileServer;
        return std::make_unique<compiler::WarmCompiler>(std::move(warm));
    };
    // Assemblies by folder build two at a time where their references allow (a core's edit:
    // its leaves), on a second compiler whose server starts with the first set that uses it.
    std::unique_ptr<compiler::Compiler> setHelper;
    if (impl->options.parallelBuilds && std::thread::hardware_concurrency() >= 2)
        setHelper = makeCompiler();
    impl->builds = std::make_unique<compiler::BuildQueue>(makeCompiler(), std::move(setHelper));
    return std::unique_ptr<ReloadCoordinator>(new ReloadCoordinator(std::move(impl)));
}

std::expected<std::vector<std::filesystem::path>, compiler::CompileResult>
ReloadCoordinator::buildNow() {
    if (auto submitted = impl_->scriptBuilds->submit(*impl_->builds, {}, true); !submitted) {
        compiler::CompileResult failed;
        failed.log = submitted.error().message;
        return std::unexpected(std::move(failed));
    }
    auto finished =
        impl_->builds->waitFor(std::chrono::steady_clock::now() + impl_->options.buildTimeout * 2 +
                               std::chrono::seconds(5));
    if (!finished) {
        compiler::CompileResult failed;
        failed.timedOut = true;
        failed.log = "the build did not finish in time";
        return std::unexpected(std::move(failed));
    }
    compiler::CompileResult& result = finished->result;
    for (const auto& d : result.diagnostics) {
        if (d.severity != compiler::Severity::Error)
            spdlog::warn("{}", compiler::format(d));
    }
    if (!result.success)
        return std::unexpected(std::move(result));
    if (finished->set)
        spdlog::info("built {} assemblies in {} ms ({})", finished->set->result.assemblies.size(),
                     finished->set->result.duration.count(), compiler::backendName(result.backend));
    else
        spdlog::info("built {} file(s) in {} ms ({})", finished->request.sources.size(),
                     result.duration.count(), compiler::backendName(result.backend));
    impl_->scriptBuilds->committed(*finished); // what the caller loads is the running build
    return ScriptAssemblyBuilds::outputs(*finished);
}

void ReloadCoordinator::requestReload(Rebuild rebuild) {
    Impl& m = *impl_;
    m.requested = m.requested ? std::min(*m.requested, rebuild) : rebuild; // broadest first
}

const std::vector<AssemblyFile>& ReloadCoordinator::runningScripts() const noexcept {
    return impl_->running;
}

std::uint64_t ReloadCoordinator::runningScriptsVersion() const noexcept {
    return impl_->runningVersion;
}

void ReloadCoordinator::setRunningScripts(std::vector<AssemblyFile> scripts) {
    impl_->running = std::move(scripts);
    ++impl_->runningVersion;
}

std::vector<std::filesystem::path> ReloadCoordinator::missingFolders() const {
    return impl_->watcher ? impl_->watcher->missingRoots() : std::vector<std::filesystem::path>{};
}

bool ReloadCoordinator::busy() const {
    return !impl_->builds->idle();
}

bool ReloadCoordinator::hasPreparedDomain() const noexcept {
    return impl_->next->exists();
}

void ReloadCoordinator::publish(ReloadReport report) {
    if (onReport)
        onReport(report);
    reports_.push_back(std::move(report));
    if (reports_.size() > 64)
        reports_.pop_front();
}

std::optional<ReloadReport>
ReloadCoordinator::update(std::optional<std::chrono::steady_clock::time_point> waitForBuild) {
    Impl& m = *impl_;
    // Each stage ran between two frames, so the frame after it shows what it cost.
    const bool newFrame = m.host->frame() != m.lastFrameSeen;
    m.lastFrameSeen = m.host->frame();
    // While the loop is paused no frame comes: each call is a frame boundary of its own, so a
    // save still lands (and its report says no frame stalled: none ran).
    const bool boundary = newFrame || m.paused;
    if ((m.reload || m.awaitingStall) && newFrame)
        m.reloadFrameMs.push_back(m.host->stats().lastFrameMs());
    if (m.awaitingStall && boundary) {
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
    if (auto failed = submitChanges())
        return failed;
    if (m.reload) { // one reload at a time, one stage per frame boundary
        // Smoke mode waits for the background warm-up as it waits for builds: the frames a
        // reload takes are then the same on every run.
        if (waitForBuild)
            (void)m.reload->waitForBackgroundWork(*waitForBuild);
        return boundary ? advance(kWarmSlice) : std::nullopt;
    }
    if (m.watcherHolding())
        return std::nullopt;
    // No idle time came to make the next reload's domain in (useIdleTime): make it here, ~2 ms
    // of this frame against the warm-up and the first frame's JIT it saves the next reload.
    // Not in smoke mode (waitForBuild), whose frames are the same on every run.
    if (!m.next->complete() && !waitForBuild && newFrame && !m.awaitingStall &&
        m.host->frame() - m.quietSince >= kPrepareAfterFrames && m.builds->idle()) {
        if (!m.prepareNextDomain(Clock::time_point::max()) && m.mayWorkAhead())
            (void)m.next->preload(kWarmSlice);
    }

    auto finished = waitForBuild ? m.builds->waitFor(*waitForBuild) : m.builds->poll();
    if (!finished)
        return std::nullopt;
    if (auto failed = startReload(std::move(*finished)))
        return failed;
    return advance(kWarmSlice); // the load stage runs at this frame boundary
}

void ReloadCoordinator::setPaused(bool paused) noexcept {
    impl_->paused = paused;
}

bool ReloadCoordinator::useIdleTime(std::chrono::steady_clock::time_point until) {
    Impl& m = *impl_;
    for (;;) {
        const auto now = Clock::now();
        if (m.reload) {
            // A debugger rebind waits for the old generation's unload: slept on here too.
            if (m.reload->next() == ReloadStage::Rebind) {
                if (!m.reload->waitForBackgroundWork(until - kIdleMargin))
                    return false;
                (void)advance(kWarmSlice);
                continue;
            }
            // The warm stage JITs in slices: here a slice is as long as the time left allows.
            if (m.reload->next() == ReloadStage::Warm) {
                // Its background part is slept on here, where the loop would sleep anyway.
                if (!m.reload->waitForBackgroundWork(until - kIdleMargin))
                    return false;
                const auto left = std::chrono::duration_cast<std::chrono::microseconds>(
                    until - Clock::now() - kIdleMargin);
                if (left < kWarmSlice / 2)
                    return false;
                (void)advance(left);
                continue;
            }
            // Does not fit: rather than sleep until the frame is due, let it come now.
            if (now + m.costs.expected(m.reload->next(), m.reload->loadsIntoPreparedDomain()) +
                    kIdleMargin >
                until)
                return true;
            const bool swapping = m.reload->next() == ReloadStage::Swap;
            (void)advance(kWarmSlice);
            // The new code is in: its first frame need not wait out the period.
            if (swapping)
                return true;
            continue;
        }
        if (submitChanges())
            continue;
        if (m.prepareNextDomain(until) || m.preloadNextDomain(until))
            continue;
        if (m.builds->idle()) {
            // Nothing to build yet: a save seen while the loop would sleep starts its build
            // now rather than at the next frame boundary.
            if (!m.watcher || now + kIdleMargin >= until)
                return false;
            auto changes = m.watcher->waitFor(until - kIdleMargin);
            if (!changes)
                return false;
            m.note(*changes);
            continue;
        }
        // A build in flight that ends while the loop would sleep starts its reload now, as
        // long as its load stage still fits before the next frame.
        const auto lastStart =
            until - m.costs.expected(ReloadStage::Load, m.next->exists()) - kIdleMargin;
        if (now >= lastStart || m.watcherHolding())
            return false;
        auto finished = m.builds->waitFor(lastStart);
        if (!finished)
            return false;
        (void)startReload(std::move(*finished));
    }
}

std::optional<ReloadReport> ReloadCoordinator::submitChanges() {
    Impl& m = *impl_;
    m.takeChanges();
    if (m.pendingTrigger.empty() && !m.requested)
        return std::nullopt;
    if (m.requested == Rebuild::Generated)
        m.pendingTrigger.insert("(native classes changed)");
    else if (m.requested == Rebuild::Nothing)
        m.pendingTrigger.insert("(requested)");
    auto request = m.submitBuild(); // supersedes a build in flight
    m.inFlightTrigger.assign(m.pendingTrigger.begin(), m.pendingTrigger.end());
    if (m.requested == Rebuild::Everything && m.inFlightTrigger.empty())
        m.inFlightTrigger.push_back("forced");
    m.pendingTrigger.clear();
    m.requested.reset();
    m.building = Impl::Timing{m.pendingSince, Clock::now(), {}, {}, {}, {}, {}};
    m.pendingSince.reset();
    if (!request) {
        ReloadReport report = m.failedBefore("build", {request.error().message}, 0);
        m.log(report);
        publish(report);
        return report;
    }
    // The build says what it reuses: the domain made ahead loads that (the rest of it while the
    // build runs), or is dropped for one that does when it loaded what the build replaces.
    m.next->expect(m.scriptBuilds->likelyReused());
    return std::nullopt;
}

std::optional<ReloadReport> ReloadCoordinator::startReload(compiler::FinishedBuild finished) {
    Impl& m = *impl_;
    const compiler::CompileResult& result = finished.result;
    const double buildMs =
        double(finished.set ? finished.set->result.duration.count() : result.duration.count());
    m.inFlightReferencesPrepared = result.referencesPrepared;
    if (!result.success) {
        ReloadReport report = m.failedBefore("build", compiler::errorLines(result), buildMs);
        m.log(report);
        publish(report);
        return report;
    }
    auto assemblies = ScriptAssemblyBuilds::read(finished);
    m.scriptBuilds->prune(); // what is loaded was read into memory; old files can go
    if (!assemblies) {
        ReloadReport report = m.failedBefore("load", {assemblies.error().message}, buildMs);
        m.log(report);
        publish(report);
        return report;
    }
    // Kept: they become runningScripts() if the reload commits (a restart runs them first).
    m.candidate = *assemblies;
    m.candidateBuild = std::move(finished);
    m.reload = std::make_unique<ReloadTransaction>(*m.host, std::move(*assemblies),
                                                   m.inFlightTrigger, buildMs);
    if (auto prepared = m.next->take())
        m.reload->usePreparedDomain(std::move(prepared));
    m.reload->beforeStage = beforeStage;
    m.reload->afterStage = afterStage;
    m.reloading = m.building; // the queue only hands out the newest submission's build
    m.reloading.finished = m.candidateBuild->finishedAt;
    m.reloading.started = m.reloading.loaded = m.reloading.warmed = Clock::now();
    return std::nullopt;
}

std::optional<ReloadReport> ReloadCoordinator::advance(std::chrono::microseconds warmSlice) {
    Impl& m = *impl_;
    const ReloadStage stage = m.reload->next();
    // A debugger rebind's second pass comes after the new code is live: not in the timeline.
    const bool towardsNewCode = !m.reload->committed();
    const bool prepared = m.reload->loadsIntoPreparedDomain();
    const auto started = Clock::now();
    m.reload->step(warmSlice);
    const auto ended = Clock::now();
    m.costs.record(stage, ended - started, prepared);
    if (towardsNewCode && stage == ReloadStage::Load)
        m.reloading.loaded = m.reloading.warmed = ended;
    else if (towardsNewCode && (stage == ReloadStage::Warm || stage == ReloadStage::Reserve))
        m.reloading.warmed = ended;
    else if (towardsNewCode && stage == ReloadStage::Swap)
        m.reloading.swapped = ended;
    if (!m.reload->done())
        return std::nullopt;
    ReloadReport report = m.reload->takeReport();
    report.referencesImportedAhead = m.inFlightReferencesPrepared;
    if (m.candidateBuild)
        ScriptAssemblyBuilds::describe(*m.candidateBuild, report);
    if (m.reload->committed()) {
        if (m.candidateBuild)
            m.scriptBuilds->committed(*m.candidateBuild);
        m.running = std::move(m.candidate);
        ++m.runningVersion;
    }
    m.candidate.clear();
    m.candidateBuild.reset();
    m.reload.reset();
    m.quietSince = m.host->frame();
    if (report.success && m.reloading.firstSeen) {
        // Up to the swap: the unload stage after it is not on the way to the new code.
        const Impl::Timing& t = m.reloading;
        auto ms = [](Clock::time_point from, Clock::time_point to) {
            return std::chrono::duration<double, std::milli>(to - from).count();
        };
        report.timeline = ReloadTimeline{ms(*t.firstSeen, t.submitted), ms(t.submitted, t.finished),
                                         ms(t.finished, t.started),     ms(t.started, t.loaded),
                                         ms(t.loaded, t.warmed),        ms(t.warmed, t.swapped),
                                         ms(*t.firstSeen, t.swapped)};
    }
    m.log(report);
    m.awaitingStall = report;
    return report;
}

} // namespace scripthost
