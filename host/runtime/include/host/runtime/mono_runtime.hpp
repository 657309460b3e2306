#pragma once
// MonoRuntime: the process's one Mono runtime and its root domain.

#include "host/runtime/debugger_agent_options.hpp"
#include "scripthost/game/error.hpp"

#include <memory>
#include <optional>
#include <string>

namespace scripthost {

namespace mono {
struct RuntimeState;
/// The state the runtime keeps beside Mono, for the host's internal calls, hooks and
/// helper threads (defined in internal/runtime/runtime_state.hpp; Mono-free code never needs it).
[[nodiscard]] RuntimeState& runtimeState() noexcept;
} // namespace mono

/// The embedded Mono runtime. Mono can start only once per process (a second start
/// after cleanup crashes it), so this is a process-wide object: start() starts it the
/// first time and returns the running one after that; shutdown() ends it for good.
/// Start-up follows docs/MONO.md: preemptive thread suspend (hybrid suspend aborts the
/// process on domain unload), config, debug symbols, JIT. The engine API's internal calls
/// are registered by whoever puts the host together (they are registered once and serve
/// every later app domain); the runtime itself knows none of them.
class MonoRuntime {
public:
    struct Options {
        std::string rootDomainName = "scripthost";
        /// Mono's soft debugger agent, started with the runtime (it cannot be added later).
        std::optional<DebuggerAgentOptions> debugger;
    };

    /// Starts the runtime, or returns the running one. Fails after shutdown().
    [[nodiscard]] static Result<MonoRuntime*> start(const Options& options);
    [[nodiscard]] static Result<MonoRuntime*> start() { return start(Options{}); }

    /// The running runtime, or nullptr.
    [[nodiscard]] static MonoRuntime* running() noexcept;

    /// Whether the runtime was started with the debugger agent (Options::debugger).
    [[nodiscard]] static bool debuggerEnabled() noexcept;
    /// Whether a debugger client is connected to the agent now (Mono sets this once the
    /// agent's handshake with a client is done and clears it when the client goes). Any
    /// thread.
    [[nodiscard]] static bool debuggerAttached() noexcept;

    /// Cleans Mono up. Call at most once, at process end, with no ScriptDomain alive.
    static void shutdown() noexcept;

    /// Registers an internal call, e.g. ("Game.Native::Jump(single)", &jump). Internal
    /// calls survive every reload; register them before the first domain uses them.
    void registerInternalCall(const std::string& name, const void* function);

    /// Registers an internal call that Mono calls without its thread-state transition (Mono's
    /// "raw" internal calls, docs/MONO.md §6): about half the cost of one call. Only for
    /// functions that finish in bounded time, never block or take a lock, and call no managed
    /// code except through Mono's embedding API (raising a managed exception is fine).
    void registerRawInternalCall(const std::string& name, const void* function);

    /// "6.8.0.105 (Debian …)".
    [[nodiscard]] std::string version() const;

    MonoRuntime(const MonoRuntime&) = delete;
    MonoRuntime& operator=(const MonoRuntime&) = delete;

private:
    MonoRuntime();
    ~MonoRuntime(); // never runs: the runtime lives until the process ends
    static MonoRuntime& instance();
    friend mono::RuntimeState& mono::runtimeState() noexcept;

    /// Everything the runtime keeps beside Mono: the registry of live domains, the
    /// unloader, the finalized-proxy mailbox, the running watchdog.
    std::unique_ptr<mono::RuntimeState> state_;
};

} // namespace scripthost
