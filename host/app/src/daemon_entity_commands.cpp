// The daemon's control commands that change an entity itself (host/control/PROTOCOL.md,
// `active` and `parent`): run between frames, and the entity's scripts (and those below it)
// are told, as UEntity.SetActive and UTransform.SetParent tell them from C#.

#include "daemon.hpp"
#include "daemon_lookup.hpp"

namespace scripthost {

namespace {

namespace ec = control::error_code;
using control::commandError;
using control::CommandResult;
using nlohmann::json;

json entityState(const World& world, ObjectId id) {
    const Entity& e = *world.entity(id);
    return json{{"id", idText(id)},
                {"name", e.name},
                {"active", e.active},
                {"activeInHierarchy", world.activeInHierarchy(id)},
                {"parent", e.parent.isNull() ? json() : json(idText(e.parent))}};
}

} // namespace

CommandResult Daemon::setEntityActive(const json& body) {
    auto entity = findEntityArg(host_->world(), body, "entity");
    if (!entity)
        return std::unexpected(entity.error());
    auto value = body.find("value");
    if (value == body.end() || !value->is_boolean())
        return commandError(ec::badRequest, "\"value\" must be true or false");
    if (auto set = host_->setEntityActive(*entity, value->get<bool>()); !set)
        return commandError(ec::internal, set.error().message);
    return entityState(host_->world(), *entity);
}

CommandResult Daemon::setEntityParent(const json& body) {
    const World& world = host_->world();
    auto entity = findEntityArg(world, body, "entity");
    if (!entity)
        return std::unexpected(entity.error());
    auto parentArg = body.find("parent");
    if (parentArg == body.end())
        return commandError(ec::badRequest, "\"parent\" must be an entity name or id, or null");
    ObjectId parent;
    if (!parentArg->is_null()) {
        auto found = findEntityArg(world, body, "parent");
        if (!found)
            return std::unexpected(found.error());
        parent = *found;
    }
    bool keepWorld = true;
    if (auto keep = body.find("keepWorld"); keep != body.end()) {
        if (!keep->is_boolean())
            return commandError(ec::badRequest, "\"keepWorld\" must be true or false");
        keepWorld = keep->get<bool>();
    }
    if (auto moved = host_->reparent(*entity, parent, keepWorld); !moved)
        return commandError(ec::badValue, moved.error().message);
    return entityState(world, *entity);
}

} // namespace scripthost
