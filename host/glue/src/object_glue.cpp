// Internal calls of UEngine.UObject and UEngine.Internal.ObjectTable: proxies, liveness,
// destruction.
#include "domain/object_bridge.hpp"
#include "glue_access.hpp"
#include "host/engine/script_engine.hpp"
#include "internal_call_groups.hpp"
#include "runtime/mono_text.hpp"
#include "runtime/runtime_state.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <mono/metadata/appdomain.h>
#include <optional>

namespace scripthost::glue {

namespace {

mono::ObjectBridge& bridge() {
    mono::ObjectBridge* b = mono::runtimeState().domains.bridgeOf(mono_domain_get());
    if (b == nullptr) {
        throw ScriptError(ManagedError::InvalidOperation, "no script generation is active");
    }
    return *b;
}

MonoObject* getProxy(std::uint64_t packed) {
    return guarded("ObjectTable.GetProxy", [&]() -> MonoObject* {
        const ObjectId id = ObjectId::unpack(packed);
        const World& world = *context().world;
        if (!world.isAlive(id)) {
            throw ScriptError(ManagedError::MissingReference,
                              "the object " + id.toString() + " has been destroyed");
        }
        auto proxy = bridge().remoteOf(world, id);
        if (!proxy) {
            throw ScriptError(ManagedError::InvalidOperation, proxy.error().message);
        }
        return *proxy;
    });
}

MonoBoolean hasProxyClass(MonoString* kind) {
    return guarded("ObjectTable.HasProxyClass", [&]() -> MonoBoolean {
        return bridge().classes().componentKinds.contains(mono::toUtf8(kind)) ? 1 : 0;
    });
}

MonoBoolean isAlive(std::uint64_t packed) {
    return guarded("UObject.isAlive", [&]() -> MonoBoolean {
        return context().world->isAlive(ObjectId::unpack(packed)) ? 1 : 0;
    });
}

void destroy(std::uint64_t packed) {
    guarded("UObject.Destroy", [&] {
        ScriptContext& c = context();
        if (c.engine == nullptr) {
            throw ScriptError(ManagedError::InvalidOperation, "Destroy needs the host's game loop");
        }
        c.engine->queueDestroy(ObjectId::unpack(packed)); // at the end of the frame
    });
}

std::uint64_t instantiate(std::uint64_t packed, MonoBoolean placed, const glm::vec3* position,
                          const glm::quat* rotation) {
    return guarded("UObject.Instantiate", [&]() -> std::uint64_t {
        ScriptContext& c = context();
        if (c.engine == nullptr) {
            throw ScriptError(ManagedError::InvalidOperation,
                              "Instantiate needs the host's game loop");
        }
        const ObjectId original = ObjectId::unpack(packed);
        if (!c.world->isAlive(original)) {
            throw ScriptError(ManagedError::MissingReference,
                              "the object " + original.toString() + " has been destroyed");
        }
        std::optional<Transform> at;
        if (placed != 0) {
            at = c.world->worldTransform(c.world->entityOf(original));
            at->position = *position;
            at->rotation = *rotation;
        }
        auto copy = c.engine->cloneObject(original, at);
        if (!copy)
            throw ScriptError(ManagedError::InvalidOperation, copy.error().message);
        return copy->packed();
    });
}

void destroyAfter(std::uint64_t packed, float seconds) {
    guarded("UObject.Destroy", [&] {
        ScriptContext& c = context();
        if (c.engine == nullptr) {
            throw ScriptError(ManagedError::InvalidOperation, "Destroy needs the host's game loop");
        }
        if (!std::isfinite(seconds))
            throw ScriptError(ManagedError::Argument, "Destroy's delay must be a finite number");
        c.engine->queueDestroyAfter(ObjectId::unpack(packed), std::max(0.0F, seconds));
    });
}

} // namespace

void registerObjectCalls(MonoRuntime& runtime) {
    runtime.registerInternalCall("UEngine.Internal.ObjectTable::Internal_GetProxy",
                                 reinterpret_cast<const void*>(&getProxy));
    runtime.registerInternalCall("UEngine.Internal.ObjectTable::Internal_HasProxyClass",
                                 reinterpret_cast<const void*>(&hasProxyClass));
    runtime.registerInternalCall("UEngine.UObject::Internal_IsAlive",
                                 reinterpret_cast<const void*>(&isAlive));
    runtime.registerInternalCall("UEngine.UObject::Internal_Destroy",
                                 reinterpret_cast<const void*>(&destroy));
    runtime.registerInternalCall("UEngine.UObject::Internal_DestroyAfter",
                                 reinterpret_cast<const void*>(&destroyAfter));
    runtime.registerInternalCall("UEngine.UObject::Internal_Instantiate",
                                 reinterpret_cast<const void*>(&instantiate));
}

} // namespace scripthost::glue
