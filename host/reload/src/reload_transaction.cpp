// ReloadTransaction: the stages of one reload and the state they share.
#include "host/reload/reload_transaction.hpp"

#include "generation_swap.hpp"
#include "host/domain/script_domain.hpp"
#include "host/engine/script_host.hpp"
#include "host/runtime/mono_runtime.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace {

using Clock = std::chrono::steady_clock;

/// How long a reload waits on the main thread for an unload while a debugger is attached
/// (State::letGo): past the unloader's own budgets (DomainPresence and the thread stop, 2 s
/// each) and Mono's unload, after which the loop goes on and the unload finishes behind it.
constexpr std::chrono::milliseconds kDebuggerUnloadWait{10000};

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

std::string_view stageName(ReloadStage stage) noexcept {
    switch (stage) {
    case ReloadStage::Load:
        return "load";
    case ReloadStage::Reserve:
        return "reserve";
    case ReloadStage::Warm:
        return "warm";
    case ReloadStage::Swap:
        return "swap";
    case ReloadStage::Unload:
        return "unload";
    case ReloadStage::Rebind:
        return "rebind";
    case ReloadStage::Done:
        return "done";
    }
    return "?";
}

/// Whether a reload ends with the debugger rebind (ReloadStage::Rebind).
enum class RebindMode {
    Off,           ///< no debugger attached when the reload began: the plain pipeline
    WhileAttached, ///< a debugger was attached: rebind unless it has gone by then
    Forced,        ///< tests: rebind whatever the debugger does
};

/// Everything one reload holds between its stages.
struct ReloadTransaction::State {
    ScriptHost& host;
    /// The scripts assemblies, in dependency order; released once loaded (after the rebind
    /// pass's load, with a rebind).
    std::vector<AssemblyFile> scripts;
    ReloadStage next = ReloadStage::Load;
    ReloadReport report;
    std::unique_ptr<ScriptDomain> incoming; // loaded, not yet adopted (rolled back if dropped)
    std::unique_ptr<ScriptDomain> outgoing; // swapped out, not yet let go of
    std::size_t slotCount = 0;              // slots at load time: the new dispatcher's size
    bool committed = false;
    double aheadMs = 0;                     // the reserve stage's instantiateAhead
    std::unique_ptr<ScriptDomain> prepared; // ScriptCore loaded and warming: the load stage's
                                            // domain, when the coordinator made one ahead
    RebindMode rebind = RebindMode::Off;
    // The rebind pass runs the stages again into a report of its own, folded into `report`
    // when the pass ends (finishRebind); `report` holds the first pass, the real reload.
    bool rebinding = false;
    ReloadReport rebindReport;

    State(ScriptHost& h, std::vector<AssemblyFile> s) : host(h), scripts(std::move(s)) {}

    /// The report the running pass writes into.
    ReloadReport& active() { return rebinding ? rebindReport : report; }

    void runLoad();
    void runReserve();
    void runWarm(std::chrono::microseconds slice);
    void runSwap();
    void runUnload();
    void runRebind();
    void finishRebind();
    std::vector<std::string> letGo(std::unique_ptr<ScriptDomain>& domain);
    void rollBack(std::string phase, std::string error);
};

// Stage 1: the new domain, ScriptCore and the scripts, and — now rather than in the swap's
// frame — the carry plan of every class and the proxies today's references will need. (The
// swap re-checks all of it: whatever changed in between is still carried.)
void ReloadTransaction::State::runLoad() {
    const auto started = Clock::now();
    ReloadReport& report = active();
    report.fromGeneration = host.domain() ? host.domain()->generation() : 0;
    auto created = [&]() -> Result<std::unique_ptr<ScriptDomain>> {
        if (!prepared || rebinding)
            return ScriptDomain::create(host.takeGenerationNumber(), host.scriptCore(), scripts,
                                        host.world());
        std::unique_ptr<ScriptDomain> domain = std::move(prepared);
        report.preparedDomain = true;
        report.assembliesLoadedAhead = domain->preloadedAssemblies();
        if (auto loaded = domain->loadScripts(host.takeGenerationNumber(), scripts); !loaded) {
            (void)domain->unloadInBackground(); // not on this thread: the loop goes on
            return std::unexpected(loaded.error());
        }
        return domain;
    }();
    if (rebind == RebindMode::Off || rebinding)
        scripts = {}; // a rebind loads the same bytes once more
    if (!created) {
        report.loadMs = msSince(started);
        rollBack("load", created.error().message);
        return;
    }
    incoming = std::move(*created);
    report.toGeneration = incoming->generation();
    slotCount = 0;
    World& world = host.world();
    for (ObjectId entity : world.entities())
        slotCount += world.entity(entity)->scripts.size();
    if (ScriptDomain* current = host.domain()) {
        ScriptContextBinding bind(host.context());
        const FieldCarryPlan* lastPlan = nullptr;
        for (ObjectId entity : world.entities()) {
            for (ObjectId slot : world.entity(entity)->scripts) {
                const ScriptSlot* s = world.script(slot);
                if (s->parked || s->native) // a native script's object is not in a domain
                    continue;
                if (lastPlan == nullptr || lastPlan->className != s->className)
                    lastPlan = &incoming->carryPlan(*current, s->className);
                if (lastPlan->direct)
                    incoming->prepareCarry(*current, slot, *lastPlan);
            }
        }
    }
    report.loadMs = msSince(started);
    next = ReloadStage::Warm;
}

