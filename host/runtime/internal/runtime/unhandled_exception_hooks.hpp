#pragma once
// The hooks that see exceptions no one catches in thread-pool work items (timer callbacks
// and async void continuations included) and in finalizers: Mono raises no event for them
// under the legacy unhandled-exception policy (docs/MONO.md).

#include "scripthost/game/error.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/image.h>

namespace scripthost::mono {

/// Creates the host's Mono profiler with an exception-leave hook on the outermost managed
/// frame of pool work (System.Threading._ThreadPoolWaitCallback.PerformWaitCallback) and
/// on every Finalize override outside corlib: an exception leaving one of them escaped
/// everything. Call instrumentation is decided when a method is compiled, so this must run
/// before the JIT starts (MonoRuntime::start). No other method is instrumented.
void installUnhandledExceptionHooks();

/// Subscribes ScriptCore's UnhandledExceptions in `domain` (a generation's domain, with
/// ScriptCore's image `scriptCore` loaded) and makes its Report method the one the hooks
/// call for exceptions in that domain, so they are attributed to a script. Main thread.
[[nodiscard]] Result<void> installUnhandledExceptionReporting(MonoDomain* domain,
                                                              MonoImage* scriptCore);

/// Forgets the Report method of `domain` (before the domain is unloaded): exceptions in it
/// are still reported, without a script. Main thread.
void forgetUnhandledExceptionReporting(MonoDomain* domain) noexcept;

} // namespace scripthost::mono
