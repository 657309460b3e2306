// Internal calls of UEngine.Debug: script log lines go to the host's "script" logger.
#include "internal_call_groups.hpp"
#include "runtime/mono_text.hpp"
#include "script_error.hpp"

#include <spdlog/spdlog.h>

namespace scripthost::glue {

namespace {
void log(std::int32_t level, MonoString* message) {
    guarded("Debug.Log", [&] {
        const auto lvl = level >= spdlog::level::trace && level <= spdlog::level::critical
                             ? static_cast<spdlog::level::level_enum>(level)
                             : spdlog::level::info;
        spdlog::log(lvl, "[script] {}", mono::toUtf8(message));
    });
}
} // namespace

void registerDebugCalls(MonoRuntime& runtime) {
    runtime.registerInternalCall("UEngine.Debug::Internal_Log",
                                 reinterpret_cast<const void*>(&log));
}

} // namespace scripthost::glue