// Stage 2: JIT what the swap will call, at most `slice` per call, so the swap's frame does
// not pay for compilation. No script code runs.
void ReloadTransaction::State::runWarm(std::chrono::microseconds slice) {
    const auto started = Clock::now();
    const bool warmed = incoming->warmUp(slice);
    active().warmMs += msSince(started);
    if (warmed)
        next = ReloadStage::Reserve;
}

// Stage 3: the new dispatcher's maps sized for today's scripts. After the warm-up, which
// compiled the collections' code in slices, so its frame pays for little more than the
// dispatcher's static constructor.
void ReloadTransaction::State::runReserve() {
    auto started = Clock::now();
    incoming->reserve(slotCount);
    active().warmMs += msSince(started);
    // Then today's scripts' instances (their constructors), one frame before the swap, so
    // that the swap's frame only carries values.
    started = Clock::now();
    auto made = instantiateAhead(host, *incoming);
    aheadMs = msSince(started);
    active().restoreMs += aheadMs;
    if (!made) {
        rollBack("instantiate", made.error().message);
        return;
    }
    next = ReloadStage::Swap;
}

// Stage 4: snapshot, instantiate, restore, hooks, commit — or roll back.
void ReloadTransaction::State::runSwap() {
    const auto started = Clock::now();
    ReloadReport& report = active();
    auto swapped = swapGeneration(host, incoming, report);
    if (swapped) {
        outgoing = std::move(*swapped);
        committed = true;
        report.success = true;
        next = ReloadStage::Unload;
    } else {
        report.fields.clear();
        rollBack(swapped.error().phase, swapped.error().message);
    }
    report.totalMs = report.loadMs + report.warmMs + aheadMs + msSince(started);
}

// Stage 5: the main thread only lets go of the old generation (its handles and cached
// pointers); Mono's unload runs on the unloader thread while the loop goes on (waited for
// while a debugger is attached: letGo). Earlier background unloads that failed are reported
// here.
void ReloadTransaction::State::runUnload() {
    const auto started = Clock::now();
    ReloadReport& report = active();
    if (outgoing)
        report.stoppedThreads = letGo(outgoing);
    for (std::string& failure : ScriptDomain::takeUnloadFailures())
        report.warnings.push_back(std::move(failure));
    report.unloadMs = msSince(started);
    report.totalMs += report.unloadMs;
    if (rebinding) {
        finishRebind();
        return;
    }
    next = rebind == RebindMode::Off ? ReloadStage::Done : ReloadStage::Rebind;
}

// Lets go of `domain`; Mono's unload runs on the unloader thread. While a debugger is attached
// (or the rebind is forced) the main thread also waits for it here, before any script runs
// again (docs/MONO.md §11, "Unloads wait while a debugger is attached"): the unload sends the
// client events (its thread's start and death, the domain's unload), and Mono.Debugging.Soft
// resumes the VM after each, which makes the frames of a thread stopped at a breakpoint in the
// meantime invalid (sdb then prints "Result is unrepresentable" for every local).
std::vector<std::string> ReloadTransaction::State::letGo(std::unique_ptr<ScriptDomain>& domain) {
    const std::uint32_t generation = domain->generation();
    std::vector<std::string> stopped = domain->unloadInBackground();
    domain.reset();
    if (rebind != RebindMode::Off && !ScriptDomain::waitForUnloads(kDebuggerUnloadWait))
        active().warnings.push_back(fmt::format(
            "generation {} was still unloading after {} s: a debugger stopped in the meantime "
            "may show stale frames",
            generation, kDebuggerUnloadWait.count() / 1000));
    return stopped;
}

