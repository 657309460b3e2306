#pragma once
// Whether JIT-compiling a method can run a static constructor on the compiling thread.
//
// Mono's JIT runs the static constructor of a `beforefieldinit` class (a class with static
// field initializers and no explicit static constructor) while it compiles a method that reads
// or writes one of that class's static fields, on the thread that compiles (measured:
// docs/MONO.md §21). Calls, `new`, helpers the JIT inlines and classes with an explicit static
// constructor do not: their constructors run when the code first runs. So a script method
// may be compiled off the main thread only when its IL touches no static field of such a
// class outside corlib.

#include <mono/metadata/object.h>

namespace scripthost::mono {

/// True when compiling `method` may run a static constructor other than corlib's: its IL
/// reads, writes or takes the address of a static field of a `beforefieldinit` class with a
/// static constructor. Also true when the IL cannot be read or a field token cannot be
/// resolved (the safe answer). False for a method without IL (abstract, internal call).
[[nodiscard]] bool compilingMayRunStaticConstructor(MonoMethod* method);

} // namespace scripthost::mono
