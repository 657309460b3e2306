#pragma once
// The torture test's own idea of a serialised field: its C# type, a value of it, and the
// conversions README.md ("Hot reload") promises — written from the documented rules, not
// from the host's code, so the host can disagree with it.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

namespace scripthost::torture {

/// The C# field types the generator uses.
enum class FieldKind {
    Int,
    Long,
    Float,
    Double,
    String,
    Bool,
    Mood,
    Vector3,
    EntityRef,
    ScriptRef
};

/// `Mood`, the enum every generated script shares (members in declaration order).
struct MoodMember {
    const char* name;
    std::int64_t value;
};
inline constexpr MoodMember kMoodMembers[] = {{"Calm", 0}, {"Happy", 1}, {"Angry", 5}};

/// An object the world holds: an entity (index into the scene's entities) or a script slot.
struct ObjectRef {
    bool isScript = false;
    int index = -1; ///< entity index, or slot index
    bool operator==(const ObjectRef&) const = default;
};

struct Vec3 {
    float x = 0, y = 0, z = 0;
    bool operator==(const Vec3& o) const; // bitwise, so -0 and NaN are told apart
};

/// A field's value in the model. Enums are kept by member name (they are only ever set to
/// members); references as the object they point at, or none.
using ModelValue =
    std::variant<std::int64_t, float, double, std::string, bool, Vec3, std::optional<ObjectRef>>;

[[nodiscard]] const char* csharpType(FieldKind kind);
/// The value kind name the host reports in `get` (`type`).
[[nodiscard]] const char* hostKindName(FieldKind kind);
[[nodiscard]] const char* kindLabel(FieldKind kind);

/// A random value of `kind`: chosen to hit both sides of every conversion (whole and
/// fractional floats, integers beyond 2^24 and beyond int32, names of enum members and not).
[[nodiscard]] ModelValue randomValue(FieldKind kind, std::mt19937& rng, int entityCount,
                                     const std::vector<int>& liveSlots);

/// The value as a C# expression (a field initialiser).
[[nodiscard]] std::string csharpLiteral(FieldKind kind, const ModelValue& value);

/// Converts a value of `from` into `to` the way README.md says a reload does: numbers only
/// when they fit exactly, enums by member name, enum <-> string, enum <-> integer members.
/// nullopt: it does not fit (the host keeps the new default and parks the old value).
[[nodiscard]] std::optional<ModelValue> convert(const ModelValue& value, FieldKind from,
                                                FieldKind to);

/// Maps a model reference to the host's packed object id.
struct IdTable {
    std::vector<std::uint64_t> entities; ///< packed id per entity index
    std::vector<std::uint64_t> slots;    ///< packed id per slot index
};

/// The value in the control protocol's encoding (for `set`).
[[nodiscard]] nlohmann::json toJson(FieldKind kind, const ModelValue& value, const IdTable& ids);
/// Whether the host's JSON `actual` is `expected`, exactly (floats bit for bit).
[[nodiscard]] bool matches(FieldKind kind, const ModelValue& expected, const nlohmann::json& actual,
                           const IdTable& ids);
[[nodiscard]] std::string describe(FieldKind kind, const ModelValue& value);

} // namespace scripthost::torture