// The debugger rebind, between the two passes (docs/MONO.md §11). A debugger client
// (Mono.Debugging.Soft: sdb, VS Code's Mono Debug) keeps types by full name and ignored the
// new generation's classes, which reached it while the old generation's were still loaded;
// their TypeLoad events are sent once per domain, at each class's first JIT. So once the old
// generation's unload is done (the client has been told, and forgot its types and re-pended
// its breakpoints), the same assembly is loaded again as a generation of its own: its classes
// are new names to the client, which binds the breakpoints to them. The pass is a plain
// reload of unchanged code (values carried directly, coroutines resumed, delegates rebound).
// The check does not block: a frame loop steps again at the next boundary.
void ReloadTransaction::State::runRebind() {
    if (!ScriptDomain::waitForUnloads(std::chrono::milliseconds(0)))
        return; // the old generation is still being unloaded
    if (rebind == RebindMode::WhileAttached && !MonoRuntime::debuggerAttached()) {
        scripts = {};
        next = ReloadStage::Done; // the debugger has gone: nothing to bind
        return;
    }
    rebinding = true;
    rebindReport = {};
    rebindReport.sequence = report.sequence;
    next = ReloadStage::Load;
}

// The rebind pass is over (done or rolled back): its report folds into the reload's. The
// reload itself committed in the first pass, so a failed rebind is a warning, not a failure.
void ReloadTransaction::State::finishRebind() {
    ReloadReport& second = rebindReport;
    rebinding = false;
    next = ReloadStage::Done;
    report.loadMs += second.loadMs;
    report.warmMs += second.warmMs;
    report.snapshotMs += second.snapshotMs;
    report.restoreMs += second.restoreMs;
    report.hooksMs += second.hooksMs;
    report.unloadMs += second.unloadMs;
    report.totalMs += second.totalMs;
    for (std::string& thread : second.stoppedThreads)
        report.stoppedThreads.push_back(std::move(thread));
    auto warn = [&](const std::string& text) {
        report.warnings.push_back("debugger rebind: " + text);
    };
    if (!second.success) {
        warn(fmt::format("loading generation {}'s code again failed in {} ({}): generation {} "
                         "runs on, and a debugger binds breakpoints to it after the next reload",
                         report.toGeneration, second.failedPhase,
                         second.errors.empty() ? std::string("?") : second.errors.front(),
                         report.toGeneration));
        return;
    }
    report.debuggerRebindFrom = report.toGeneration;
    report.toGeneration = second.toGeneration;
    for (const std::string& w : second.warnings)
        warn(w);
    // Unchanged code: every field carries and every coroutine resumes; anything else (a
    // reference to an object that went in between, say) is reported with the reload's own.
    for (FieldOutcome& f : second.fields)
        report.fields.push_back(std::move(f));
    for (const CoroutineOutcome& c : second.coroutines) {
        if (c.kind != CoroutineOutcome::Kind::Resumed)
            warn(fmt::format("coroutine {}.{} ({}) {}{}", c.className, c.method,
                             c.script.toString(), outcomeName(c.kind),
                             c.reason.empty() ? "" : " - " + c.reason));
    }
    for (const DelegateOutcome& d : second.delegates) {
        if (d.kind != DelegateOutcome::Kind::Rebound)
            warn(fmt::format("delegate {}.{} ({}) -> {} dropped{}", d.className, d.field,
                             d.script.toString(), d.target,
                             d.reason.empty() ? "" : " - " + d.reason));
    }
    for (std::string& a : second.cancelledAwaits)
        report.cancelledAwaits.push_back(std::move(a));
    for (std::string& c : second.missingClasses)
        report.missingClasses.push_back(std::move(c));
}

// The new generation (if it was made) is unloaded; the running one never noticed.
void ReloadTransaction::State::rollBack(std::string phase, std::string error) {
    ReloadReport& report = active();
    if (incoming)
        report.stoppedThreads = letGo(incoming);
    report.success = false;
    report.failedPhase = std::move(phase);
    report.errors.push_back(std::move(error));
    report.totalMs = report.loadMs + report.warmMs;
    scripts = {};
    if (rebinding) {
        finishRebind();
        return;
    }
    next = ReloadStage::Done;
}

