#pragma once
// Reporting an exception no one caught off the game loop: the log line and the record the
// main thread counts.

#include "host/runtime/unhandled_exception_kind.hpp"

#include <mono/metadata/object.h>
#include <string>

namespace scripthost::mono {

/// Logs `exception` (a System.Exception that escaped code off the game loop) with its
/// managed stack — "script Probe threw on a thread-pool thread (not on the game loop):
/// System.InvalidOperationException: ..." — and posts it to the runtime's
/// UnhandledExceptionMailbox for the main thread. `scriptClass` is the script it is
/// attributed to, empty when no frame was in script code. Any thread, with the
/// exception's domain current (its ToString() is managed code). Never throws.
void reportUnhandledException(UnhandledExceptionKind kind, std::string scriptClass,
                              MonoObject* exception) noexcept;

} // namespace scripthost::mono
