#include "runtime/unhandled_exception_reporter.hpp"

#include "runtime/managed_exception.hpp"
#include "runtime/runtime_state.hpp"

#include <spdlog/spdlog.h>
#include <string_view>
#include <utility>

namespace scripthost::mono {

namespace {

// What glue_access.hpp's context() says when the engine API is called off the loop.
constexpr std::string_view kOffLoopEngineCall = "outside the host's game loop";

} // namespace

void reportUnhandledException(UnhandledExceptionKind kind, std::string scriptClass,
                              MonoObject* exception) noexcept {
    try {
        const ManagedException described = describeException(exception);
        const std::string who = scriptClass.empty() ? "script code" : "script " + scriptClass;
        const bool engineOffLoop = described.message.find(kOffLoopEngineCall) != std::string::npos;
        spdlog::error("{} threw {}: {}{}", who, whereText(kind), described.text,
                      engineOffLoop ? "\n  hint: the engine API works on the game loop only: "
                                      "use await on the game loop, not Task.Run or a thread, "
                                      "to touch the engine"
                                    : "");
        UnhandledExceptionRecord record;
        record.kind = kind;
        record.scriptClass = std::move(scriptClass);
        record.exceptionType = described.type;
        record.message = described.message;
        record.text = described.text;
        runtimeState().unhandledExceptions.post(std::move(record));
    } catch (...) {
        // Out of memory, or a logger that threw: nothing more can be said from here.
    }
}

} // namespace scripthost::mono
