#pragma once
// Safe conversions of a saved value to a field whose type changed between reloads.

#include "host/model/value.hpp"
#include "scripthost/game/error.hpp"

namespace scripthost {

/// Converts `value` (saved as type `from`) to type `to`, only where nothing is lost:
/// numeric ↔ numeric when the value fits exactly (3.0 → 3, 3 → 3.0f, 300 ↛ byte,
/// 0.1 ↛ float), enum ↔ enum by member name, enum ↔ integer when the integer is a
/// member, enum ↔ string by member name, array ↔ list and element-wise conversion.
/// Anything else is an error saying why; the caller keeps the new default then.
[[nodiscard]] Result<Value> convertValue(const Value& value, const FieldType& from,
                                         const FieldType& to);

/// Whether two field types hold the same values without conversion.
[[nodiscard]] bool sameShape(const FieldType& a, const FieldType& b);

} // namespace scripthost
