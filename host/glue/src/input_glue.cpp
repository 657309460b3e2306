// Internal calls of UEngine.UInputSystem.
#include "glue_access.hpp"
#include "internal_call_groups.hpp"
#include "runtime/mono_text.hpp"

namespace scripthost::glue {

namespace {
float getActionState(MonoString* action) {
    return guarded("UInputSystem.GetActionState", [&]() -> float {
        if (action == nullptr)
            throw ScriptError(ManagedError::ArgumentNull, "action");
        const ScriptContext& c = context();
        return c.input ? c.input->get(mono::toUtf8(action)) : 0.0f;
    });
}
} // namespace

void registerInputCalls(MonoRuntime& runtime) {
    runtime.registerInternalCall("UEngine.UInputSystem::Internal_GetActionState",
                                 reinterpret_cast<const void*>(&getActionState));
}

} // namespace scripthost::glue
