#pragma once
// The engine API's internal calls, one registration function per ScriptCore class group
// (the C++ side of the engine API). registerEngineInternalCalls runs them all.

#include "host/runtime/mono_runtime.hpp"

#include <mono/metadata/object.h>

namespace scripthost::glue {

void registerObjectCalls(MonoRuntime& runtime);
void registerTransformCalls(MonoRuntime& runtime);
void registerHierarchyCalls(MonoRuntime& runtime);
void registerSceneCalls(MonoRuntime& runtime);
void registerEntityCalls(MonoRuntime& runtime);
void registerInputCalls(MonoRuntime& runtime);
void registerDebugCalls(MonoRuntime& runtime);
void registerScriptRuntimeCalls(MonoRuntime& runtime);
void registerApplicationCalls(MonoRuntime& runtime);
void registerUnhandledExceptionCalls(MonoRuntime& runtime);
void registerNativeScriptCalls(MonoRuntime& runtime);
/// corlib's Environment.Exit and FailFast, replaced: they throw in the script instead.
void registerEnvironmentExitCalls(MonoRuntime& runtime);
/// Sets the bridge game modules' internal call thunks call (ModuleCallIndex::bridge).
void installModuleCallBridge();

} // namespace scripthost::glue
