#pragma once
// Value: a script field's value outside any app domain, and its type.

#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"

#include <cstdint>
#include <functional>
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
    ObjectRef,   ///< a reference to an entity, a native component or a script
    Array,       ///< T[] of a scalar, string, enum, vector or reference element
    List,        ///< System.Collections.Generic.List<T>, same elements as Array
    Record,      ///< a [Serializable] struct or class: its members, in order
    Unsupported, ///< a type the host cannot carry yet (kept in the schema, never written)
};

/// Lower-case name of a kind as used in scene files ("int32", "vector3", …).
[[nodiscard]] std::string_view kindName(ValueKind kind) noexcept;

struct MemberType;

/// What an ObjectRef field may point at.
enum class RefTarget { Entity, Component, Script };

/// The type of a field: its kind, the C# type name, for enums the members, for arrays
/// and lists the element type, for references what they point at.
struct FieldType {
    ValueKind kind = ValueKind::Int32;
    std::string typeName; ///< C# full name, e.g. "System.Single" or "Demo.Mood"
    std::vector<std::pair<std::string, std::int64_t>> enumMembers; ///< enums only
    std::vector<FieldType> element;          ///< Array and List: exactly one, the element type
    RefTarget refTarget = RefTarget::Entity; ///< ObjectRef only
    std::vector<MemberType> members;         ///< Record only: the serialised members, in order
    bool recordIsClass = false;              ///< Record only: a class (may be null), not a struct

    [[nodiscard]] const FieldType& elementType() const { return element.at(0); }
    bool operator==(const FieldType&) const = default;
};

/// One serialised member of a [Serializable] struct or class.
struct MemberType {
    std::string name;
    FieldType type;
    std::vector<std::string> formerNames{}; ///< from [FormerlySerializedAs] on the member
    bool operator==(const MemberType&) const = default;
};

/// A reference to a local object; the null id is a null reference.
struct ObjectRef {
    ObjectId id;
    bool operator==(const ObjectRef&) const = default;
};

/// A record member a reload's migration has no value for (the member is new, or its old
/// value could not convert and was parked): whoever writes the record keeps what the new code
/// constructs there. Found only inside a migrated Record value (field_migration.hpp), never
/// in a snapshot, a scene or a parked value.
struct KeepDefault {
    bool operator==(const KeepDefault&) const = default;
};

struct Value;
/// The elements of an Array or List value.
using ValueList = std::vector<Value>;

/// A field value, outside any app domain. Signed integers and enums are held as int64,
/// unsigned as uint64, so every width round-trips exactly; the FieldType says what the
/// field really is. References are ObjectIds; arrays and lists are ValueLists; a record
/// ([Serializable] struct or class) is a ValueList of its members in the type's order
/// (an empty one for a null class instance); a member of a migrated record may be KeepDefault.
struct Value
    : std::variant<bool, std::int64_t, std::uint64_t, float, double, std::string, glm::vec2,
                   glm::vec3, glm::vec4, glm::quat, ObjectRef, ValueList, KeepDefault> {
    using variant::variant;
    using variant::operator=;
};

/// Resolves a scene file's reference object ({"entity": "Ball"}, optionally with
/// "component": "Camera" or "script": "Demo.BallScript") to an id.
using RefResolver = std::function<Result<ObjectId>(const nlohmann::json& reference)>;

/// Converts a scene-file JSON value to a value of `type`. Numbers must fit the field's
/// type exactly (a 300 into a byte field is an error, not a wrap-around); enums accept a
/// member name or an integer; vectors are arrays ([x, y, z]), quaternions [x, y, z, w];
/// floats also accept "nan", "inf" and "-inf"; arrays and lists are JSON arrays;
/// references are null, {"id": packed} or, through `resolve`, a named reference.
[[nodiscard]] Result<Value> valueFromJson(const nlohmann::json& json, const FieldType& type,
                                          const RefResolver& resolve = {});

/// The scene-file JSON form of a value (the inverse of valueFromJson; references are
/// written as {"id": packed}).
[[nodiscard]] nlohmann::json valueToJson(const Value& value, const FieldType& type);

/// Nulls every reference in `value` (inside arrays, lists and records too) that `keep`
/// rejects, e.g. ids of destroyed objects. Returns how many it nulled.
std::size_t clearReferences(Value& value, const std::function<bool(ObjectId)>& keep);

/// A short human-readable rendering, for logs and test messages.
[[nodiscard]] std::string describe(const Value& value);

} // namespace scripthost
