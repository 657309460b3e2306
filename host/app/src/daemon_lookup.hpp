#pragma once
// How control requests name entities (host/control/PROTOCOL.md, `entities`): by id, a packed
// number or "index:generation" ("3:1", "#3:1"), or by name (the first entity with it).

#include "control/protocol_error.hpp"
#include "host/model/world.hpp"

#include <expected>
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

} // namespace scripthost
