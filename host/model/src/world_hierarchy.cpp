// World's hierarchy: parents, children, sibling order, world transforms, activeInHierarchy.
// Every walk is a loop, never a recursion: a script can nest entities as deep as it likes.
#include "host/model/transform_space.hpp"
#include "host/model/world.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <glm/gtc/quaternion.hpp>

namespace scripthost {

namespace {

// `from` and the entities below it reached through children `follow` accepts: depth first,
// parents before their children, in sibling order. A loop with its own stack.
template <typename Follow>
std::vector<ObjectId> descend(const World& world, ObjectId from, Follow follow) {
    std::vector<ObjectId> found;
    if (world.entity(from) == nullptr)
        return found;
    std::vector<ObjectId> pending{from};
    while (!pending.empty()) {
        const ObjectId next = pending.back();
        pending.pop_back();
        found.push_back(next);
        const std::vector<ObjectId>& children = world.entity(next)->children;
        for (auto it = children.rbegin(); it != children.rend(); ++it) {
            if (follow(*world.entity(*it)))
                pending.push_back(*it);
        }
    }
    return found;
}

} // namespace

Result<std::vector<ObjectId>> World::setParent(ObjectId child, ObjectId parent, bool keepWorld) {
    Entity* moved = entity(child);
    if (moved == nullptr)
        return fail(fmt::format("entity {} does not exist", child.toString()));
    if (!parent.isNull()) {
        const Entity* to = entity(parent);
        if (to == nullptr) {
            return fail(fmt::format("cannot make \"{}\" a child of {}: no such entity", moved->name,
                                    parent.toString()));
        }
        if (isWithin(parent, child)) {
            return fail(fmt::format("cannot make \"{}\" a child of \"{}\": {}", moved->name,
                                    to->name,
                                    parent == child ? "an entity cannot be its own parent"
                                                    : "the parent lies below it"));
        }
    }
    if (moved->parent == parent)
        return std::vector<ObjectId>{};
    const Transform world = worldTransform(child);
    const bool wasActive = activeInHierarchy(child);
    if (Entity* old = entity(moved->parent))
        std::erase(old->children, child);
    moved->parent = parent;
    if (Entity* to = entity(parent))
        to->children.push_back(child);
    if (keepWorld)
        moved->transform = parent.isNull() ? world : toLocal(worldTransform(parent), world);
    epoch_.advance(); // direct access to its transform reads world space only for roots
    return wasActive != activeInHierarchy(child) ? activeFollowers(child) : std::vector<ObjectId>{};
}

bool World::setSiblingIndex(ObjectId child, std::size_t index) {
    const Entity* moved = entity(child);
    Entity* parent = moved != nullptr ? entity(moved->parent) : nullptr;
    if (parent == nullptr)
        return false;
    std::vector<ObjectId>& siblings = parent->children;
    std::erase(siblings, child);
    siblings.insert(
        siblings.begin() + static_cast<std::ptrdiff_t>(std::min(index, siblings.size())), child);
    return true;
}

std::size_t World::siblingIndex(ObjectId child) const noexcept {
    const Entity* e = entity(child);
    const Entity* parent = e != nullptr ? entity(e->parent) : nullptr;
    if (parent == nullptr)
        return 0;
    const auto at = std::find(parent->children.begin(), parent->children.end(), child);
    return static_cast<std::size_t>(at - parent->children.begin());
}

Transform World::worldTransform(ObjectId id) const noexcept {
    const Entity* e = entity(id);
    if (e == nullptr)
        return {};
    Transform world = e->transform;
    for (const Entity* p = entity(e->parent); p != nullptr; p = entity(p->parent))
        world = toWorld(p->transform, world);
    return world;
}

bool World::setWorldPosition(ObjectId id, const glm::vec3& position) noexcept {
    Entity* e = entity(id);
    if (e == nullptr)
        return false;
    if (e->parent.isNull()) {
        e->transform.position = position;
        return true;
    }
    const Transform parentWorld = worldTransform(e->parent);
    Transform world = toWorld(parentWorld, e->transform);
    world.position = position;
    e->transform.position = toLocal(parentWorld, world).position;
    return true;
}

bool World::setWorldRotation(ObjectId id, const glm::quat& rotation) noexcept {
    Entity* e = entity(id);
    if (e == nullptr)
        return false;
    if (e->parent.isNull()) {
        e->transform.rotation = rotation;
        return true;
    }
    e->transform.rotation =
        glm::normalize(glm::inverse(worldTransform(e->parent).rotation) * rotation);
    return true;
}

bool World::activeInHierarchy(ObjectId id) const noexcept {
    const Entity* e = entity(id);
    if (e == nullptr)
        return false;
    for (; e != nullptr; e = entity(e->parent)) {
        if (!e->active)
            return false;
    }
    return true;
}

std::vector<ObjectId> World::setActive(ObjectId id, bool active) {
    Entity* e = entity(id);
    if (e == nullptr || e->active == active)
        return {};
    const bool before = activeInHierarchy(id);
    e->active = active;
    return before != activeInHierarchy(id) ? activeFollowers(id) : std::vector<ObjectId>{};
}

std::vector<ObjectId> World::activeFollowers(ObjectId id) const {
    return descend(*this, id, [](const Entity& child) { return child.active; });
}

bool World::isWithin(ObjectId id, ObjectId ancestor) const noexcept {
    if (ancestor.isNull())
        return false;
    for (const Entity* e = entity(id); e != nullptr; id = e->parent, e = entity(id)) {
        if (id == ancestor)
            return true;
    }
    return false;
}

std::vector<ObjectId> World::subtree(ObjectId id) const {
    return descend(*this, id, [](const Entity&) { return true; });
}

} // namespace scripthost
