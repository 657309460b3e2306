#pragma once
// NativeFaultGuard: runs a call into a game module's native code so that a crash signal it
// raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL) on this thread comes back as a value instead of
// ending the process.
//
// How: a handler for the four signals, installed after Mono's, jumps back (siglongjmp) to the
// guarded call when the faulting instruction is not managed code; every other fault — a
// NullReferenceException in a script (Mono turns those faults into exceptions), a fault on a
// thread with no guarded call, a fault inside Mono itself — goes to the handler that was
// installed before (Mono's, or the default action).
//
// What is and is not safe about it (docs/ARCHITECTURE.md, "Native crash containment"): the
// jump skips the destructors of the frames it leaves and any lock the faulting code held
// stays held, so the module's state after a fault is not to be trusted. The caller must
// never run that module's code again (GameModuleHost switches all of it off and leaks its
// objects rather than destroying them). The host's own state is intact as long as the
// fault did not happen inside a host call the module made.

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace scripthost {

/// A crash signal caught by NativeFaultGuard.
struct NativeFault {
    int signal = 0;
    int code = 0;               ///< siginfo's si_code (e.g. SEGV_MAPERR)
    std::uintptr_t address = 0; ///< the faulting address (si_addr)
    std::uintptr_t pc = 0;      ///< the faulting instruction
    bool stackOverflow = false; ///< a SIGSEGV near the stack pointer (its guard page)

    /// "SIGSEGV (no memory at 0x0) in crashingSystem+0x14 (libcrash.so)".
    [[nodiscard]] std::string describe() const;
};

class NativeFaultGuard {
public:
    /// Says whether `pc` is code whose faults belong to the previous handler (Mono's JIT
    /// code). Called inside the signal handler: it must be async-signal-safe in practice.
    using ForeignCodeCheck = bool (*)(void* pc) noexcept;

    /// Installs the handlers; call it after Mono started, so that its handlers are the ones
    /// chained to. Calling it again puts ours back on top of handlers installed since (they
    /// become the ones chained to). Also gives the calling thread an alternate signal stack
    /// if it has none, so a native stack overflow is caught too.
    static void install(ForeignCodeCheck foreignCode);
    [[nodiscard]] static bool installed() noexcept;

    /// Runs `call()`; returns the fault if a crash signal ended it. Exceptions pass through.
    /// Without install(), `call` runs unguarded.
    template <class Call> [[nodiscard]] static std::optional<NativeFault> run(Call&& call) {
        using Stored = std::remove_reference_t<Call>;
        return runErased(
            [](void* c) { (*static_cast<Stored*>(c))(); },
            const_cast<void*>(static_cast<const void*>(std::addressof(call))));
    }

private:
    static std::optional<NativeFault> runErased(void (*call)(void*), void* context);
};

} // namespace scripthost
