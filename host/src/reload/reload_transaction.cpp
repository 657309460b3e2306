// ReloadTransaction: the stages of one reload and the state they share.
#include "host/reload_transaction.hpp"

#include "host/script_domain.hpp"
#include "host/script_host.hpp"
#include "reload/generation_swap.hpp"

#include <chrono>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace {

using Clock = std::chrono::steady_clock;

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
    case ReloadStage::Done:
        return "done";
    }
    return "?";
}

/// Everything one reload holds between its stages.
struct ReloadTransaction::State {
    ScriptHost& host;
    AssemblyFile scripts; // released once loaded
    ReloadStage next = ReloadStage::Load;
    ReloadReport report;
    std::unique_ptr<ScriptDomain> incoming; // loaded, not yet adopted (rolled back if dropped)
    std::unique_ptr<ScriptDomain> outgoing; // swapped out, not yet let go of
    std::size_t slotCount = 0;              // slots at load time: the new dispatcher's size
    bool committed = false;

    State(ScriptHost& h, AssemblyFile s) : host(h), scripts(std::move(s)) {}

    void runLoad();
    void runReserve();
    void runWarm(std::chrono::microseconds slice);
    void runSwap();
    void runUnload();
    void rollBack(std::string phase, std::string error);
};

// Stage 1: the new domain, ScriptCore and the scripts, and — now rather than in the swap's
// frame — the carry plan of every class and the proxies today's references will need. (The
// swap re-checks all of it: whatever changed in between is still carried.)
void ReloadTransaction::State::runLoad() {
    const auto started = Clock::now();
    report.fromGeneration = host.domain() ? host.domain()->generation() : 0;
    auto created =
        ScriptDomain::create(host.takeGenerationNumber(), host.scriptCore(), scripts, host.world());
    scripts = {};
    if (!created) {
        report.loadMs = msSince(started);
        rollBack("load", created.error().message);
        return;
    }
    incoming = std::move(*created);
    report.toGeneration = incoming->generation();
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
    report.warmMs += msSince(started);
    if (warmed)
        next = ReloadStage::Reserve;
}

// Stage 3: the new dispatcher's maps sized for today's scripts. After the warm-up, which
// compiled the collections' code in slices, so its frame pays for little more than the
// dispatcher's static constructor.
void ReloadTransaction::State::runReserve() {
    const auto started = Clock::now();
    incoming->reserve(slotCount);
    report.warmMs += msSince(started);
    next = ReloadStage::Swap;
}

// Stage 4: snapshot, instantiate, restore, hooks, commit — or roll back.
void ReloadTransaction::State::runSwap() {
    const auto started = Clock::now();
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
    report.totalMs = report.loadMs + report.warmMs + msSince(started);
}

// Stage 5: the main thread only lets go of the old generation (its handles and cached
// pointers); Mono's unload runs on the unloader thread while the loop goes on. Earlier
// background unloads that failed are reported here.
void ReloadTransaction::State::runUnload() {
    const auto started = Clock::now();
    if (outgoing) {
        report.stoppedThreads = outgoing->unloadInBackground();
        outgoing.reset();
    }
    for (std::string& failure : ScriptDomain::takeUnloadFailures())
        report.warnings.push_back(std::move(failure));
    report.unloadMs = msSince(started);
    report.totalMs += report.unloadMs;
    next = ReloadStage::Done;
}

// The new generation (if it was made) is unloaded; the running one never noticed.
void ReloadTransaction::State::rollBack(std::string phase, std::string error) {
    if (incoming) {
        report.stoppedThreads = incoming->unloadInBackground();
        incoming.reset();
    }
    report.success = false;
    report.failedPhase = std::move(phase);
    report.errors.push_back(std::move(error));
    report.totalMs = report.loadMs + report.warmMs;
    next = ReloadStage::Done;
}

ReloadTransaction::ReloadTransaction(ScriptHost& host, AssemblyFile scripts,
                                     std::vector<std::string> trigger, double buildMs)
    : state_(std::make_unique<State>(host, std::move(scripts))) {
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
    case ReloadStage::Done:
        break;
    }
    if (afterStage)
        afterStage(stage);
    return stage;
}

ReloadReport ReloadTransaction::runToEnd() {
    while (!done())
        step();
    return takeReport();
}

bool ReloadTransaction::waitForBackgroundWork(std::chrono::steady_clock::time_point until) {
    if (state_->next != ReloadStage::Warm || !state_->incoming)
        return true;
    return state_->incoming->waitForBackgroundWarm(until);
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
