#pragma once
// World: the host's native objects — entities, native components and script slots.

#include "host/model/world_epoch.hpp"
#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"
#include "scripthost/game/transform.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace scripthost {

/// A named thing in the game with a transform, native components and scripts.
struct Entity {
    std::string name;
    Transform transform;
    std::vector<ObjectId> components; ///< native components, in the order added
    std::vector<ObjectId> scripts;    ///< script slots, in the order added
    /// Made by a script (new UEntity): destroyed once the scripts let go of it.
    bool ownedByScripts = false;
    /// Unity's activeSelf: an inactive entity's scripts get no messages (Update, FixedUpdate,
    /// LateUpdate, Start; Awake waits for the first activation) and their coroutines stop.
    bool active = true;
    /// Unity's tag (CompareTag, FindWithTag); empty is Unity's "Untagged".
    std::string tag;
    /// The entity this one is a child of (Unity's transform.parent); the null id for a root.
    /// A child's `transform` is local: relative to its parent's (World::worldTransform).
    ObjectId parent;
    /// Its children, in sibling order (Unity's GetChild(i)).
    std::vector<ObjectId> children;
};

/// A native component ("Camera", "Render", or a kind a game module registers).
struct NativeComponent {
    ObjectId entity;
    std::string kind;
};

/// A slot that holds one script instance of a C# class on an entity. The slot is
/// native and survives reloads; the managed instance in it is rebuilt by each one.
struct ScriptSlot {
    ObjectId entity;
    std::string className; ///< full C# name, e.g. "Demo.Spinner"
    bool enabled = true;   ///< false once the host disabled it after repeated failures
    /// The script set its own `enabled` to false (Unity's MonoBehaviour.enabled): its messages
    /// do not run. Unlike `enabled`, a reload keeps it and the state file saves it.
    bool disabledByScript = false;
    /// The class is missing from the current generation: the slot has no instance and
    /// its saved values wait (in the host) for the class to come back.
    bool parked = false;
    /// A game module's native script class: its object lives in NativeScripts, not in a
    /// script generation (false while parked).
    bool native = false;
    /// The Unity messages (UnityMessage bits: Awake, Start) the script is still owed: set and
    /// cleared by the dispatcher, so a reload before its first frame or its entity's first
    /// activation still calls them once. Not in the state file: a restored script is new.
    std::uint32_t messagesDue = 0;
};

/// What kind of object an id names.
enum class ObjectKind { None, Entity, Component, Script };

/// Owns every local object. All ids come from one generational index space, so an id
/// names exactly one object of one kind, and a destroyed id never aliases a new object.
/// Not thread-safe: the world belongs to the main thread.
class World {
public:
    /// Creates an entity and returns its id.
    ObjectId createEntity(std::string name, const Transform& transform = {});
    /// Adds a native component of `kind` to a live entity.
    [[nodiscard]] Result<ObjectId> addComponent(ObjectId entity, std::string kind);
    /// Adds a script slot for C# class `className` to a live entity.
    [[nodiscard]] Result<ObjectId> addScript(ObjectId entity, std::string className);
    /// Destroys an object; destroying an entity destroys its children (deepest first), its
    /// components and its scripts too. Returns false for a null, stale or already destroyed id.
    bool destroy(ObjectId id);

    // The hierarchy (world_hierarchy.cpp). An entity's `transform` is local; a root's local
    // transform is its world transform.

