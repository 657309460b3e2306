#pragma once
// Value: a script field's value outside any app domain, and its type.

#include "host/error.hpp"

#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace scripthost {

/// The kinds of field value the host can read, write and save.
enum class ValueKind {
    Bool,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Float,
    Double,
    String,
    Enum,
    Vector2,
    Vector3,
    Vector4,
    Quaternion,
    Unsupported, ///< a type the host cannot carry yet (kept in the schema, never written)
};

/// Lower-case name of a kind as used in scene files ("int32", "vector3", …).
[[nodiscard]] std::string_view kindName(ValueKind kind) noexcept;

/// The type of a field: its kind, the C# type name, and for enums the members.
struct FieldType {
    ValueKind kind = ValueKind::Int32;
    std::string typeName; ///< C# full name, e.g. "System.Single" or "Demo.Mood"
    std::vector<std::pair<std::string, std::int64_t>> enumMembers; ///< enums only
};

/// A field value. Signed integers and enums are held as int64, unsigned as uint64,
/// so every width round-trips exactly; the FieldType says what the field really is.
using Value = std::variant<bool, std::int64_t, std::uint64_t, float, double, std::string, glm::vec2,
                           glm::vec3, glm::vec4, glm::quat>;

/// Converts a scene-file JSON value to a value of `type`. Numbers must fit the field's
/// type exactly (a 300 into a byte field is an error, not a wrap-around); enums accept a
/// member name or an integer; vectors are arrays ([x, y, z]), quaternions [x, y, z, w];
/// floats also accept "nan", "inf" and "-inf".
[[nodiscard]] Result<Value> valueFromJson(const nlohmann::json& json, const FieldType& type);

/// The scene-file JSON form of a value (the inverse of valueFromJson).
[[nodiscard]] nlohmann::json valueToJson(const Value& value, const FieldType& type);

/// A short human-readable rendering, for logs and test messages.
[[nodiscard]] std::string describe(const Value& value);

} // namespace scripthost
