// Internal calls of UEngine.UInputSystem and UEngine.Input.
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
// Unity's Input: the action's value now and at the end of the last frame, and whether it was
// ever set.
float getInput(MonoString* action, float* previous, MonoBoolean* known) {
    return guarded("Input", [&]() -> float {
        if (action == nullptr)
            throw ScriptError(ManagedError::ArgumentNull, "action");
        const ScriptContext& c = context();
        const InputState::Reading reading =
            c.input ? c.input->read(mono::toUtf8(action)) : InputState::Reading{};
        *previous = reading.previous;
        *known = reading.known ? 1 : 0;
        return reading.value;
    });
}
} // namespace

void registerInputCalls(MonoRuntime& runtime) {
    runtime.registerInternalCall("UEngine.UInputSystem::Internal_GetActionState",
                                 reinterpret_cast<const void*>(&getActionState));
    runtime.registerInternalCall("UEngine.Input::Internal_GetInput",
                                 reinterpret_cast<const void*>(&getInput));
}

} // namespace scripthost::glue
