// Internal calls of UEngine.UEntity.
#include "glue/core_internal_calls.hpp"
#include "glue/glue_access.hpp"
#include "mono/mono_text.hpp"

#include <mono/metadata/appdomain.h>

namespace scripthost::glue {

namespace {

std::uint64_t find(MonoString* name) {
    return guarded("UEntity.Find", [&]() -> std::uint64_t {
        if (name == nullptr)
            throw ScriptError(ManagedError::ArgumentNull, "name");
        return context().world->findEntity(mono::toUtf8(name)).packed();
    });
}
MonoString* getName(std::uint64_t e) {
    return guarded("UEntity.name", [&]() -> MonoString* {
        auto s = mono::newString(mono_domain_get(), requireEntity(e).name);
        if (!s)
            throw ScriptError(ManagedError::InvalidOperation, s.error().message);
        return *s;
    });
}
void setName(std::uint64_t e, MonoString* name) {
    guarded("UEntity.name", [&] {
        if (name == nullptr)
            throw ScriptError(ManagedError::ArgumentNull, "value");
        requireEntity(e).name = mono::toUtf8(name);
    });
}
MonoBoolean isAlive(std::uint64_t e) {
    return guarded("UEntity.isAlive", [&]() -> MonoBoolean {
        return context().world->entity(ObjectId::unpack(e)) != nullptr ? 1 : 0;
    });
}
std::int32_t componentCount(std::uint64_t e) {
    return guarded("UEntity.GetComponent", [&]() -> std::int32_t {
        return static_cast<std::int32_t>(requireEntity(e).components.size());
    });
}
std::uint64_t componentAt(std::uint64_t e, std::int32_t index, MonoString** kind) {
    return guarded("UEntity.GetComponent", [&]() -> std::uint64_t {
        const Entity& entity = requireEntity(e);
        if (index < 0 || static_cast<std::size_t>(index) >= entity.components.size()) {
            throw ScriptError(ManagedError::Argument, "component index out of range");
        }
        const ObjectId id = entity.components[static_cast<std::size_t>(index)];
        const NativeComponent* component = context().world->component(id);
        auto s = mono::newString(mono_domain_get(), component ? component->kind : "");
        if (!s)
            throw ScriptError(ManagedError::InvalidOperation, s.error().message);
        *kind = *s;
        return id.packed();
    });
}

} // namespace

void registerEntityCalls(MonoRuntime& runtime) {
    const std::string c = "UEngine.UEntity::";
    runtime.registerInternalCall(c + "Internal_Find", reinterpret_cast<const void*>(&find));
    runtime.registerInternalCall(c + "Internal_GetName", reinterpret_cast<const void*>(&getName));
    runtime.registerInternalCall(c + "Internal_SetName", reinterpret_cast<const void*>(&setName));
    runtime.registerInternalCall(c + "Internal_IsAlive", reinterpret_cast<const void*>(&isAlive));
    runtime.registerInternalCall(c + "Internal_GetComponentCount",
                                 reinterpret_cast<const void*>(&componentCount));
    runtime.registerInternalCall(c + "Internal_GetComponentAt",
                                 reinterpret_cast<const void*>(&componentAt));
}

} // namespace scripthost::glue
