#include "host/runtime/mono_runtime.hpp"
#include "host/safety/native_fault_guard.hpp"

#include "mono_owned_code.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/unhandled_exception_hooks.hpp"

#include <cstdlib>
#include <mono/jit/jit.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/mono-config.h>
#include <mono/metadata/mono-debug.h>
#include <mono/metadata/threads.h>
#include <spdlog/spdlog.h>
#include <string_view>

namespace scripthost {

namespace {

// Resolves a reference by name to an assembly already loaded into the current domain
// (docs/MONO.md: a safety net beside loading ScriptCore first). Runs where assemblies are
// loaded: the main thread.
MonoAssembly* preloadHook(MonoAssemblyName* name, char** /*paths*/, void* /*user*/) {
    const char* wanted = mono_assembly_name_get_name(name);
    if (wanted == nullptr)
        return nullptr;
    return mono::runtimeState().domains.findAssembly(mono_domain_get(), wanted);
}

// Loads Mono's soft debugger agent (docs/MONO.md §11): options parsed before the JIT starts,
// soft breakpoints (checks at sequence points instead of patched code and signals, which the
// agent needs to step and break reliably in embedded code). The strings must outlive Mono's
// parse, which may keep pointers into them: static storage.
void loadDebuggerAgent(const DebuggerAgentOptions& debugger) {
    static std::string agent;
    static std::string softBreakpoints = "--soft-breakpoints";
    agent = debugger.agentArgument();
    static char* arguments[2];
    arguments[0] = agent.data();
    arguments[1] = softBreakpoints.data();
    mono_jit_parse_options(2, arguments);
}

// Adds "no-gdb-backtrace" to MONO_DEBUG, unless it already mentions gdb (a developer who asked
// for Mono's gdb options keeps them).
void skipGdbCrashDump() {
    const char* current = std::getenv("MONO_DEBUG");
    std::string value = current != nullptr ? current : "";
    if (value.find("gdb") != std::string::npos)
        return;
    value += value.empty() ? "no-gdb-backtrace" : ",no-gdb-backtrace";
    setenv("MONO_DEBUG", value.c_str(), 1);
}

} // namespace

mono::RuntimeState& mono::runtimeState() noexcept {
    return *MonoRuntime::instance().state_;
}

MonoRuntime::MonoRuntime() : state_(std::make_unique<mono::RuntimeState>()) {}
MonoRuntime::~MonoRuntime() = default;

MonoRuntime& MonoRuntime::instance() {
    // Never destroyed: Mono must not be cleaned up by a static destructor at exit.
    static MonoRuntime* runtime = new MonoRuntime();
    return *runtime;
}

Result<MonoRuntime*> MonoRuntime::start(const Options& options) {
    mono::RuntimeState& state = *instance().state_;
    using Lifecycle = mono::RuntimeState::Lifecycle;
    if (state.lifecycle == Lifecycle::Running) {
        return &instance();
    }
    if (state.lifecycle == Lifecycle::ShutDown) {
        return fail("the Mono runtime was shut down and cannot start again in this process");
    }
    // Preemptive suspend: hybrid (Debian's default) aborts the process in
    // mono_domain_try_unload and makes every transition several times slower.
    setenv("MONO_THREADS_SUSPEND", "preemptive", 0);
    // A native crash: Mono's handler prints the native and managed stacks and writes
    // mono_crash.*.json, then, where gdb is installed, attaches it for a full thread dump — ~6 s
    // on the 2-core machine, during which the supervisor cannot restart the host (docs/MONO.md
    // §16). Left out unless MONO_DEBUG already says something about gdb.
    skipGdbCrashDump();
    mono_config_parse(nullptr);
    // The legacy unhandled-exception policy: an exception nothing catches on a thread a
    // script started, in a thread-pool work item or in a finalizer no longer ends the
    // process (Mono's default is .NET 2's "terminate"). Threads a script started still raise
    // AppDomain.UnhandledException, which ScriptCore's UnhandledExceptions reports. Only a config
    // read before the JIT starts sets it; the embedding API that would
    // (mono_runtime_unhandled_exception_policy_set) is not exported by Debian's library. See
    // docs/MONO.md.
    mono_config_parse_memory("<configuration><runtime>"
                             "<legacyUnhandledExceptionPolicy enabled=\"1\"/>"
                             "</runtime></configuration>");
    // The policy swallows exceptions in pool work items and finalizers without a trace:
    // these hooks report them. Before the JIT starts: instrumentation is decided per method
    // as it is compiled.
    mono::installUnhandledExceptionHooks();
    if (options.debugger) {
        loadDebuggerAgent(*options.debugger);
        state.debuggerAgent = true;
        spdlog::info("debugger agent {} (Mono soft debugger; the game runs until a client "
                     "breaks)",
                     options.debugger->describe());
    }
    // Before the JIT starts, so stack traces carry file:line from the .mdb files (the
    // debugger agent's options may have turned it on already).
    if (!mono_debug_enabled())
        mono_debug_init(MONO_DEBUG_FORMAT_MONO);
    state.root = mono_jit_init_version(options.rootDomainName.c_str(), "v4.0.30319");
    if (state.root == nullptr) {
        return fail("mono_jit_init_version failed: is the Mono runtime (mono-runtime) installed?");
    }
    mono_install_assembly_preload_hook(&preloadHook, nullptr);
    state.threads.install(state.root);
    state.jitProfile.install();
    // After the JIT installed its signal handlers: a crash in a game module's native code
    // comes back to its guarded call; faults in managed code or in Mono still go to Mono.
    mono::rememberMonoLibrary();
    NativeFaultGuard::install(&mono::isMonoOwnedCode);
    state.lifecycle = Lifecycle::Running;
    spdlog::debug("Mono {} started", instance().version());
    return &instance();
}

MonoRuntime* MonoRuntime::running() noexcept {
    return instance().state_->lifecycle == mono::RuntimeState::Lifecycle::Running ? &instance()
                                                                                  : nullptr;
}

bool MonoRuntime::debuggerEnabled() noexcept {
    return instance().state_->debuggerAgent;
}

bool MonoRuntime::debuggerAttached() noexcept {
    return instance().state_->debuggerAgent && mono_is_debugger_attached() != 0;
}

void MonoRuntime::shutdown() noexcept {
    mono::RuntimeState& state = *instance().state_;
    if (state.lifecycle != mono::RuntimeState::Lifecycle::Running) {
        return;
    }
    state.warmUpWorker.stop(); // neither thread may outlive the runtime
    state.unloader.stop();
    if (const std::size_t stuck = state.threads.unstoppable(); stuck > 0) {
        // mono_jit_cleanup waits for every foreground thread: it would wait forever.
        spdlog::warn("{} script thread(s) would not stop; the runtime is left as it is at exit",
                     stuck);
        state.root = nullptr;
        state.lifecycle = mono::RuntimeState::Lifecycle::ShutDown;
        return;
    }
    mono_jit_cleanup(state.root);
    state.root = nullptr;
    state.lifecycle = mono::RuntimeState::Lifecycle::ShutDown;
}

void MonoRuntime::registerInternalCall(const std::string& name, const void* function) {
    mono_add_internal_call(name.c_str(), function);
}

void MonoRuntime::registerRawInternalCall(const std::string& name, const void* function) {
    // Public in Mono 6.8's loader.h: registered "cooperative", so the managed-to-native
    // wrapper skips mono_threads_enter/exit_gc_safe_region_unbalanced around the call.
    mono_dangerous_add_raw_internal_call(name.c_str(), function);
}

std::string MonoRuntime::version() const {
    char* info = mono_get_runtime_build_info();
    std::string text = info ? info : "unknown";
    mono_free(info);
    return text;
}

} // namespace scripthost
