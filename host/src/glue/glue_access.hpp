#pragma once
// Checked access to the bound ScriptContext from internal calls.

#include "glue/script_error.hpp"
#include "host/input_state.hpp"
#include "host/script_context.hpp"
#include "host/world.hpp"

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

} // namespace scripthost::glue
