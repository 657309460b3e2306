// Internal calls of UEngine.UObject and UEngine.Internal.ObjectTable: proxies, liveness,
// destruction.
#include "domain/object_bridge.hpp"
#include "glue_access.hpp"
#include "host/engine/script_engine.hpp"
#include "internal_call_groups.hpp"
#include "runtime/mono_text.hpp"
#include "runtime/runtime_state.hpp"

#include <mono/metadata/appdomain.h>

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
}

} // namespace scripthost::glue