ReloadTransaction::ReloadTransaction(ScriptHost& host, AssemblyFile scripts,
                                     std::vector<std::string> trigger, double buildMs)
    : ReloadTransaction(host, std::vector<AssemblyFile>{std::move(scripts)}, std::move(trigger),
                        buildMs) {}

ReloadTransaction::ReloadTransaction(ScriptHost& host, std::vector<AssemblyFile> scripts,
                                     std::vector<std::string> trigger, double buildMs)
    : state_(std::make_unique<State>(host, std::move(scripts))) {
    if (MonoRuntime::debuggerAttached())
        state_->rebind = RebindMode::WhileAttached;
    state_->report.sequence = host.takeReloadSequence();
    state_->report.trigger = std::move(trigger);
    state_->report.buildMs = buildMs;
}

ReloadTransaction::~ReloadTransaction() {
    if (!state_)
        return;
    if (state_->incoming) {
        spdlog::debug("reload #{} dropped before its swap: generation {} unloaded",
                      state_->report.sequence, state_->incoming->generation());
        (void)state_->incoming->unloadInBackground();
    }
    if (state_->outgoing)
        (void)state_->outgoing->unloadInBackground();
    if (state_->prepared)
        (void)state_->prepared->unloadInBackground();
}

ReloadStage ReloadTransaction::step(std::chrono::microseconds warmSlice) {
    State& s = *state_;
    const ReloadStage stage = s.next;
    if (stage == ReloadStage::Done)
        return stage;
    if (beforeStage)
        beforeStage(stage);
    switch (stage) {
    case ReloadStage::Load:
        s.runLoad();
        break;
    case ReloadStage::Reserve:
        s.runReserve();
        break;
    case ReloadStage::Warm:
        s.runWarm(warmSlice);
        break;
    case ReloadStage::Swap:
        s.runSwap();
        break;
    case ReloadStage::Unload:
        s.runUnload();
        break;
    case ReloadStage::Rebind:
        s.runRebind();
        break;
    case ReloadStage::Done:
        break;
    }
    if (afterStage)
        afterStage(stage);
    return stage;
}

ReloadReport ReloadTransaction::runToEnd() {
    while (!done()) {
        if (next() == ReloadStage::Rebind) // back to back: sleep on the unload, not spin
            (void)waitForBackgroundWork(Clock::now() + std::chrono::seconds(30));
        step();
    }
    return takeReport();
}

bool ReloadTransaction::waitForBackgroundWork(std::chrono::steady_clock::time_point until) {
    if (state_->next == ReloadStage::Rebind) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        return ScriptDomain::waitForUnloads(std::max(left, std::chrono::milliseconds(0)));
    }
    if (state_->next != ReloadStage::Warm || !state_->incoming)
        return true;
    return state_->incoming->waitForBackgroundWarm(until);
}

void ReloadTransaction::setDebuggerRebind(bool on) {
    state_->rebind = on ? RebindMode::Forced : RebindMode::Off;
}

void ReloadTransaction::usePreparedDomain(std::unique_ptr<ScriptDomain> prepared) {
    // A domain made ahead with assemblies this build rebuilt (the guess of what it would reuse
    // was wrong) cannot take the new ones: the load stage makes a fresh domain.
    if (prepared && !prepared->fits(state_->scripts)) {
        (void)prepared->unloadInBackground();
        return;
    }
    state_->prepared = std::move(prepared);
}

bool ReloadTransaction::loadsIntoPreparedDomain() const noexcept {
    return state_->prepared != nullptr && !state_->rebinding;
}

bool ReloadTransaction::debuggerRebind() const noexcept {
    return state_->rebind != RebindMode::Off;
}

ReloadStage ReloadTransaction::next() const noexcept {
    return state_->next;
}

bool ReloadTransaction::done() const noexcept {
    return state_->next == ReloadStage::Done;
}

bool ReloadTransaction::committed() const noexcept {
    return state_->committed;
}

const ReloadReport& ReloadTransaction::report() const noexcept {
    return state_->report;
}

ReloadReport ReloadTransaction::takeReport() {
    return std::move(state_->report);
}

} // namespace scripthost
