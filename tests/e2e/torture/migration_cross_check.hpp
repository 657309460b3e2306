#pragma once
// The torture model's reload checked against the host's own field-migration rules
// (host/model/field_migration.hpp): the model stays independent, written from README.md, and
// where the two disagree about a script's fields after a reload, one of them is wrong.

#include "world_model.hpp"

#include <optional>
#include <string>

namespace scripthost::torture {

/// Runs migrateFields on every slot the reload from `before` to `after` (WorldModel::reload)
/// keeps live, on the same inputs expressed as the host's types, and compares each field's
/// value and the slot's parked values with the model's. The first disagreement, naming the
/// class, the slot and the field; nullopt when they agree.
[[nodiscard]] std::optional<std::string> migrationDisagreement(const WorldModel& before,
                                                               const WorldModel& after);

} // namespace scripthost::torture
