// Internal calls of UEngine.UTransform's hierarchy: parent, children, sibling order.
#include "glue_access.hpp"
#include "id_array.hpp"
#include "internal_call_groups.hpp"

namespace scripthost::glue {

namespace {

std::uint64_t getParent(std::uint64_t e) {
    return guarded("UTransform.parent",
                   [&]() -> std::uint64_t { return requireEntity(e).parent.packed(); });
}

// Returns the entities whose activeInHierarchy changed with the move (ScriptActivation tells
// their scripts) and, in `nowActive`, whether they are active now.
MonoArray* setParent(std::uint64_t e, std::uint64_t parent, MonoBoolean keepWorld,
                     MonoBoolean* nowActive) {
    return guarded("UTransform.SetParent", [&]() -> MonoArray* {
        requireEntity(e);
        World& world = *context().world;
        const ObjectId to = ObjectId::unpack(parent);
        if (!to.isNull() && world.entity(to) == nullptr) {
            throw ScriptError(ManagedError::MissingReference,
                              "the parent " + to.toString() + " has been destroyed");
        }
        auto changed = world.setParent(ObjectId::unpack(e), to, keepWorld != 0);
        if (!changed)
            throw ScriptError(ManagedError::Argument, changed.error().message);
        *nowActive = world.activeInHierarchy(ObjectId::unpack(e)) ? 1 : 0;
        return idArray(*changed);
    });
}

std::int32_t childCount(std::uint64_t e) {
    return guarded("UTransform.childCount", [&]() -> std::int32_t {
        return static_cast<std::int32_t>(requireEntity(e).children.size());
    });
}

// The child at `index`, or 0 when there is none (ScriptCore raises the exception).
std::uint64_t childAt(std::uint64_t e, std::int32_t index) {
    return guarded("UTransform.GetChild", [&]() -> std::uint64_t {
        const std::vector<ObjectId>& children = requireEntity(e).children;
        return index >= 0 && static_cast<std::size_t>(index) < children.size()
                   ? children[static_cast<std::size_t>(index)].packed()
                   : 0;
    });
}

std::int32_t getSiblingIndex(std::uint64_t e) {
    return guarded("UTransform.GetSiblingIndex", [&]() -> std::int32_t {
        requireEntity(e);
        return static_cast<std::int32_t>(context().world->siblingIndex(ObjectId::unpack(e)));
    });
}

void setSiblingIndex(std::uint64_t e, std::int32_t index) {
    guarded("UTransform.SetSiblingIndex", [&] {
        requireEntity(e);
        context().world->setSiblingIndex(ObjectId::unpack(e),
                                         static_cast<std::size_t>(std::max(index, 0)));
    });
}

// The entity and everything below it, parents first, in sibling order.
MonoArray* subtree(std::uint64_t e) {
    return guarded("UTransform hierarchy", [&]() -> MonoArray* {
        requireEntity(e);
        return idArray(context().world->subtree(ObjectId::unpack(e)));
    });
}

} // namespace

void registerHierarchyCalls(MonoRuntime& runtime) {
    const std::string c = "UEngine.UTransform::";
    runtime.registerInternalCall(c + "Internal_GetParent",
                                 reinterpret_cast<const void*>(&getParent));
    runtime.registerInternalCall(c + "Internal_SetParent",
                                 reinterpret_cast<const void*>(&setParent));
    runtime.registerInternalCall(c + "Internal_GetChildCount",
                                 reinterpret_cast<const void*>(&childCount));
    runtime.registerInternalCall(c + "Internal_GetChild", reinterpret_cast<const void*>(&childAt));
    runtime.registerInternalCall(c + "Internal_GetSiblingIndex",
                                 reinterpret_cast<const void*>(&getSiblingIndex));
    runtime.registerInternalCall(c + "Internal_SetSiblingIndex",
                                 reinterpret_cast<const void*>(&setSiblingIndex));
    runtime.registerInternalCall(c + "Internal_GetSubtree",
                                 reinterpret_cast<const void*>(&subtree));
}

} // namespace scripthost::glue
