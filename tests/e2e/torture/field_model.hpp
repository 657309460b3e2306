#pragma once
// The torture test's own idea of a serialised field: its C# type, a value of it, and the
// conversions README.md ("Hot reload") promises — written from the documented rules, not
// from the host's code, so the host can disagree with it.

#include <cstdint>
#include <memory>
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
    Mood, ///< the shared enum, whose members the generator edits
    Vector3,
    EntityRef,
    ScriptRef,
    TransformRef, ///< a UTransform field: a reference to an entity, saved as the entity
    IntArray,     ///< int[]
    IntList,      ///< List<int>
    Loadout,      ///< the shared [Serializable] class, whose members the generator edits
    LoadoutList,  ///< List<Loadout>
};

/// A member of `Mood`, the enum every generated script shares.
struct MoodMember {
    std::string name;
    std::int64_t value = 0;
    bool operator==(const MoodMember&) const = default;
};

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

struct Record;

/// A field's value in the model. Enums are kept by member name (they are only ever set to
/// members); references as the object they point at, or none; int arrays and lists as their
/// elements; a Loadout as one Record, a List<Loadout> as its Records.
using ModelValue =
    std::variant<std::int64_t, float, double, std::string, bool, Vec3, std::optional<ObjectRef>,
                 std::vector<std::int64_t>, std::vector<Record>>;

/// A Loadout's member values, in the order of the Loadout type it was saved with.
struct Record {
    std::vector<ModelValue> members;
};

/// A field of a script class, or a member of the Loadout record, as the source declares it.
struct FieldDecl {
    std::string name;
    FieldKind kind = FieldKind::Int;
    ModelValue initial;                   ///< the initialiser (records: see initialOf)
    std::vector<std::string> formerNames; ///< [FormerlySerializedAs]
    bool isPublic =
        false; ///< `public T name;` (Unity's rule) instead of `[SerializeField] T name;`
};

/// The types every script shares, as one version of their source files declares them.
struct SharedTypes {
    std::vector<MoodMember> mood;   ///< in declaration order
    std::vector<FieldDecl> loadout; ///< members of scalar kinds, in declaration order

    [[nodiscard]] const MoodMember* moodByName(const std::string& name) const;
    [[nodiscard]] const MoodMember* moodByValue(std::int64_t value) const;
};
using TypesRef = std::shared_ptr<const SharedTypes>;

/// Whether values of (kind, types) and (kind, types) have the same shape: the same kind and,
/// for the shared types, the same members (an enum's names and values; a record's member
/// names and kinds, in order).
[[nodiscard]] bool sameShape(FieldKind a, const SharedTypes& at, FieldKind b,
                             const SharedTypes& bt);

/// Kinds a Loadout member may have.
[[nodiscard]] bool isScalar(FieldKind kind);

[[nodiscard]] const char* csharpType(FieldKind kind);
/// The value kind name the host reports in `get` (`type`).
[[nodiscard]] const char* hostKindName(FieldKind kind);
[[nodiscard]] const char* kindLabel(FieldKind kind);

/// A fresh Loadout: every member's initialiser.
[[nodiscard]] Record defaultRecord(const SharedTypes& types);
/// The value a field declared as `decl` starts with under `types`: its initialiser, with
/// records built from the record's member initialisers (a List<Loadout> initialiser holds
/// only its number of elements).
[[nodiscard]] ModelValue initialOf(const FieldDecl& decl, const SharedTypes& types);

/// A random value of `kind`: chosen to hit both sides of every conversion (whole and
/// fractional floats, integers beyond 2^24 and beyond int32, names of enum members and not).
[[nodiscard]] ModelValue randomValue(FieldKind kind, std::mt19937& rng, int entityCount,
                                     const std::vector<int>& liveSlots, const SharedTypes& types);

/// The value as a C# expression (a field initialiser).
[[nodiscard]] std::string csharpLiteral(FieldKind kind, const ModelValue& value);

/// Converts a value of `from` into `to` the way README.md says a reload does: numbers only
/// when they fit exactly, enums by member name, enum <-> string, enum <-> integer members,
/// array <-> list. Not records (world_model.cpp migrates those member by member).
/// nullopt: it does not fit (the host keeps the new default and parks the old value).
[[nodiscard]] std::optional<ModelValue> convert(const ModelValue& value, FieldKind from,
                                                const SharedTypes& fromTypes, FieldKind to,
                                                const SharedTypes& toTypes);

/// Maps a model reference to the host's packed object id.
struct IdTable {
    std::vector<std::uint64_t> entities; ///< packed id per entity index
    std::vector<std::uint64_t> slots;    ///< packed id per slot index
};

/// The value in the control protocol's encoding (for `set`).
[[nodiscard]] nlohmann::json toJson(FieldKind kind, const ModelValue& value, const IdTable& ids,
                                    const SharedTypes& types);
/// Whether the host's JSON `actual` is `expected`, exactly (floats bit for bit).
[[nodiscard]] bool matches(FieldKind kind, const ModelValue& expected, const nlohmann::json& actual,
                           const IdTable& ids, const SharedTypes& types);
[[nodiscard]] std::string describe(FieldKind kind, const ModelValue& value);

} // namespace scripthost::torture
