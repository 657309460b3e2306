#pragma once
// MonoRuntime: the process's one Mono runtime and its root domain.

#include "host/error.hpp"

#include <string>

namespace scripthost {

/// The embedded Mono runtime. Mono can start only once per process (a second start
/// after cleanup crashes it), so this is a process-wide object: start() starts it the
/// first time and returns the running one after that; shutdown() ends it for good.
/// Start-up follows MONO-NOTES: preemptive thread suspend (hybrid suspend aborts the
/// process on domain unload), config, debug symbols, JIT, then the engine API's
/// internal calls — which are registered once and serve every later app domain.
class MonoRuntime {
public:
    struct Options {
        std::string rootDomainName = "scripthost";
    };

    /// Starts the runtime, or returns the running one. Fails after shutdown().
    [[nodiscard]] static Result<MonoRuntime*> start(const Options& options);
    [[nodiscard]] static Result<MonoRuntime*> start() { return start(Options{}); }

    /// The running runtime, or nullptr.
    [[nodiscard]] static MonoRuntime* running() noexcept;

    /// Cleans Mono up. Call at most once, at process end, with no ScriptDomain alive.
    static void shutdown() noexcept;

    /// Registers an internal call, e.g. ("Game.Native::Jump(single)", &jump). Internal
    /// calls survive every reload; register them before the first domain uses them.
    void registerInternalCall(const std::string& name, const void* function);

    /// "6.8.0.105 (Debian …)".
    [[nodiscard]] std::string version() const;

    MonoRuntime(const MonoRuntime&) = delete;
    MonoRuntime& operator=(const MonoRuntime&) = delete;

private:
    MonoRuntime() = default;
    static MonoRuntime& instance();
};

} // namespace scripthost
