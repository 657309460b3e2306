#pragma once
// ReloadTransaction: one hot reload, from a built scripts assembly to the unload of the
// generation it replaces — the only reload pipeline there is.

#include "host/model/assembly_file.hpp"
#include "host/model/reload_report.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

class ScriptDomain;
class ScriptHost;

/// The stages of a reload, in order. Each runs between two frames; a frame loop runs one
/// per frame boundary (the warm stage as many times as it needs) so that no frame pays for
/// the whole reload, and "reload now" runs them back to back. Load, Warm, Reserve and Swap
/// can fail: the new generation is then unloaded and the old one keeps running (rollback).
///
/// The debugger rebind (only while a debugger client is attached, docs/MONO.md §11): after
/// Unload, Rebind waits (one check per step) until the old generation's unload is done, then
/// Load, Warm, Reserve, Swap and Unload run once more with the same assembly — a second new
/// generation whose classes reach the debugger after the old ones are gone, so breakpoints
/// bind to it. A failure in that pass leaves the first new generation running.
enum class ReloadStage {
    Load,    ///< a new app domain beside the running one; ScriptCore + the scripts from bytes
    Warm,    ///< JIT the dispatcher and every script's constructor and messages, in slices
    Reserve, ///< size the new dispatcher for today's scripts (its code JIT-compiled by Warm)
    Swap,    ///< snapshot, instantiate, restore by the migration rules, hooks, commit
    Unload,  ///< let go of the old generation; Mono unloads it on the unloader thread
    Rebind,  ///< debugger rebind only: wait for that unload, then the stages again, same code
    Done,    ///< nothing left: report() is final
};

/// "load", "reserve", "warm", "swap", "unload", "rebind", "done".
[[nodiscard]] std::string_view stageName(ReloadStage stage) noexcept;

/// One reload as a transaction. It owns every piece of state the reload has — the new
/// generation until it is adopted, the old one until it is let go, the staged parked state,
/// its report and its sequence number — and nothing of it leaks into the host until the
/// swap commits. Main thread only, between frames, never from inside a script call.
///
///     ReloadTransaction reload(host, assembly, {"Player.cs"});
///     while (!reload.done()) { reload.step(2ms); host.tick(dt); }   // a frame loop
///     ReloadReport report = ReloadTransaction(host, assembly).runToEnd(); // all at once
class ReloadTransaction {
public:
    /// Prepares a reload of `host` to `scripts`; nothing runs until step(). Takes the
    /// host's next reload sequence number. `buildMs` is what the build took (reported).
    /// The debugger rebind is on when a debugger client is attached now
    /// (MonoRuntime::debuggerAttached()).
    ReloadTransaction(ScriptHost& host, AssemblyFile scripts, std::vector<std::string> trigger = {},
                      double buildMs = 0);
    /// The same with several scripts assemblies (assemblies by folder), in dependency order.
    ReloadTransaction(ScriptHost& host, std::vector<AssemblyFile> scripts,
                      std::vector<std::string> trigger = {}, double buildMs = 0);
    /// A transaction dropped before it is done rolls back (the new generation, if any, is
    /// unloaded); one dropped after its swap still lets go of the old generation.
    ~ReloadTransaction();
    ReloadTransaction(const ReloadTransaction&) = delete;
    ReloadTransaction& operator=(const ReloadTransaction&) = delete;

    /// Runs the next stage; the warm stage stops once it has spent `warmSlice` and runs
    /// again on the next call until everything is compiled. Returns the stage it ran (Done
    /// when there was nothing left). Never throws; a failure is in the report.
    ReloadStage step(std::chrono::microseconds warmSlice = std::chrono::microseconds::max());
    /// Runs every remaining stage now, with no frames between, and returns the report.
    [[nodiscard]] ReloadReport runToEnd();

    /// The stage the next step() runs.
    [[nodiscard]] ReloadStage next() const noexcept;
    /// Turns the debugger rebind on or off (tests; by default it follows whether a debugger
    /// is attached when the transaction is made). Before the first step only. Rebind still
    /// skips its second pass when it is on by default and the debugger has gone meanwhile.
    void setDebuggerRebind(bool on);
    /// Loads the scripts into `prepared` (made by ScriptDomain::prepare, no scripts yet)
    /// instead of creating a domain in the load stage. Before the first step only. (A
    /// debugger rebind's second pass still creates its own.)
    /// A domain that loaded ahead an assembly this build replaced does not fit: it is unloaded
    /// in the background, and the load stage makes a fresh one.
    void usePreparedDomain(std::unique_ptr<ScriptDomain> prepared);
    /// Whether the load stage (still to run) loads into the domain usePreparedDomain gave.
    [[nodiscard]] bool loadsIntoPreparedDomain() const noexcept;
    [[nodiscard]] bool debuggerRebind() const noexcept;
    /// In the warm stage: sleeps until the new generation's background warm-up is done or
    /// `until` (ScriptDomain::waitForBackgroundWarm); in the rebind stage, until the old
    /// generation's unload is done. True when nothing is left to wait for.
    bool waitForBackgroundWork(std::chrono::steady_clock::time_point until);
    [[nodiscard]] bool done() const noexcept;
    /// Whether the reload has committed (swapped) — it can no longer roll back. (A failing
    /// debugger rebind pass after that only unloads its own generation.)
    [[nodiscard]] bool committed() const noexcept;
    /// The report so far; final once done().
    [[nodiscard]] const ReloadReport& report() const noexcept;
    /// Moves the report out (call once done()).
    [[nodiscard]] ReloadReport takeReport();

    /// Called right before and right after each stage runs (smoke mode compares the world
    /// before and after the swap through these; a test can watch the stages).
    std::function<void(ReloadStage)> beforeStage;
    std::function<void(ReloadStage)> afterStage;

    struct State;

private:
    std::unique_ptr<State> state_;
};

} // namespace scripthost