    /// Makes `child` the last child of `parent`, or a root for the null id. keepWorld (Unity's
    /// worldPositionStays): its world position, rotation and scale stay and its local transform
    /// changes; else its local transform stays and it moves with its new parent. Refused, with
    /// nothing changed: a child or parent that is not a live entity, or a parent that is the
    /// child or lies below it. Returns the entities whose activeInHierarchy changed with the
    /// move (activeFollowers of the child), or none.
    [[nodiscard]] Result<std::vector<ObjectId>> setParent(ObjectId child, ObjectId parent,
                                                          bool keepWorld = true);
    /// Moves a child to `index` among its parent's children (past the end: the last); false
    /// for a root or a dead id.
    bool setSiblingIndex(ObjectId child, std::size_t index);
    /// Its index among its parent's children (0 for a root or a dead id).
    [[nodiscard]] std::size_t siblingIndex(ObjectId child) const noexcept;
    /// The entity's world transform: its local one under each of its parents'. The identity
    /// transform for a dead id.
    [[nodiscard]] Transform worldTransform(ObjectId entity) const noexcept;
    /// Places a live entity in world space, whatever its parents: its local transform
    /// changes. False for a dead id.
    bool setWorldPosition(ObjectId entity, const glm::vec3& position) noexcept;
    bool setWorldRotation(ObjectId entity, const glm::quat& rotation) noexcept;
    /// Unity's activeInHierarchy: the entity and each of its parents are active.
    [[nodiscard]] bool activeInHierarchy(ObjectId entity) const noexcept;
    /// Sets an entity's activeSelf. Returns the entities whose activeInHierarchy changed
    /// with it (activeFollowers), or nothing when it did not change.
    std::vector<ObjectId> setActive(ObjectId entity, bool active);
    /// The entity and those below it whose activeInHierarchy is the entity's: the ones
    /// reached through active children only; parents first.
    [[nodiscard]] std::vector<ObjectId> activeFollowers(ObjectId entity) const;
    /// Whether `entity` is `ancestor` or lies below it (Unity's IsChildOf).
    [[nodiscard]] bool isWithin(ObjectId entity, ObjectId ancestor) const noexcept;
    /// The entity and everything below it, parents before their children (depth first, in
    /// sibling order); empty for a dead id.
    [[nodiscard]] std::vector<ObjectId> subtree(ObjectId entity) const;

    [[nodiscard]] bool isAlive(ObjectId id) const noexcept;
    [[nodiscard]] ObjectKind kindOf(ObjectId id) const noexcept;

    /// The object behind `id` if it is alive and of that kind, else nullptr.
    /// (Inline: internal calls look entities up on their hot path.)
    [[nodiscard]] Entity* entity(ObjectId id) noexcept;
    [[nodiscard]] const Entity* entity(ObjectId id) const noexcept;
    [[nodiscard]] NativeComponent* component(ObjectId id) noexcept;
    [[nodiscard]] const NativeComponent* component(ObjectId id) const noexcept;
    [[nodiscard]] ScriptSlot* script(ObjectId id) noexcept;
    [[nodiscard]] const ScriptSlot* script(ObjectId id) const noexcept;

    /// The entity an object belongs to: an entity itself, a component's or a script's entity;
    /// the null id when `id` is not alive.
    [[nodiscard]] ObjectId entityOf(ObjectId id) const noexcept;
    /// Live entities with this tag, in creation order ("Untagged" and "" name the untagged).
    [[nodiscard]] std::vector<ObjectId> entitiesWithTag(std::string_view tag) const;

    /// Live entities in creation order.
    [[nodiscard]] std::vector<ObjectId> entities() const;
    /// The first live entity with this name, or the null id.
    [[nodiscard]] ObjectId findEntity(std::string_view name) const;

    [[nodiscard]] std::size_t entityCount() const noexcept { return entityCount_; }
    /// Changes whenever a pointer to an entity (or its transform) may have gone stale.
    [[nodiscard]] const WorldEpoch& epoch() const noexcept { return epoch_; }
    [[nodiscard]] std::size_t scriptCount() const noexcept { return scriptCount_; }

private:
    using Payload = std::variant<std::monostate, Entity, NativeComponent, ScriptSlot>;
    struct Record {
        std::uint32_t generation = 0; // of the current or last occupant
        std::uint64_t order = 0;      // creation order, for stable iteration
        Payload payload;              // monostate when the slot is free
    };

    ObjectId allocate(Payload payload);
    [[nodiscard]] Record* live(ObjectId id) noexcept;
    template <typename T> [[nodiscard]] T* payload(ObjectId id) noexcept;
    template <typename T> [[nodiscard]] const T* payload(ObjectId id) const noexcept;
    [[nodiscard]] const Record* live(ObjectId id) const noexcept;

    std::vector<Record> records_;
    std::vector<std::uint32_t> freeIndices_;
    std::uint64_t nextOrder_ = 0;
    std::size_t entityCount_ = 0;
    std::size_t scriptCount_ = 0;
    WorldEpoch epoch_;
};

inline Entity* World::entity(ObjectId id) noexcept {
    if (id.isNull() || id.index >= records_.size())
        return nullptr;
    Record& record = records_[id.index];
    return record.generation == id.generation ? std::get_if<Entity>(&record.payload) : nullptr;
}

} // namespace scripthost
