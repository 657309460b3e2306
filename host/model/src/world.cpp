#include "host/model/world.hpp"

#include <algorithm>
#include <utility>

namespace scripthost {

ObjectId World::allocate(Payload payload) {
    std::uint32_t index;
    if (!freeIndices_.empty()) {
        index = freeIndices_.back();
        freeIndices_.pop_back();
    } else {
        index = static_cast<std::uint32_t>(records_.size());
        if (records_.size() == records_.capacity()) {
            epoch_.advance(); // every entity is about to move
        }
        records_.emplace_back();
    }
    Record& record = records_[index];
    // Generation 0 is the null id; skip it when the counter wraps.
    if (++record.generation == 0) {
        record.generation = 1;
    }
    record.order = nextOrder_++;
    record.payload = std::move(payload);
    return ObjectId{index, record.generation};
}

World::Record* World::live(ObjectId id) noexcept {
    return const_cast<Record*>(std::as_const(*this).live(id));
}

const World::Record* World::live(ObjectId id) const noexcept {
    if (id.isNull() || id.index >= records_.size()) {
        return nullptr;
    }
    const Record& record = records_[id.index];
    if (record.generation != id.generation ||
        std::holds_alternative<std::monostate>(record.payload)) {
        return nullptr;
    }
    return &record;
}

ObjectId World::createEntity(std::string name, const Transform& transform) {
    ++entityCount_;
    Entity entity;
    entity.name = std::move(name);
    entity.transform = transform;
    return allocate(std::move(entity));
}

Result<ObjectId> World::addComponent(ObjectId entityId, std::string kind) {
    if (entity(entityId) == nullptr) {
        return fail("cannot add a " + kind + " component: entity " + entityId.toString() +
                    " does not exist");
    }
    ObjectId id = allocate(NativeComponent{entityId, std::move(kind)});
    entity(entityId)->components.push_back(id); // re-fetch: allocate may grow records_
    return id;
}

Result<ObjectId> World::addScript(ObjectId entityId, std::string className) {
    if (entity(entityId) == nullptr) {
        return fail("cannot add script " + className + ": entity " + entityId.toString() +
                    " does not exist");
    }
    ObjectId id = allocate(ScriptSlot{entityId, std::move(className), true});
    entity(entityId)->scripts.push_back(id);
    ++scriptCount_;
    return id;
}

bool World::destroy(ObjectId id) {
    Record* record = live(id);
    if (record == nullptr) {
        return false;
    }
    auto forget = [](std::vector<ObjectId>& ids, ObjectId gone) {
        ids.erase(std::remove(ids.begin(), ids.end(), gone), ids.end());
    };
    if (auto* e = std::get_if<Entity>(&record->payload)) {
        // Its children first, deepest first (so none recurses further); then its components
        // and scripts. Copy the lists because destroy() edits them.
        const std::vector<ObjectId> below = subtree(id);
        for (auto it = below.rbegin(); it + 1 < below.rend(); ++it)
            destroy(*it);
        if (Entity* parent = entity(e->parent))
            forget(parent->children, id);
        const auto components = e->components;
        const auto scripts = e->scripts;
        for (ObjectId c : components) {
            destroy(c);
        }
        for (ObjectId s : scripts) {
            destroy(s);
        }
        --entityCount_;
        epoch_.advance(); // its slot may go to another object
    } else if (auto* c = std::get_if<NativeComponent>(&record->payload)) {
        if (Entity* owner = entity(c->entity)) {
            forget(owner->components, id);
        }
    } else if (auto* s = std::get_if<ScriptSlot>(&record->payload)) {
        if (Entity* owner = entity(s->entity)) {
            forget(owner->scripts, id);
        }
        --scriptCount_;
    }
    records_[id.index].payload = std::monostate{};
    freeIndices_.push_back(id.index);
    return true;
}

bool World::isAlive(ObjectId id) const noexcept {
    return live(id) != nullptr;
}

ObjectKind World::kindOf(ObjectId id) const noexcept {
    const Record* record = live(id);
    if (record == nullptr) {
        return ObjectKind::None;
    }
    switch (record->payload.index()) {
    case 1:
        return ObjectKind::Entity;
    case 2:
        return ObjectKind::Component;
    case 3:
        return ObjectKind::Script;
    default:
        return ObjectKind::None;
    }
}

template <typename T> T* World::payload(ObjectId id) noexcept {
    Record* r = live(id);
    return r ? std::get_if<T>(&r->payload) : nullptr;
}
template <typename T> const T* World::payload(ObjectId id) const noexcept {
    const Record* r = live(id);
    return r ? std::get_if<T>(&r->payload) : nullptr;
}

const Entity* World::entity(ObjectId id) const noexcept {
    return payload<Entity>(id);
}
NativeComponent* World::component(ObjectId id) noexcept {
    return payload<NativeComponent>(id);
}
const NativeComponent* World::component(ObjectId id) const noexcept {
    return payload<NativeComponent>(id);
}
ScriptSlot* World::script(ObjectId id) noexcept {
    return payload<ScriptSlot>(id);
}
const ScriptSlot* World::script(ObjectId id) const noexcept {
    return payload<ScriptSlot>(id);
}

std::vector<ObjectId> World::entities() const {
    std::vector<std::pair<std::uint64_t, ObjectId>> ordered;
    ordered.reserve(entityCount_);
    for (std::uint32_t i = 0; i < records_.size(); ++i) {
        if (std::holds_alternative<Entity>(records_[i].payload)) {
            ordered.emplace_back(records_[i].order, ObjectId{i, records_[i].generation});
        }
    }
    std::sort(ordered.begin(), ordered.end());
    std::vector<ObjectId> ids;
    ids.reserve(ordered.size());
    for (const auto& [order, id] : ordered) {
        ids.push_back(id);
    }
    return ids;
}

ObjectId World::entityOf(ObjectId id) const noexcept {
    const Record* record = live(id);
    if (record == nullptr)
        return {};
    if (const auto* component = std::get_if<NativeComponent>(&record->payload))
        return component->entity;
    if (const auto* script = std::get_if<ScriptSlot>(&record->payload))
        return script->entity;
    return id;
}

std::vector<ObjectId> World::entitiesWithTag(std::string_view tag) const {
    if (tag == "Untagged")
        tag = {};
    std::vector<ObjectId> found;
    for (ObjectId id : entities()) {
        if (entity(id)->tag == tag)
            found.push_back(id);
    }
    return found;
}

ObjectId World::findEntity(std::string_view name) const {
    // One pass, no sorting: the earliest-created live entity with that name.
    const Record* best = nullptr;
    std::uint32_t bestIndex = 0;
    for (std::uint32_t i = 0; i < records_.size(); ++i) {
        const auto* e = std::get_if<Entity>(&records_[i].payload);
        if (e != nullptr && e->name == name &&
            (best == nullptr || records_[i].order < best->order)) {
            best = &records_[i];
            bestIndex = i;
        }
    }
    return best ? ObjectId{bestIndex, best->generation} : ObjectId{};
}

} // namespace scripthost
