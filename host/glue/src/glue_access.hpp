#pragma once
// Checked access to the bound ScriptContext from internal calls.

#include "host/engine/input_state.hpp"
#include "host/engine/script_context.hpp"
#include "host/model/world.hpp"
#include "script_error.hpp"

#include <cstdint>

namespace scripthost::glue {

/// The bound context; throws ScriptError when scripts run with none bound.
inline ScriptContext& context() {
    ScriptContext* c = ScriptContext::current();
    if (c == nullptr || c->world == nullptr) {
        throw ScriptError(ManagedError::InvalidOperation,
                          "the engine API was used outside the host's game loop");
    }
    return *c;
}

/// The live entity with this packed id; throws MissingReference for a destroyed one.
inline Entity& requireEntity(std::uint64_t packed) {
    const ObjectId id = ObjectId::unpack(packed);
    if (id.isNull()) {
        throw ScriptError(ManagedError::ArgumentNull, "entity");
    }
    Entity* entity = context().world->entity(id);
    if (entity == nullptr) {
        throw ScriptError(ManagedError::MissingReference,
                          "the entity " + id.toString() +
                              " has been destroyed but a script is still using it");
    }
    return *entity;
}

/// The hot path of the transform calls: the live entity, or nullptr when the call
/// must fail (no context bound, a null or destroyed id). It checks exactly what
/// context() and requireEntity() check, without building their errors, so a caller that gets
/// nullptr calls requireEntity() to raise the right exception.
inline Entity* liveEntity(std::uint64_t packed) noexcept {
    ScriptContext* c = ScriptContext::current();
    if (c == nullptr || c->world == nullptr) {
        return nullptr;
    }
    return c->world->entity(ObjectId::unpack(packed)); // nullptr for the null id too
}
/// liveEntity's local transform.
inline Transform* liveTransform(std::uint64_t packed) noexcept {
    Entity* entity = liveEntity(packed);
    return entity != nullptr ? &entity->transform : nullptr;
}

} // namespace scripthost::glue
