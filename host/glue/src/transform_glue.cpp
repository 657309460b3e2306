// Internal calls of UEngine.UTransform.
#include "glue_access.hpp"
#include "internal_call_groups.hpp"

#include <cmath>
#include <cstddef>
#include <glm/gtc/quaternion.hpp>
#include <mono/metadata/object.h>
#include <type_traits>

namespace scripthost::glue {

namespace {

// The managed structs and GLM's must agree byte for byte (docs/MONO.md, "Calls").
// By-value struct arguments follow the C ABI only for trivially copyable types: a GLM
// built with GLM_FORCE_CTOR_INIT (user-provided copy constructors) would be passed by
// hidden pointer and read garbage.
static_assert(std::is_trivially_copyable_v<glm::vec3> && std::is_trivially_copyable_v<glm::quat>);
static_assert(sizeof(glm::vec2) == 8 && sizeof(glm::vec3) == 12 && sizeof(glm::vec4) == 16);
static_assert(sizeof(glm::quat) == 16 && offsetof(glm::quat, x) == 0 &&
                  offsetof(glm::quat, w) == 12,
              "UEngine.Quaternion is laid out x, y, z, w");
// UTransform reads and writes a live Transform directly, as UEngine.Internal.NativeTransform.
static_assert(std::is_standard_layout_v<Transform> && offsetof(Transform, position) == 0 &&
                  offsetof(Transform, rotation) == 12 && offsetof(Transform, scale) == 28 &&
                  sizeof(Transform) == 40,
              "UEngine.Internal.NativeTransform is laid out position, rotation, scale");

template <typename T> const T& requireArg(const T* value, const char* name) {
    if (value == nullptr) {
        throw ScriptError(ManagedError::ArgumentNull, name);
    }
    return *value;
}

// The getters and setters take liveTransform()'s hot path and fall back to requireEntity()
// (which raises the exception that says why) only when it finds nothing. The fallback is a
// function of its own, out of line: inlined, the guard's exception handling gave the hot path
// a stack frame (three pushes, 96 bytes reserved) on every call; without it a call is a leaf
// of ~20 instructions that touches the stack not at all (bench_dispatch, docs/MONO.md §6).
// World-space members (position, rotation) take the hot path for a root, whose local
// transform is its world one; a child's is composed from its parents' (World::worldTransform).
template <typename T, T Transform::*Member>
[[gnu::noinline, gnu::cold]] void getChecked(const char* what, std::uint64_t e, T* out) {
    guarded(what, [&] { *out = requireEntity(e).transform.*Member; });
}
template <typename T, T Transform::*Member>
[[gnu::noinline, gnu::cold]] void setChecked(const char* what, std::uint64_t e, const T* value) {
    guarded(what, [&] { requireEntity(e).transform.*Member = requireArg(value, "value"); });
}
template <typename T, T Transform::*Member>
[[gnu::noinline]] void getWorldChecked(const char* what, std::uint64_t e, T* out) {
    guarded(what, [&] {
        requireEntity(e);
        *out = context().world->worldTransform(ObjectId::unpack(e)).*Member;
    });
}

// A rotation a script sets: normalized; a zero or non-finite one is refused.
glm::quat checkedRotation(const glm::quat* value) {
    const glm::quat q = requireArg(value, "value");
    const float length = glm::length(q);
    if (!std::isfinite(length) || length < 1e-6f) {
        throw ScriptError(ManagedError::Argument, "rotation must be a non-zero, finite quaternion");
    }
    return q / length;
}

// UTransform's direct access (docs/MONO.md §6): where the live entity's Transform is, the
// epoch of the bound world under which that holds, this thread's cell that holds the bound
// world's epoch from now on, and whether the entity is a root (its local transform is then
// its world one; a change of parent changes the epoch). nullptr, touching nothing, when the
// checked call must run instead (no context bound on this thread, a null or destroyed id).
// The cell is refreshed here too, so a world set on a context after it was bound is picked up.
Transform* locate(std::uint64_t e, std::uint64_t* epoch, const std::uint64_t** boundEpoch,
                  MonoBoolean* root) {
    Entity* entity = liveEntity(e);
    if (entity == nullptr || epoch == nullptr || boundEpoch == nullptr || root == nullptr) {
        return nullptr;
    }
    detail::tBoundWorldEpoch = ScriptContext::current()->world->epoch().value();
    *epoch = detail::tBoundWorldEpoch;
    *boundEpoch = &detail::tBoundWorldEpoch;
    *root = entity->parent.isNull() ? 1 : 0;
    return &entity->transform;
}

void getPosition(std::uint64_t e, glm::vec3* out) {
    if (const Entity* en = liveEntity(e); en != nullptr && en->parent.isNull()) {
        *out = en->transform.position;
        return;
    }
    getWorldChecked<glm::vec3, &Transform::position>("UTransform.position", e, out);
}
void setPosition(std::uint64_t e, const glm::vec3* value) {
    if (Entity* en = liveEntity(e); en != nullptr && en->parent.isNull() && value != nullptr) {
        en->transform.position = *value;
        return;
    }
    guarded("UTransform.position", [&] {
        requireEntity(e);
        context().world->setWorldPosition(ObjectId::unpack(e), requireArg(value, "value"));
    });
}
void getRotation(std::uint64_t e, glm::quat* out) {
    if (const Entity* en = liveEntity(e); en != nullptr && en->parent.isNull()) {
        *out = en->transform.rotation;
        return;
    }
    getWorldChecked<glm::quat, &Transform::rotation>("UTransform.rotation", e, out);
}
void setRotation(std::uint64_t e, const glm::quat* value) {
    guarded("UTransform.rotation", [&] {
        requireEntity(e);
        context().world->setWorldRotation(ObjectId::unpack(e), checkedRotation(value));
    });
}
void getLossyScale(std::uint64_t e, glm::vec3* out) {
    getWorldChecked<glm::vec3, &Transform::scale>("UTransform.lossyScale", e, out);
}
void getLocalPosition(std::uint64_t e, glm::vec3* out) {
    if (const Transform* t = liveTransform(e)) {
        *out = t->position;
        return;
    }
    getChecked<glm::vec3, &Transform::position>("UTransform.localPosition", e, out);
}
void setLocalPosition(std::uint64_t e, const glm::vec3* value) {
    if (Transform* t = liveTransform(e); t != nullptr && value != nullptr) {
        t->position = *value;
        return;
    }
    setChecked<glm::vec3, &Transform::position>("UTransform.localPosition", e, value);
}
void getLocalRotation(std::uint64_t e, glm::quat* out) {
    if (const Transform* t = liveTransform(e)) {
        *out = t->rotation;
        return;
    }
    getChecked<glm::quat, &Transform::rotation>("UTransform.localRotation", e, out);
}
void setLocalRotation(std::uint64_t e, const glm::quat* value) {
    guarded("UTransform.localRotation",
            [&] { requireEntity(e).transform.rotation = checkedRotation(value); });
}
void getScaling(std::uint64_t e, glm::vec3* out) {
    if (const Transform* t = liveTransform(e)) {
        *out = t->scale;
        return;
    }
    getChecked<glm::vec3, &Transform::scale>("UTransform.scaling", e, out);
}
void setScaling(std::uint64_t e, const glm::vec3* value) {
    if (Transform* t = liveTransform(e); t != nullptr && value != nullptr) {
        t->scale = *value;
        return;
    }
    setChecked<glm::vec3, &Transform::scale>("UTransform.scaling", e, value);
}
void getAxis(std::uint64_t e, std::int32_t which, glm::vec3* out) {
    guarded("UTransform axis", [&] {
        requireEntity(e);
        const Transform t = context().world->worldTransform(ObjectId::unpack(e));
        *out = which == 0 ? t.forward() : which == 1 ? t.up() : t.right();
    });
}
// World space: a child moves by `delta` in the world whatever its parents' rotation and scale.
void move(std::uint64_t e, glm::vec3 delta) {
    guarded("UTransform.Move", [&] {
        Entity& entity = requireEntity(e);
        if (entity.parent.isNull()) {
            entity.transform.move(delta);
            return;
        }
        World& world = *context().world;
        const ObjectId id = ObjectId::unpack(e);
        world.setWorldPosition(id, world.worldTransform(id).position + delta);
    });
}
// Local space, for a child too: its world rotation is its parents' times its local one.
void rotate(std::uint64_t e, glm::vec3 axis, float degrees) {
    guarded("UTransform.Rotate", [&] {
        if (!requireEntity(e).transform.rotate(axis, degrees)) {
            throw ScriptError(ManagedError::Argument,
                              "Rotate needs a non-zero axis and a finite angle");
        }
    });
}
void scale(std::uint64_t e, const glm::vec3* factor) {
    guarded("UTransform.Scale",
            [&] { requireEntity(e).transform.scaleBy(requireArg(factor, "factor")); });
}

} // namespace

void registerTransformCalls(MonoRuntime& runtime) {
    // Raw registration (no thread-state transition, docs/MONO.md §6): every one of these
    // finishes in bounded time, blocks on nothing, takes no lock, and reaches managed code
    // only through raiseManaged (Mono's embedding API).
    const std::string c = "UEngine.UTransform::";
    runtime.registerRawInternalCall(c + "Internal_Locate", reinterpret_cast<const void*>(&locate));
    runtime.registerRawInternalCall(c + "Internal_GetPosition",
                                    reinterpret_cast<const void*>(&getPosition));
    runtime.registerRawInternalCall(c + "Internal_SetPosition",
                                    reinterpret_cast<const void*>(&setPosition));
    runtime.registerRawInternalCall(c + "Internal_GetRotation",
                                    reinterpret_cast<const void*>(&getRotation));
    runtime.registerRawInternalCall(c + "Internal_SetRotation",
                                    reinterpret_cast<const void*>(&setRotation));
    runtime.registerRawInternalCall(c + "Internal_GetLossyScale",
                                    reinterpret_cast<const void*>(&getLossyScale));
    runtime.registerRawInternalCall(c + "Internal_GetLocalPosition",
                                    reinterpret_cast<const void*>(&getLocalPosition));
    runtime.registerRawInternalCall(c + "Internal_SetLocalPosition",
                                    reinterpret_cast<const void*>(&setLocalPosition));
    runtime.registerRawInternalCall(c + "Internal_GetLocalRotation",
                                    reinterpret_cast<const void*>(&getLocalRotation));
    runtime.registerRawInternalCall(c + "Internal_SetLocalRotation",
                                    reinterpret_cast<const void*>(&setLocalRotation));
    runtime.registerRawInternalCall(c + "Internal_GetScaling",
                                    reinterpret_cast<const void*>(&getScaling));
    runtime.registerRawInternalCall(c + "Internal_SetScaling",
                                    reinterpret_cast<const void*>(&setScaling));
    runtime.registerRawInternalCall(c + "Internal_GetAxis",
                                    reinterpret_cast<const void*>(&getAxis));
    runtime.registerRawInternalCall(c + "Internal_Move", reinterpret_cast<const void*>(&move));
    runtime.registerRawInternalCall(c + "Internal_Rotate", reinterpret_cast<const void*>(&rotate));
    runtime.registerRawInternalCall(c + "Internal_Scale", reinterpret_cast<const void*>(&scale));
}

} // namespace scripthost::glue
