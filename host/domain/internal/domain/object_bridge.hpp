#pragma once
// ObjectBridge: one generation's links between local objects and their managed side.

#include "host/model/world.hpp"
#include "runtime/gc_handle.hpp"
#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"

#include <functional>
#include <mono/metadata/class.h>
#include <mono/metadata/object.h>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace scripthost::mono {

/// The ScriptCore classes the bridge builds proxies of and reads ids from.
struct ProxyClasses {
    MonoClass* uobject = nullptr;                               ///< UEngine.UObject
    MonoClassField* nativeId = nullptr;                         ///< UObject.m_NativeId
    MonoClassField* destroyed = nullptr;                        ///< UObject.m_Destroyed
    MonoClass* entity = nullptr;                                ///< UEngine.UEntity
    MonoClassField* entityTransform = nullptr;                  ///< UEntity.m_Transform
    MonoClass* transform = nullptr;                             ///< UEngine.UTransform
    MonoClassField* transformEntity = nullptr;                  ///< UTransform.m_EntityId
    MonoClassField* transformOwner = nullptr;                   ///< UTransform.m_Entity
    MonoClass* component = nullptr;                             ///< UEngine.UComponent
    MonoClassField* entityId = nullptr;                         ///< UComponent.m_EntityId
    std::unordered_map<std::string, MonoClass*> componentKinds; ///< "Camera" → UCameraComponent
    MonoClass* nativeScript = nullptr;                          ///< UEngine.UNativeScript
    /// "Demo.NativeSpinner" → its generated proxy class
    std::unordered_map<std::string, MonoClass*> nativeScripts;
};

/// Local→remote: the managed proxy of an entity or native component (found or created,
/// one per object, so identity holds in scripts) or the script instance of a slot.
/// Remote→local: the id field every proxy carries. Proxies are held through weak GC
/// handles — never raw pointers — so the GC may collect a proxy nobody uses; the next
/// request makes a new one. Script instances are held strongly by the ScriptDomain.
class ObjectBridge {
public:
    using ScriptLookup = std::function<MonoObject*(ObjectId)>;

    /// `domain` must be the current domain (the bridge prepares a call into it).
    ObjectBridge(MonoDomain* domain, ProxyClasses classes, ScriptLookup scripts);

    /// The managed object for `id` in `world`; an error for a null, destroyed or unknown id
    /// or a component kind with no proxy class. Valid until the next managed call.
    [[nodiscard]] Result<MonoObject*> remoteOf(const World& world, ObjectId id);

    /// The managed object for `id` as a field of class `wanted` holds it: for UTransform, the
    /// transform of the entity `id` names (or of the entity a component or script `id` is on),
    /// the one its entity's proxy hands out; for any other class, remoteOf(world, id).
    [[nodiscard]] Result<MonoObject*> remoteOfAs(const World& world, ObjectId id,
                                                 MonoClass* wanted);

    /// The id a proxy or script instance carries, a UTransform's its entity's (null for null
    /// or any other object).
    [[nodiscard]] ObjectId localOf(MonoObject* object) const;

    /// Records `proxy` as the proxy of `id` (a proxy created by managed code).
    void adopt(ObjectId id, MonoObject* proxy);

    /// Whether `id` has a proxy that is still alive.
    [[nodiscard]] bool hasLiveProxy(ObjectId id) const;

    /// Forgets the proxy of a destroyed object, marking it destroyed first (UObject.m_Destroyed:
    /// the scripts that still hold it see it equal to null, as in Unity).
    void forget(ObjectId id);

    /// Drops entries whose proxy was collected. Returns how many were dropped.
    std::size_t purgeCollected();

    /// Proxies tracked (alive or awaiting purge).
    [[nodiscard]] std::size_t proxyCount() const noexcept { return proxies_.size(); }

    [[nodiscard]] const ProxyClasses& classes() const noexcept { return classes_; }

private:
    Result<MonoObject*> makeProxy(MonoClass* klass, ObjectId id, ObjectId entity, bool finalizable);
    Result<MonoObject*> transformOf(const World& world, ObjectId id);

    MonoDomain* domain_;
    ProxyClasses classes_;
    // Proxy classes' vtables in this domain, found once (a reload makes thousands of proxies).
    std::vector<std::pair<MonoClass*, MonoVTable*>> vtables_;
    // System.GC.SuppressFinalize: the proxy of an entity the world owns needs no
    // finalizer (only script-owned entities are released by theirs), and every
    // finalizer left would run when the generation is unloaded.
    using SuppressFinalizeThunk = void (*)(MonoObject*, MonoException**);
    SuppressFinalizeThunk suppressFinalize_ = nullptr;
    ScriptLookup scripts_;
    std::unordered_map<ObjectId, GcHandle> proxies_;
};

} // namespace scripthost::mono
