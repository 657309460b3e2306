// Internal calls of UEngine.Application: what scripts may ask about the host.
#include "glue/core_internal_calls.hpp"
#include "glue/glue_access.hpp"
#include "host/script_host.hpp"
#include "mono/mono_text.hpp"

#include <mono/metadata/appdomain.h>

namespace scripthost::glue {

namespace {
MonoString* gameModule() {
    return guarded("Application.gameModule", [&]() -> MonoString* {
        const ScriptHost* host = context().host;
        auto text =
            mono::newString(mono_domain_get(), host ? host->gameModuleName() : std::string());
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
