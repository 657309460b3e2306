#pragma once
// RuntimeState: everything the process's one Mono runtime keeps beside Mono itself.

#include "host/runtime/script_watchdog.hpp"
#include "host/runtime/unhandled_exception_mailbox.hpp"
#include "runtime/domain_registry.hpp"
#include "runtime/domain_unloader.hpp"
#include "runtime/finalized_proxy_mailbox.hpp"
#include "runtime/jit_profile.hpp"
#include "runtime/root_domain_worker.hpp"
#include "runtime/script_threads.hpp"
#include "runtime/shared_script_core.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mono/metadata/appdomain.h>

namespace scripthost::mono {

/// Internal calls, Mono's hooks and the runtime's helper threads are plain functions
/// with no object of their own, so they need one place to find shared state: this one,
/// owned by the MonoRuntime (which lives until the process ends) and reached through
/// runtimeState(). Each member says which threads touch it.
struct RuntimeState {
    enum class Lifecycle { NotStarted, Running, ShutDown };

    /// Main thread (MonoRuntime::start / shutdown / running).
    Lifecycle lifecycle = Lifecycle::NotStarted;
    /// Whether start() loaded the debugger agent. Written once by start(), then read-only.
    bool debuggerAgent = false;
    /// Written once by start() before any helper thread exists, then read by every
    /// thread (the unloader and the watchdog attach to it); cleared by shutdown().
    MonoDomain* root = nullptr;
    /// Main thread only.
    DomainRegistry domains;
    /// ScriptCore's one image for every generation. Main thread only.
    SharedScriptCore scriptCore;
    /// The GC's finalizer thread posts, the main thread takes (its own lock).
    FinalizedProxyMailbox finalizedProxies;
    /// Any thread an unhandled exception happens on posts, the main thread takes (its own
    /// lock).
    UnhandledExceptionMailbox unhandledExceptions;
    /// The main thread submits and waits, the unloader's own thread unloads (its own lock).
    DomainUnloader unloader;
    /// A reload's background warm-up (ScriptDomain::warmUp): the main thread submits, the
    /// worker's own thread runs them (its own lock).
    RootDomainWorker warmUpWorker;
    /// What the generations had JIT-compiled of corlib and ScriptCore: Mono's JIT events
    /// record it on whatever thread compiles, a prepared domain's warm-up reads it (its own
    /// lock).
    JitProfile jitProfile;
    /// Threads script code started: Mono's profiler callbacks record them on their own
    /// threads, unloads stop them (its own lock).
    ScriptThreads threads;
    /// The running watchdog, or null: set and cleared by the main thread
    /// (ScriptWatchdog::start / destructor), read by the main thread's scopes.
    std::atomic<ScriptWatchdog::Impl*> watchdog{nullptr};
    /// App domains created and not yet released (leak checks). Main thread; atomic so a
    /// leak check may read it from anywhere.
    std::atomic<std::size_t> liveDomains{0};
    /// Gives every app domain a name no other domain of this process ever had (image
    /// names are a process-wide cache). Main thread.
    std::atomic<std::uint64_t> domainSerial{0};
};

/// The running process's RuntimeState (never destroyed). Any thread.
[[nodiscard]] RuntimeState& runtimeState() noexcept;

} // namespace scripthost::mono
