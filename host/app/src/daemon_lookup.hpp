#pragma once
// How control requests name entities (host/control/PROTOCOL.md, `entities`): by id, a packed
// number or "index:generation" ("3:1", "#3:1"), or by name (the first entity with it); and
// scripts: an entity and a class or id.

#include "control/protocol_error.hpp"
#include "host/model/world.hpp"

#include <expected>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string>

namespace scripthost {

/// An id as `entities` prints it: "index:generation".
inline std::string idText(ObjectId id) {
    return std::to_string(id.index) + ":" + std::to_string(id.generation);
}

/// A packed number or any text form ObjectId::fromText reads → an id; anything else → null id.
inline ObjectId parseId(const nlohmann::json& value) {
    if (value.is_number_unsigned())
        return ObjectId::unpack(value.get<std::uint64_t>());
    if (!value.is_string())
        return {};
    return ObjectId::fromText(value.get_ref<const std::string&>()).value_or(ObjectId{});
}

/// The live entity body[member] names (by id or name): bad_request when it names nothing an
/// entity could be, not_found when no entity is there.
inline std::expected<ObjectId, control::CommandError>
findEntityArg(const World& world, const nlohmann::json& body, const char* member) {
    namespace ec = control::error_code;
    auto arg = body.find(member);
    if (arg == body.end() || !(arg->is_string() || arg->is_number_unsigned()))
        return control::commandError(ec::badRequest, std::string("\"") + member +
                                                         "\" must be an entity name or id");
    ObjectId entity = parseId(*arg);
    if (entity.isNull() || !world.entity(entity))
        entity = arg->is_string() ? world.findEntity(arg->get<std::string>()) : ObjectId{};
    if (entity.isNull())
        return control::commandError(ec::notFound, "no entity " + arg->dump());
    return entity;
}

/// The script slot a request names, and the names it goes by.
struct FieldTarget {
    ObjectId slot;
    std::string entityName;
    std::string className;
};

/// The script body["entity"] and body["script"] name (get, set, watch): the entity by name
/// or id, the script by class (full or short name) or id. bad_request when they name nothing
/// a script could be; not_found when no such script is there or its class is missing.
inline std::expected<FieldTarget, control::CommandError> findScriptArg(const World& world,
                                                                       const nlohmann::json& body) {
    namespace ec = control::error_code;
    auto entity = findEntityArg(world, body, "entity");
    if (!entity)
        return std::unexpected(entity.error());
    const Entity& e = *world.entity(*entity);
    auto scriptArg = body.find("script");
    if (scriptArg == body.end() || !(scriptArg->is_string() || scriptArg->is_number_unsigned()))
        return control::commandError(ec::badRequest, "\"script\" must be a script class or id");
    const ObjectId byId = parseId(*scriptArg);
    for (ObjectId s : e.scripts) {
        const ScriptSlot& slot = *world.script(s);
        const bool match =
            s == byId || (scriptArg->is_string() &&
                          (slot.className == scriptArg->get_ref<const std::string&>() ||
                           slot.className.ends_with("." + scriptArg->get<std::string>())));
        if (!match)
            continue;
        if (slot.parked) {
            return control::commandError(ec::notFound,
                                         fmt::format("{} on '{}' is parked: its class is missing "
                                                     "from the current scripts",
                                                     slot.className, e.name));
        }
        return FieldTarget{s, e.name, slot.className};
    }
    std::string have;
    for (ObjectId s : e.scripts)
        have += (have.empty() ? "" : ", ") + world.script(s)->className;
    return control::commandError(ec::notFound,
                                 fmt::format("entity '{}' has no script {} (it has: {})", e.name,
                                             scriptArg->dump(), have.empty() ? "none" : have));
}

} // namespace scripthost
