#pragma once
// Which instructions belong to Mono: its JIT's code and its own library. A crash signal
// raised there is Mono's to handle (a NullReferenceException in a script, a stack overflow
// in managed code, a runtime bug); NativeFaultGuard passes those on.

namespace scripthost::mono {

/// Remembers where Mono's library lies in memory; call once after the JIT started.
void rememberMonoLibrary();

/// Whether `pc` is managed code (any domain's JIT'd methods, wrappers, trampolines) or in
/// Mono's library. Used inside a signal handler: reads only, takes no lock of ours.
[[nodiscard]] bool isMonoOwnedCode(void* pc) noexcept;

} // namespace scripthost::mono
