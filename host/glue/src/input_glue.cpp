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
// Unity's Input asks for an action's number once (per name and generation), then reads by it:
// no string crosses the boundary on the per-frame path.
std::int32_t inputHandle(MonoString* action) {
    return guarded("Input", [&]() -> std::int32_t {
        if (action == nullptr)
            throw ScriptError(ManagedError::ArgumentNull, "action");
        const ScriptContext& c = context();
        if (c.input == nullptr)
            throw ScriptError(ManagedError::InvalidOperation, "input needs the host's game loop");
        return static_cast<std::int32_t>(c.input->handle(mono::toUtf8(action)));
    });
}
// The action's value now and at the end of the last frame, and whether it was ever set.
float readInput(std::int32_t handle, float* previous, MonoBoolean* known) {
    return guarded("Input", [&]() -> float {
        const ScriptContext& c = context();
        const InputState::Reading reading = c.input && handle >= 0
                                                ? c.input->read(static_cast<std::uint32_t>(handle))
                                                : InputState::Reading{};
        *previous = reading.previous;
        *known = reading.known ? 1 : 0;
        return reading.value;
    });
}
} // namespace

void registerInputCalls(MonoRuntime& runtime) {
    runtime.registerInternalCall("UEngine.UInputSystem::Internal_GetActionState",
                                 reinterpret_cast<const void*>(&getActionState));
    runtime.registerInternalCall("UEngine.Input::Internal_Handle",
                                 reinterpret_cast<const void*>(&inputHandle));
    runtime.registerInternalCall("UEngine.Input::Internal_Read",
                                 reinterpret_cast<const void*>(&readInput));
}

} // namespace scripthost::glue
