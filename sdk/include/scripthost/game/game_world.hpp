#pragma once
// GameWorld: the world as a game module (and a native script) sees it.

#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"
#include "scripthost/game/transform.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace scripthost::game {

/// The world as a game module sees it. Ids are the same ObjectIds scripts see as
/// m_NativeId, and they stay valid across reloads. Main thread only.
class GameWorld {
public:
    virtual ~GameWorld() = default;
    /// Live entities in creation order.
    [[nodiscard]] virtual std::vector<ObjectId> entities() const = 0;
    /// The first live entity with this name, or the null id.
    [[nodiscard]] virtual ObjectId findEntity(std::string_view name) const = 0;
    [[nodiscard]] virtual bool isAlive(ObjectId id) const = 0;
    /// The entity's name, or "" if it is not a live entity.
    [[nodiscard]] virtual std::string name(ObjectId entity) const = 0;
    /// The entity's local transform (modifiable): relative to its parent's, which for a root
    /// (most entities) is its world transform. nullptr if it is not a live entity.
    [[nodiscard]] virtual Transform* transform(ObjectId entity) = 0;
    /// The entity's world transform (its local one under each of its parents'; a copy, for
    /// drawing and distances). The identity transform if it is not a live entity.
    [[nodiscard]] virtual Transform worldTransform(ObjectId entity) const = 0;
    /// The entity's parent (Unity's transform.parent), or the null id for a root.
    [[nodiscard]] virtual ObjectId parent(ObjectId entity) const = 0;
    /// The entity's children in sibling order (empty if it is not a live entity).
    [[nodiscard]] virtual std::vector<ObjectId> children(ObjectId entity) const = 0;
    /// Makes `child` the last child of `parent` (the null id: a root). keepWorld: it stays
    /// where it is in the world (Unity's worldPositionStays). Fails, changing nothing, for a
    /// dead entity or a parent that is the child or lies below it.
    virtual Result<void> setParent(ObjectId child, ObjectId parent, bool keepWorld) = 0;
    /// Whether the entity has a native component of this kind.
    [[nodiscard]] virtual bool hasComponent(ObjectId entity, std::string_view kind) const = 0;
    /// The entity an id of a component or script belongs to (an entity id maps to itself).
    [[nodiscard]] virtual ObjectId entityOf(ObjectId id) const = 0;
    /// The C# class names of the entity's scripts.
    [[nodiscard]] virtual std::vector<std::string> scriptClasses(ObjectId entity) const = 0;
    /// Creates an entity (owned by the game, not by scripts).
    virtual ObjectId createEntity(std::string name, const Transform& transform) = 0;
    [[nodiscard]] virtual Result<ObjectId> addComponent(ObjectId entity, std::string kind) = 0;
    /// Destroys an entity (running its scripts' Destroy), component or script at the end
    /// of the frame.
    virtual void destroy(ObjectId id) = 0;
    /// Current value of an input action (0 when unset).
    [[nodiscard]] virtual float input(std::string_view action) const = 0;
    virtual void setInput(std::string action, float value) = 0;
};

} // namespace scripthost::game
