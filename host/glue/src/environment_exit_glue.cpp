// System.Environment.Exit and FailFast, replaced for the whole process: a script that reaches
// them — directly, through reflection, through a delegate — gets an InvalidOperationException
// instead of ending the host. Both are internal calls in Mono's corlib, and an internal call
// registered after mono_jit_init is found before corlib's own (docs/MONO.md §14). The build's
// forbidden-calls scan still refuses a direct call at load; this catches what it cannot see.
#include "internal_call_groups.hpp"
#include "runtime/mono_text.hpp"
#include "script_error.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace scripthost::glue {

namespace {

constexpr const char* kHowToStop = "scripts cannot end the host (stop it from outside: scriptctl "
                                   "stop, SIGTERM)";

void refuseExit(std::int32_t exitCode) {
    const std::string message =
        fmt::format("Environment.Exit({}) is refused: {}", exitCode, kHowToStop);
    spdlog::warn("{}", message);
    raiseManaged(ManagedError::InvalidOperation, message);
}

// corlib's internal FailFast(string message, Exception exception, string errorSource), which
// every public overload calls.
void refuseFailFast(MonoString* message, MonoObject* /*exception*/, MonoString* /*source*/) {
    const std::string text = fmt::format("Environment.FailFast(\"{}\") is refused: {}",
                                         message ? mono::toUtf8(message) : "", kHowToStop);
    spdlog::warn("{}", text);
    raiseManaged(ManagedError::InvalidOperation, text);
}

} // namespace

void registerEnvironmentExitCalls(MonoRuntime& runtime) {
    runtime.registerInternalCall("System.Environment::Exit",
                                 reinterpret_cast<const void*>(&refuseExit));
    runtime.registerInternalCall("System.Environment::FailFast",
                                 reinterpret_cast<const void*>(&refuseFailFast));
}

} // namespace scripthost::glue
