// Internal calls of UEngine.Application: what scripts may ask about the host.
#include "glue/glue_access.hpp"
#include "glue/internal_call_groups.hpp"
#include "host/script_engine.hpp"
#include "mono/mono_text.hpp"

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
