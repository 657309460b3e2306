#include "host/glue/engine_internal_calls.hpp"

#include "internal_call_groups.hpp"

#include <mutex>

namespace scripthost::glue {

void registerEngineInternalCalls(MonoRuntime& runtime) {
    // Once per process, like the runtime: the registrations outlive every host and domain.
    static std::once_flag registered;
    std::call_once(registered, [&runtime] {
        registerObjectCalls(runtime);
        registerTransformCalls(runtime);
        registerHierarchyCalls(runtime);
        registerSceneCalls(runtime);
        registerEntityCalls(runtime);
        registerInputCalls(runtime);
        registerDebugCalls(runtime);
        registerScriptRuntimeCalls(runtime);
        registerApplicationCalls(runtime);
        registerUnhandledExceptionCalls(runtime);
        registerNativeScriptCalls(runtime);
        registerEnvironmentExitCalls(runtime);
        installModuleCallBridge();
    });
}

} // namespace scripthost::glue
