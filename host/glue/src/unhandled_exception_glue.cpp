// Internal call of ScriptCore's UnhandledExceptions: an exception no one caught off the
// game loop, attributed to its script. Runs on the thread it happened on (a script's
// thread, the pool, the GC's finalizer thread), never with a ScriptContext.
#include "internal_call_groups.hpp"
#include "runtime/mono_text.hpp"
#include "runtime/unhandled_exception_reporter.hpp"
#include "script_error.hpp"

namespace scripthost::glue {

namespace {

void reportUnhandled(std::int32_t kind, MonoString* script, MonoObject* exception) {
    guarded("UnhandledExceptions.ReportUnhandled", [&] {
        mono::reportUnhandledException(static_cast<mono::UnhandledExceptionKind>(kind),
                                       script == nullptr ? std::string() : mono::toUtf8(script),
                                       exception);
    });
}

} // namespace

void registerUnhandledExceptionCalls(MonoRuntime& runtime) {
    runtime.registerInternalCall("UEngine.Internal.UnhandledExceptions::Internal_ReportUnhandled",
                                 reinterpret_cast<const void*>(&reportUnhandled));
}

} // namespace scripthost::glue
