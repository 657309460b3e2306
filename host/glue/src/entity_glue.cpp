// Internal calls of UEngine.UEntity.
#include "domain/object_bridge.hpp"
#include "glue_access.hpp"
#include "host/engine/script_engine.hpp"
#include "id_array.hpp"
#include "internal_call_groups.hpp"
#include "runtime/mono_text.hpp"
#include "runtime/runtime_state.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/object.h>

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
std::uint64_t create(MonoObject* self, MonoString* name) {
    return guarded("new UEntity", [&]() -> std::uint64_t {
        if (name == nullptr)
            throw ScriptError(ManagedError::ArgumentNull, "name");
        ScriptContext& c = context();
        const ObjectId id = c.world->createEntity(mono::toUtf8(name));
        c.world->entity(id)->ownedByScripts = true;
        if (mono::ObjectBridge* bridge = mono::runtimeState().domains.bridgeOf(mono_domain_get())) {
            bridge->adopt(id, self); // this object is the entity's proxy from now on
        }
        return id.packed();
    });
}

// Runs on the GC's finalizer thread: no context, no world — just the runtime's mailbox.
void proxyFinalized(std::uint64_t e) {
    mono::runtimeState().finalizedProxies.note(ObjectId::unpack(e));
}

std::uint64_t addComponent(std::uint64_t e, MonoString* kind) {
    return guarded("UEntity.AddComponent", [&]() -> std::uint64_t {
        requireEntity(e);
        auto id = context().world->addComponent(ObjectId::unpack(e), mono::toUtf8(kind));
        if (!id)
            throw ScriptError(ManagedError::Argument, id.error().message);
        return id->packed();
    });
}

MonoObject* addScript(std::uint64_t e, MonoString* className) {
    return guarded("UEntity.AddComponent", [&]() -> MonoObject* {
        requireEntity(e);
        ScriptContext& c = context();
        if (c.engine == nullptr) {
            throw ScriptError(ManagedError::InvalidOperation,
                              "AddComponent needs the host's game loop");
        }
        auto slot = c.engine->addScript(ObjectId::unpack(e), mono::toUtf8(className));
        if (!slot)
            throw ScriptError(ManagedError::Argument, slot.error().message);
        mono::ObjectBridge* bridge = mono::runtimeState().domains.bridgeOf(mono_domain_get());
        auto instance = bridge ? bridge->remoteOf(*c.world, *slot) : fail("no active generation");
        if (!instance)
            throw ScriptError(ManagedError::InvalidOperation, instance.error().message);
        return *instance;
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

MonoBoolean getActive(std::uint64_t e) {
    return guarded("UEntity.activeSelf",
                   [&]() -> MonoBoolean { return requireEntity(e).active ? 1 : 0; });
}
MonoBoolean getActiveInHierarchy(std::uint64_t e) {
    return guarded("UEntity.activeInHierarchy", [&]() -> MonoBoolean {
        requireEntity(e);
        return context().world->activeInHierarchy(ObjectId::unpack(e)) ? 1 : 0;
    });
}
// Returns the entities whose activeInHierarchy changed (the entity and those below it that
// follow it), parents first: ScriptActivation tells their scripts.
MonoArray* setActive(std::uint64_t e, MonoBoolean active) {
    return guarded("UEntity.SetActive", [&]() -> MonoArray* {
        requireEntity(e);
        return idArray(context().world->setActive(ObjectId::unpack(e), active != 0));
    });
}
MonoString* getTag(std::uint64_t e) {
    return guarded("UEntity.tag", [&]() -> MonoString* {
        const std::string& tag = requireEntity(e).tag;
        auto s = mono::newString(mono_domain_get(), tag.empty() ? "Untagged" : tag);
        if (!s)
            throw ScriptError(ManagedError::InvalidOperation, s.error().message);
        return *s;
    });
}
void setTag(std::uint64_t e, MonoString* tag) {
    guarded("UEntity.tag", [&] {
        if (tag == nullptr)
            throw ScriptError(ManagedError::ArgumentNull, "value");
        std::string text = mono::toUtf8(tag);
        requireEntity(e).tag = text == "Untagged" ? std::string() : std::move(text);
    });
}
// Entities active in the hierarchy with the tag, in creation order (Unity's
// FindGameObjectsWithTag): their ids.
MonoArray* findAllWithTag(MonoString* tag) {
    return guarded("UEntity.FindGameObjectsWithTag", [&]() -> MonoArray* {
        if (tag == nullptr)
            throw ScriptError(ManagedError::ArgumentNull, "tag");
        const World& world = *context().world;
        std::vector<ObjectId> active = world.entitiesWithTag(mono::toUtf8(tag));
        std::erase_if(active, [&](ObjectId id) { return !world.activeInHierarchy(id); });
        return idArray(active);
    });
}

} // namespace

void registerEntityCalls(MonoRuntime& runtime) {
    const std::string c = "UEngine.UEntity::";
    runtime.registerInternalCall(c + "Internal_Find", reinterpret_cast<const void*>(&find));
    runtime.registerInternalCall(c + "Internal_GetName", reinterpret_cast<const void*>(&getName));
    runtime.registerInternalCall(c + "Internal_SetName", reinterpret_cast<const void*>(&setName));
    runtime.registerInternalCall(c + "Internal_Create", reinterpret_cast<const void*>(&create));
    runtime.registerInternalCall(c + "Internal_ProxyFinalized",
                                 reinterpret_cast<const void*>(&proxyFinalized));
    runtime.registerInternalCall(c + "Internal_AddComponent",
                                 reinterpret_cast<const void*>(&addComponent));
    runtime.registerInternalCall(c + "Internal_AddScript",
                                 reinterpret_cast<const void*>(&addScript));
    runtime.registerInternalCall(c + "Internal_GetComponentCount",
                                 reinterpret_cast<const void*>(&componentCount));
    runtime.registerInternalCall(c + "Internal_GetComponentAt",
                                 reinterpret_cast<const void*>(&componentAt));
    runtime.registerInternalCall(c + "Internal_GetActive",
                                 reinterpret_cast<const void*>(&getActive));
    runtime.registerInternalCall(c + "Internal_GetActiveInHierarchy",
                                 reinterpret_cast<const void*>(&getActiveInHierarchy));
    runtime.registerInternalCall(c + "Internal_SetActive",
                                 reinterpret_cast<const void*>(&setActive));
    runtime.registerInternalCall(c + "Internal_GetTag", reinterpret_cast<const void*>(&getTag));
    runtime.registerInternalCall(c + "Internal_SetTag", reinterpret_cast<const void*>(&setTag));
    runtime.registerInternalCall(c + "Internal_FindAllWithTag",
                                 reinterpret_cast<const void*>(&findAllWithTag));
}

} // namespace scripthost::glue
