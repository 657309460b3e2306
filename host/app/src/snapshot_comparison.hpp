#pragma once
// SnapshotComparison: whether two snapshots hold exactly the same values (smoke mode's
// check that a reload carried every [SerializeField] value over).

#include "host/model/snapshot.hpp"
#include "host/model/value.hpp"

#include <functional>
#include <string>
#include <vector>

namespace scripthost {

/// One difference between two snapshots.
struct SnapshotMismatch {
    std::string where;  ///< "Ball/Demo.BallScript.velocity", "static Demo.Counter.total"
    std::string before; ///< the value before (or "(missing)")
    std::string after;
};

/// What comparing two snapshots found.
struct SnapshotComparison {
    std::size_t scripts = 0; ///< scripts compared
    std::size_t fields = 0;  ///< fields compared (statics included)
    std::vector<SnapshotMismatch> mismatches;
    [[nodiscard]] bool identical() const noexcept { return mismatches.empty(); }
};

/// Exact equality of two values: same alternative, floats and doubles compared by their
/// bits (so NaN equals the same NaN, and 0.0 differs from -0.0), vectors component by
/// component the same way, lists element by element, references by id.
[[nodiscard]] bool sameValue(const Value& a, const Value& b) noexcept;

/// Names an entity for messages ("Ball"); given the entity's id.
using EntityNamer = std::function<std::string(ObjectId entity)>;

/// Compares `after` with `before` script by script (the same scripts, on the same
/// entities, in the same order, with the same classes) and field by field (the same
/// names, types and values), then the [PreserveStatic] statics.
[[nodiscard]] SnapshotComparison compareSnapshots(const Snapshot& before, const Snapshot& after,
                                                  const EntityNamer& entityName);

} // namespace scripthost
