#pragma once
// Registration of ScriptCore's internal calls (the C++ side of the engine API).

#include "host/mono_runtime.hpp"

#include <mono/metadata/object.h>

namespace scripthost::glue {

void registerObjectCalls(MonoRuntime& runtime);
void registerTransformCalls(MonoRuntime& runtime);
void registerEntityCalls(MonoRuntime& runtime);
void registerInputCalls(MonoRuntime& runtime);
void registerDebugCalls(MonoRuntime& runtime);
void registerScriptRuntimeCalls(MonoRuntime& runtime);
void registerApplicationCalls(MonoRuntime& runtime);

/// Registers every internal call ScriptCore declares. Once per process.
inline void registerCoreInternalCalls(MonoRuntime& runtime) {
    registerObjectCalls(runtime);
    registerTransformCalls(runtime);
    registerEntityCalls(runtime);
    registerInputCalls(runtime);
    registerDebugCalls(runtime);
    registerScriptRuntimeCalls(runtime);
    registerApplicationCalls(runtime);
}

} // namespace scripthost::glue
