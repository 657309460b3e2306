#include "host_game_world.hpp"

#include "host/engine/script_host.hpp"

namespace scripthost {

std::vector<ObjectId> HostGameWorld::entities() const {
    return host_.world().entities();
}

ObjectId HostGameWorld::findEntity(std::string_view name) const {
    return host_.world().findEntity(name);
}

bool HostGameWorld::isAlive(ObjectId id) const {
    return host_.world().isAlive(id);
}

std::string HostGameWorld::name(ObjectId entity) const {
    const Entity* e = host_.world().entity(entity);
    return e ? e->name : std::string();
}

Transform* HostGameWorld::transform(ObjectId entity) {
    Entity* e = host_.world().entity(entity);
    return e ? &e->transform : nullptr;
}

Transform HostGameWorld::worldTransform(ObjectId entity) const {
    return host_.world().worldTransform(entity);
}

ObjectId HostGameWorld::parent(ObjectId entity) const {
    const Entity* e = host_.world().entity(entity);
    return e ? e->parent : ObjectId{};
}

std::vector<ObjectId> HostGameWorld::children(ObjectId entity) const {
    const Entity* e = host_.world().entity(entity);
    return e ? e->children : std::vector<ObjectId>{};
}

Result<void> HostGameWorld::setParent(ObjectId child, ObjectId parent, bool keepWorld) {
    return host_.reparent(child, parent, keepWorld);
}

bool HostGameWorld::hasComponent(ObjectId entity, std::string_view kind) const {
    const World& world = host_.world();
    const Entity* e = world.entity(entity);
    if (e == nullptr)
        return false;
    for (ObjectId c : e->components) {
        if (world.component(c)->kind == kind)
            return true;
    }
    return false;
}

ObjectId HostGameWorld::entityOf(ObjectId id) const {
    return host_.world().entityOf(id);
}

std::vector<std::string> HostGameWorld::scriptClasses(ObjectId entity) const {
    std::vector<std::string> classes;
    const World& world = host_.world();
    if (const Entity* e = world.entity(entity)) {
        for (ObjectId s : e->scripts)
            classes.push_back(world.script(s)->className);
    }
    return classes;
}

ObjectId HostGameWorld::createEntity(std::string name, const Transform& transform) {
    return host_.world().createEntity(std::move(name), transform);
}

Result<ObjectId> HostGameWorld::addComponent(ObjectId entity, std::string kind) {
    return host_.world().addComponent(entity, std::move(kind));
}

void HostGameWorld::destroy(ObjectId id) {
    host_.queueDestroy(id);
}

float HostGameWorld::input(std::string_view action) const {
    return host_.input().get(action);
}

void HostGameWorld::setInput(std::string action, float value) {
    host_.input().set(std::move(action), value);
}

} // namespace scripthost
