// Internal calls of UEngine.Application: what scripts may ask about the host.
#include "glue_access.hpp"
#include "host/engine/script_engine.hpp"
#include "internal_call_groups.hpp"
#include "runtime/mono_text.hpp"

#include <mono/metadata/appdomain.h>

namespace scripthost::glue {

namespace {
MonoString* gameModule() {
    return guarded("Application.gameModule", [&]() -> MonoString* {
        const ScriptEngine* engine = context().engine;
        auto text = mono::newString(mono_domain_get(),
                                    engine ? engine->gameModuleName() : std::string_view());
        if (!text)
            throw ScriptError(ManagedError::InvalidOperation, text.error().message);
        return *text;
    });
}
} // namespace

void registerApplicationCalls(MonoRuntime& runtime) {
    runtime.registerInternalCall("UEngine.Application::Internal_GetGameModule",
                                 reinterpret_cast<const void*>(&gameModule));
}

} // namespace scripthost::glue
