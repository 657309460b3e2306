#pragma once
// Registering the engine API's internal calls: done by whoever puts the host together,
// so the runtime itself knows nothing of the engine API.

#include "host/runtime/mono_runtime.hpp"

namespace scripthost::glue {

/// Registers every internal call ScriptCore declares with the running `runtime`. Internal
/// calls are registered once per process and serve every later app domain: calls after
/// the first do nothing. Main thread, before the first domain uses them.
void registerEngineInternalCalls(MonoRuntime& runtime);

} // namespace scripthost::glue
