#include "domain/object_bridge.hpp"

#include <fmt/format.h>
#include <mono/metadata/appdomain.h>

namespace scripthost::mono {

ObjectBridge::ObjectBridge(MonoDomain* domain, ProxyClasses classes, ScriptLookup scripts)
    : domain_(domain), classes_(std::move(classes)), scripts_(std::move(scripts)) {
    MonoClass* gc = mono_class_from_name(mono_get_corlib(), "System", "GC");
    MonoMethod* suppress =
        gc != nullptr ? mono_class_get_method_from_name(gc, "SuppressFinalize", 1) : nullptr;
    if (suppress != nullptr) {
        suppressFinalize_ =
            reinterpret_cast<SuppressFinalizeThunk>(mono_method_get_unmanaged_thunk(suppress));
    }
}

Result<MonoObject*> ObjectBridge::makeProxy(MonoClass* klass, ObjectId id, ObjectId entity,
                                            bool finalizable) {
    // No constructor runs: a proxy is its ids, and the public constructors create
    // native objects (new UEntity("name")), which is not what is wanted here.
    MonoVTable* vtable = nullptr;
    for (const auto& [k, v] : vtables_) {
        if (k == klass)
            vtable = v;
    }
    if (vtable == nullptr) {
        vtable = mono_class_vtable(domain_, klass);
        if (vtable == nullptr)
            return fail(fmt::format("cannot load proxy class {}", mono_class_get_name(klass)));
        vtables_.emplace_back(klass, vtable);
    }
    MonoObject* proxy = mono_object_new_specific(vtable);
    if (proxy == nullptr) {
        return fail("cannot allocate a proxy");
    }
    std::uint64_t packed = id.packed();
    mono_field_set_value(proxy, classes_.nativeId, &packed);
    if (!entity.isNull()) {
        std::uint64_t owner = entity.packed();
        mono_field_set_value(proxy, classes_.entityId, &owner);
    }
    if (!finalizable && suppressFinalize_ != nullptr) {
        MonoException* exc = nullptr; // cannot throw for a non-null object
        suppressFinalize_(proxy, &exc);
    }
    proxies_.insert_or_assign(id, GcHandle::weak(proxy));
    return proxy;
}

Result<MonoObject*> ObjectBridge::remoteOf(const World& world, ObjectId id) {
    if (id.isNull()) {
        return fail("null reference");
    }
    switch (world.kindOf(id)) {
    case ObjectKind::Script: {
        MonoObject* instance = scripts_ ? scripts_(id) : nullptr;
        const ScriptSlot* slot = world.script(id);
        if (instance == nullptr && slot != nullptr && slot->native) {
            // A native script: its managed side is a proxy, like a native component's.
            if (auto it = proxies_.find(id); it != proxies_.end()) {
                if (MonoObject* proxy = it->second.target())
                    return proxy;
            }
            auto proxyClass = classes_.nativeScripts.find(slot->className);
            if (proxyClass == classes_.nativeScripts.end()) {
                return fail(fmt::format("no proxy class for native script class {} in this "
                                        "generation",
                                        slot->className));
            }
            return makeProxy(proxyClass->second, id, slot->entity, true);
        }
        if (instance == nullptr) {
            return fail(fmt::format("script {} has no instance in this generation", id.toString()));
        }
        return instance;
    }
    case ObjectKind::Entity:
    case ObjectKind::Component: {
        if (auto it = proxies_.find(id); it != proxies_.end()) {
            if (MonoObject* proxy = it->second.target()) {
                return proxy;
            }
        }
        if (const NativeComponent* component = world.component(id)) {
            auto kind = classes_.componentKinds.find(component->kind);
            if (kind == classes_.componentKinds.end()) {
                return fail(fmt::format("no managed class is bound to component kind \"{}\"",
                                        component->kind));
            }
            return makeProxy(kind->second, id, component->entity, true);
        }
        const Entity* e = world.entity(id);
        return makeProxy(classes_.entity, id, ObjectId{}, e != nullptr && e->ownedByScripts);
    }
    case ObjectKind::None:
        break;
    }
    return fail(fmt::format("object {} does not exist (destroyed?)", id.toString()));
}

Result<MonoObject*> ObjectBridge::remoteOfAs(const World& world, ObjectId id, MonoClass* wanted) {
    if (wanted != nullptr && wanted == classes_.transform)
        return transformOf(world, id);
    return remoteOf(world, id);
}

Result<MonoObject*> ObjectBridge::transformOf(const World& world, ObjectId id) {
    const ObjectId entity = world.entityOf(id);
    if (entity.isNull())
        return fail(fmt::format("object {} does not exist (destroyed?)", id.toString()));
    auto proxy = remoteOf(world, entity);
    if (!proxy)
        return proxy;
    // The entity's own (UEntity.transform), so a field and the entity agree on identity.
    MonoObject* transform = nullptr;
    mono_field_get_value(*proxy, classes_.entityTransform, &transform);
    if (transform != nullptr)
        return transform;
    // No constructor: the two fields it would set, the entity's id and its proxy (which the
    // transform holds, so that it leads back to this proxy after any collection).
    transform = mono_object_new(domain_, classes_.transform);
    if (transform == nullptr)
        return fail("cannot allocate a transform");
    const std::uint64_t packed = entity.packed();
    mono_field_set_value(transform, classes_.transformEntity, const_cast<std::uint64_t*>(&packed));
    mono_field_set_value(transform, classes_.transformOwner, *proxy);
    mono_field_set_value(*proxy, classes_.entityTransform, transform);
    return transform;
}

ObjectId ObjectBridge::localOf(MonoObject* object) const {
    if (object == nullptr)
        return {};
    std::uint64_t packed = 0;
    if (mono_object_isinst(object, classes_.uobject) != nullptr)
        mono_field_get_value(object, classes_.nativeId, &packed);
    else if (classes_.transform != nullptr && mono_object_get_class(object) == classes_.transform)
        mono_field_get_value(object, classes_.transformEntity, &packed);
    return ObjectId::unpack(packed);
}

void ObjectBridge::forget(ObjectId id) {
    auto it = proxies_.find(id);
    if (it == proxies_.end())
        return;
    if (MonoObject* proxy = it->second.target();
        proxy != nullptr && classes_.destroyed != nullptr) {
        MonoBoolean gone = 1;
        mono_field_set_value(proxy, classes_.destroyed, &gone);
    }
    proxies_.erase(it);
}

void ObjectBridge::adopt(ObjectId id, MonoObject* proxy) {
    proxies_.insert_or_assign(id, GcHandle::weak(proxy));
}

bool ObjectBridge::hasLiveProxy(ObjectId id) const {
    auto it = proxies_.find(id);
    return it != proxies_.end() && it->second.target() != nullptr;
}

std::size_t ObjectBridge::purgeCollected() {
    return std::erase_if(proxies_,
                         [](const auto& entry) { return entry.second.target() == nullptr; });
}

} // namespace scripthost::mono
