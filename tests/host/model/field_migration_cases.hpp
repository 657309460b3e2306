#pragma once
// Random field-migration cases and the invariants every migration must keep, shared by the
// property tests (field_migration_test.cpp, seeded) and the fuzz harness
// (tests/fuzz/fuzz_field_migration.cpp, bytes): one generator, one set of checks.

#include "host/model/field_migration.hpp"
#include "host/model/member_migration.hpp"
#include "host/model/value_conversion.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <fmt/format.h>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace scripthost::migration_cases {

/// A source of choices: a number in [0, n) (n > 0). A seeded generator in the property
/// tests, the fuzzer's bytes in the harness, so both explore the same space.
using Choose = std::function<std::size_t(std::size_t n)>;

inline FieldType scalar(ValueKind kind, std::string typeName) {
    FieldType t;
    t.kind = kind;
    t.typeName = std::move(typeName);
    return t;
}

inline FieldType enumType(std::vector<std::pair<std::string, std::int64_t>> members) {
    FieldType t = scalar(ValueKind::Enum, "Demo.Mood"); // one name: an enum whose members changed
    t.enumMembers = std::move(members);
    return t;
}

inline FieldType reference(RefTarget target, std::string typeName) {
    FieldType t = scalar(ValueKind::ObjectRef, std::move(typeName));
    t.refTarget = target;
    return t;
}

inline FieldType sequence(ValueKind kind, FieldType element) {
    FieldType t =
        scalar(kind, (kind == ValueKind::Array ? "Array of " : "List of ") + element.typeName);
    t.element.push_back(std::move(element));
    return t;
}

inline FieldType record(std::string typeName, bool isClass, std::vector<MemberType> members) {
    FieldType t = scalar(ValueKind::Record, std::move(typeName));
    t.recordIsClass = isClass;
    t.members = std::move(members);
    return t;
}

/// The types the cases use: pairs that convert, pairs that do not, and look-alikes (two
/// enums of one name, references to different classes, a struct and a class record).
inline const std::vector<FieldType>& typeCatalogue() {
    static const std::vector<FieldType> types = [] {
        const FieldType i32 = scalar(ValueKind::Int32, "System.Int32");
        const FieldType f32 = scalar(ValueKind::Float, "System.Single");
        const FieldType entity = reference(RefTarget::Entity, "UEngine.UEntity");
        return std::vector<FieldType>{
            i32,
            scalar(ValueKind::Int64, "System.Int64"),
            scalar(ValueKind::UInt8, "System.Byte"),
            f32,
            scalar(ValueKind::Double, "System.Double"),
            scalar(ValueKind::String, "System.String"),
            scalar(ValueKind::Bool, "System.Boolean"),
            enumType({{"Calm", 0}, {"Happy", 1}, {"Angry", 5}}),
            enumType({{"Happy", 2}, {"Calm", 0}, {"Sad", 9}}),
            scalar(ValueKind::Vector3, "UEngine.Vector3"),
            entity,
            reference(RefTarget::Script, "Demo.Ball"),
            sequence(ValueKind::Array, i32),
            sequence(ValueKind::List, i32),
            sequence(ValueKind::Array, f32),
            sequence(ValueKind::List, entity),
            sequence(ValueKind::Array, entity),
            record("Demo.Pair", false, {{"x", i32}, {"y", f32}}),
            // Not Pair's members: sameShape compares a record's members only, so a class and a
            // struct with the same members pass as one shape and a null class instance (an
            // empty list) would carry into a struct field. A known gap of sameShape, outside
            // these rules: the cases steer clear of it rather than fail on it every time.
            record("Demo.Bag", true,
                   {{"x", i32}, {"y", f32}, {"z", scalar(ValueKind::String, "System.String")}}),
            // Records whose members changed: Pair lost y and gained w and a renamed x
            // (formerly x), a list of them, and a record inside a record.
            record("Demo.Pair", false,
                   {{"w", scalar(ValueKind::Bool, "System.Boolean")}, {"v", f32, {"x"}}}),
            sequence(ValueKind::List, record("Demo.Pair", false, {{"x", i32}, {"y", f32}})),
            sequence(ValueKind::Array, record("Demo.Pair", false, {{"x", f32}, {"z", i32}})),
            record("Demo.Outer", true,
                   {{"p", record("Demo.Pair", false, {{"x", i32}, {"y", f32}})}, {"n", i32}}),
            record(
                "Demo.Outer", true,
                {{"p", record("Demo.Pair", false, {{"y", f32}, {"t", i32}})}, {"m", i32, {"n"}}}),
        };
    }();
    return types;
}

/// Object ids in the cases: indices 1..6; usable() rejects those divisible by 3, so some
/// references are to objects that no longer exist.
inline bool usable(ObjectId id) {
    return id.index % 3 != 0;
}

inline std::int64_t pickSigned(ValueKind kind, const Choose& choose) {
    static constexpr std::int64_t wide[] = {
        0, 1, -1, 3, 5, 9, 255, 256, 16777217, 2147483647, -2147483648LL, 5000000000LL};
    const std::size_t n = kind == ValueKind::Int64 ? std::size(wide) : std::size(wide) - 1;
    return wide[choose(n)];
}

inline Value randomValue(const FieldType& type, const Choose& choose) {
    static constexpr float floats[] = {0.0f,
                                       -0.0f,
                                       0.5f,
                                       3.0f,
                                       0.1f,
                                       16777216.0f,
                                       3e9f,
                                       std::numeric_limits<float>::infinity(),
                                       std::numeric_limits<float>::quiet_NaN()};
    static constexpr double doubles[] = {
        0.0, 0.1, 3.0, 0.5, 1e300, 16777217.0, std::numeric_limits<double>::quiet_NaN()};
    static const char* const strings[] = {"", "Calm", "Happy", "Sad", "x"};
    switch (type.kind) {
    case ValueKind::Int32:
    case ValueKind::Int64:
        return Value{pickSigned(type.kind, choose)};
    case ValueKind::UInt8:
        return Value{static_cast<std::uint64_t>(choose(2) == 0 ? 0 : 200 + choose(56))};
    case ValueKind::Float:
        return Value{floats[choose(std::size(floats))]};
    case ValueKind::Double:
        return Value{doubles[choose(std::size(doubles))]};
    case ValueKind::String:
        return Value{std::string(strings[choose(std::size(strings))])};
    case ValueKind::Bool:
        return Value{choose(2) == 1};
    case ValueKind::Enum: {
        const std::size_t at = choose(type.enumMembers.size() + 1); // sometimes not a member
        return Value{at < type.enumMembers.size() ? type.enumMembers[at].second : std::int64_t{7}};
    }
    case ValueKind::Vector3:
        return Value{glm::vec3(floats[choose(4)], 1.5f, floats[choose(4)])};
    case ValueKind::ObjectRef:
        return Value{ObjectRef{
            choose(3) == 0 ? ObjectId{} : ObjectId{static_cast<std::uint32_t>(1 + choose(6)), 1}}};
    case ValueKind::Array:
    case ValueKind::List: {
        ValueList items;
        for (std::size_t i = choose(4); i > 0; --i)
            items.push_back(randomValue(type.elementType(), choose));
        return Value{std::move(items)};
    }
    case ValueKind::Record: {
        ValueList members;
        if (type.recordIsClass && choose(3) == 0)
            return Value{std::move(members)}; // a null class instance
        for (const MemberType& m : type.members)
            members.push_back(randomValue(m.type, choose));
        return Value{std::move(members)};
    }
    default:
        return Value{std::int64_t{0}};
    }
}

inline const std::vector<std::string>& namePool() {
    static const std::vector<std::string> names{"a", "b", "c", "d", "e", "f"};
    return names;
}

/// Up to `most` distinct names from the pool, in random order.
inline std::vector<std::string> distinctNames(std::size_t most, const Choose& choose) {
    std::vector<std::string> pool = namePool();
    std::vector<std::string> names;
    for (std::size_t n = choose(most + 1); n > 0 && !pool.empty(); --n) {
        const std::size_t at = choose(pool.size());
        names.push_back(pool[at]);
        pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(at));
    }
    return names;
}

inline const FieldType& randomType(const Choose& choose) {
    return typeCatalogue()[choose(typeCatalogue().size())];
}

/// Fields with distinct names, as a snapshot or a slot's parked values have them.
inline std::vector<FieldSnapshot> randomFields(const Choose& choose) {
    std::vector<FieldSnapshot> fields;
    for (std::string& name : distinctNames(5, choose)) {
        const FieldType& type = randomType(choose);
        fields.push_back(FieldSnapshot{std::move(name), type, randomValue(type, choose)});
    }
    return fields;
}

/// One script's migration inputs.
struct Case {
    ObjectId script{42, 1};
    ScriptClassInfo newClass;
    std::vector<FieldSnapshot> saved;
    std::vector<FieldSnapshot> parked;
    bool revived = false;
};

/// A random case over a small name pool, so names, former names and parked names collide.
inline Case randomCase(const Choose& choose) {
    Case c;
    c.newClass.name = "Demo.Script";
    for (std::string& name : distinctNames(5, choose)) {
        FieldInfo field;
        field.name = std::move(name);
        field.type = randomType(choose);
        for (std::size_t n = choose(3); n > 0; --n)
            field.formerNames.push_back(namePool()[choose(namePool().size())]);
        c.newClass.fields.push_back(std::move(field));
    }
    c.saved = randomFields(choose);
    c.parked = randomFields(choose);
    // Member values parked by earlier reloads, under paths of the pool's names.
    for (std::size_t n = choose(3); n > 0; --n) {
        std::string path = namePool()[choose(namePool().size())];
        if (choose(2) == 0)
            path = elementPath(path, choose(3));
        path = memberPath(path,
                          std::vector<std::string>{"x", "y", "z", "w", "v", "n", "m"}[choose(7)]);
        if (std::ranges::any_of(c.parked, [&](const FieldSnapshot& p) { return p.name == path; }))
            continue;
        const FieldType& type = randomType(choose);
        c.parked.push_back(FieldSnapshot{std::move(path), type, randomValue(type, choose)});
    }
    c.revived = choose(4) == 0;
    return c;
}

inline FieldMigration migrate(const Case& c) {
    return migrateFields(c.script, c.newClass, c.saved, c.parked, c.revived, usable);
}

/// Bit-for-bit equality (NaN equals itself, -0 differs from 0): "the same value".
inline bool identical(const Value& a, const Value& b) {
    if (a.index() != b.index())
        return false;
    return std::visit(
        [&](const auto& x) -> bool {
            using T = std::decay_t<decltype(x)>;
            const T& y = std::get<T>(b);
            if constexpr (std::is_same_v<T, float>) {
                return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
            } else if constexpr (std::is_same_v<T, double>) {
                return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
            } else if constexpr (std::is_same_v<T, glm::vec2> || std::is_same_v<T, glm::vec3> ||
                                 std::is_same_v<T, glm::vec4> || std::is_same_v<T, glm::quat>) {
                for (int i = 0; i < T::length(); ++i) {
                    if (std::bit_cast<std::uint32_t>(x[i]) != std::bit_cast<std::uint32_t>(y[i]))
                        return false;
                }
                return true;
            } else if constexpr (std::is_same_v<T, ValueList>) {
                return std::ranges::equal(x, y, identical);
            } else {
                return x == y;
            }
        },
        static_cast<const Value::variant&>(a));
}

inline bool identical(const FieldSnapshot& a, const FieldSnapshot& b) {
    return a.name == b.name && a.type == b.type && identical(a.value, b.value);
}

/// Whether `value` is held the way a field of `type` holds its values.
inline bool fitsType(const Value& value, const FieldType& type) {
    switch (type.kind) {
    case ValueKind::Bool:
        return std::holds_alternative<bool>(value);
    case ValueKind::Int8:
    case ValueKind::Int16:
    case ValueKind::Int32:
    case ValueKind::Int64:
    case ValueKind::Enum:
        return std::holds_alternative<std::int64_t>(value);
    case ValueKind::UInt8:
    case ValueKind::UInt16:
    case ValueKind::UInt32:
    case ValueKind::UInt64:
        return std::holds_alternative<std::uint64_t>(value);
    case ValueKind::Float:
        return std::holds_alternative<float>(value);
    case ValueKind::Double:
        return std::holds_alternative<double>(value);
    case ValueKind::String:
        return std::holds_alternative<std::string>(value);
    case ValueKind::Vector2:
        return std::holds_alternative<glm::vec2>(value);
    case ValueKind::Vector3:
        return std::holds_alternative<glm::vec3>(value);
    case ValueKind::Vector4:
        return std::holds_alternative<glm::vec4>(value);
    case ValueKind::Quaternion:
        return std::holds_alternative<glm::quat>(value);
    case ValueKind::ObjectRef:
        return std::holds_alternative<ObjectRef>(value);
    case ValueKind::Array:
    case ValueKind::List: {
        const auto* items = std::get_if<ValueList>(&value);
        return items != nullptr && std::ranges::all_of(*items, [&](const Value& item) {
                   return fitsType(item, type.elementType());
               });
    }
    case ValueKind::Record: {
        const auto* members = std::get_if<ValueList>(&value);
        if (members == nullptr)
            return false;
        if (members->empty() && type.recordIsClass)
            return true;
        if (members->size() != type.members.size())
            return false;
        for (std::size_t i = 0; i < members->size(); ++i) {
            // A migrated record's member may keep the new code's default.
            if (!std::holds_alternative<KeepDefault>((*members)[i]) &&
                !fitsType((*members)[i], type.members[i].type))
                return false;
        }
        return true;
    }
    default:
        return false;
    }
}

/// The field name a field or member path starts with ("a" of "a.b[2].c").
inline std::string fieldOfPath(const std::string& path) {
    return path.substr(0, path.find_first_of(".["));
}

/// The type of the member at `path` (relative, as valueAtPath takes it) inside `type`.
inline const FieldType* typeAtPath(const FieldType& type, std::string_view path) {
    if (path.empty())
        return &type;
    if (path.front() == '[') {
        const std::size_t close = path.find(']');
        if (close == std::string_view::npos || type.element.empty())
            return nullptr;
        return typeAtPath(type.elementType(), path.substr(close + 1));
    }
    const std::size_t end = path.find_first_of(".[", 1);
    const std::string_view name =
        path.substr(1, end == std::string_view::npos ? path.npos : end - 1);
    for (const MemberType& m : type.members) {
        if (m.name == name)
            return typeAtPath(m.type, end == std::string_view::npos ? std::string_view{}
                                                                    : path.substr(end));
    }
    return nullptr;
}

inline bool answersTo(const FieldInfo& field, const std::string& name) {
    return field.name == name ||
           std::ranges::find(field.formerNames, name) != field.formerNames.end();
}

/// Whether an Unparked outcome names `value` as the saved value a returning one replaced.
inline bool namedAsDisplaced(const FieldMigration& m, const FieldSnapshot& value) {
    const std::string note =
        fmt::format(" (replaces {} {})", value.type.typeName, describe(value.value));
    return std::ranges::any_of(m.outcomes, [&](const FieldOutcome& o) {
        return o.kind == FieldOutcome::Kind::Unparked && o.detail.ends_with(note);
    });
}

/// Whether `value` is parked under `name` as it was.
inline bool parkedAs(const FieldMigration& m, const std::string& name, const FieldType& type,
                     const Value& value) {
    return std::ranges::any_of(m.parked, [&](const FieldSnapshot& p) {
        return p.name == name && p.type == type && identical(p.value, value);
    });
}

/// Whether `value` (a `from` at `path`) is all in `w` (a `to`), converted and cleared as the
/// rules do; a record member by member: each old member's value is in the new member that
/// answers to its name, or parked under its path, or named as displaced.
inline bool carriedInto(const FieldMigration& m, const std::string& path, const Value& value,
                        const FieldType& from, const Value& w, const FieldType& to) {
    if (sameShape(from, to) || !migratesByMember(from, to)) {
        auto expected = convertValue(value, from, to);
        if (!expected)
            return false;
        clearReferences(*expected, usable);
        return identical(*expected, w);
    }
    const auto* old = std::get_if<ValueList>(&value);
    const auto* now = std::get_if<ValueList>(&w);
    if (old == nullptr || now == nullptr)
        return false;
    if (from.kind != ValueKind::Record) { // lists and arrays of records: element by element
        if (old->size() != now->size())
            return false;
        for (std::size_t i = 0; i < old->size(); ++i) {
            if (!carriedInto(m, elementPath(path, i), (*old)[i], from.elementType(), (*now)[i],
                             to.elementType()))
                return false;
        }
        return true;
    }
    if (old->empty() && from.recordIsClass)
        return now->empty(); // null stays null
    if (now->size() != to.members.size())
        return false;
    for (std::size_t i = 0; i < old->size(); ++i) {
        const MemberType& member = from.members[i];
        bool found = parkedAs(m, memberPath(path, member.name), member.type, (*old)[i]) ||
                     namedAsDisplaced(m, FieldSnapshot{member.name, member.type, (*old)[i]});
        for (std::size_t j = 0; !found && j < to.members.size(); ++j) {
            const MemberType& candidate = to.members[j];
            const bool answers = candidate.name == member.name ||
                                 std::ranges::find(candidate.formerNames, member.name) !=
                                     candidate.formerNames.end();
            found = answers && !std::holds_alternative<KeepDefault>((*now)[j]) &&
                    carriedInto(m, memberPath(path, candidate.name), (*old)[i], member.type,
                                (*now)[j], candidate.type);
        }
        if (!found)
            return false;
    }
    return true;
}

/// Whether some write is `value` (converted and cleared as the rules do; records member by
/// member) into a field that answers to its name.
inline bool written(const Case& c, const FieldMigration& m, const FieldSnapshot& value) {
    for (const FieldWrite& w : m.writes) {
        const FieldInfo& field = c.newClass.fields[w.index];
        if (answersTo(field, value.name) &&
            carriedInto(m, field.name, value.value, value.type, w.value, field.type))
            return true;
    }
    return false;
}

/// Whether `value`, parked under a member path, was written back into the member an Unparked
/// outcome names (converted as the rules do).
inline bool restoredMember(const Case& c, const FieldMigration& m, const FieldSnapshot& value) {
    for (const FieldOutcome& o : m.outcomes) {
        if (o.kind != FieldOutcome::Kind::Unparked)
            continue;
        const bool fromHere = o.detail == "parked value restored" ||
                              o.detail.starts_with("parked value restored (replaces");
        if (!(fromHere && o.field == value.name) &&
            o.detail != "parked value restored (from " + value.name + ")")
            continue;
        const std::string name = fieldOfPath(o.field);
        for (const FieldWrite& w : m.writes) {
            const FieldInfo& field = c.newClass.fields[w.index];
            if (field.name != name)
                continue;
            const std::string_view rest = std::string_view(o.field).substr(name.size());
            const Value* member = valueAtPath(w.value, field.type, rest);
            const FieldType* type = typeAtPath(field.type, rest);
            if (member == nullptr || type == nullptr)
                return false;
            return carriedInto(m, o.field, value.value, value.type, *member, *type);
        }
    }
    return false;
}

/// Whether an outcome parked another value under `value`'s name, replacing it (the rule: a
/// newer value of a name replaces an older parked one): a Removed outcome of that name, or a
/// Kept outcome describing another input value of that name. The replacing value may have
/// been taken out again by a later field, so the parked list alone cannot tell.
inline bool superseded(const Case& c, const FieldMigration& m, const FieldSnapshot& value) {
    auto keptAs = [&](const FieldSnapshot& other) {
        const std::string start =
            fmt::format("{} {} cannot become ", kindName(other.type.kind), describe(other.value));
        return std::ranges::any_of(m.outcomes, [&](const FieldOutcome& o) {
            return o.kind == FieldOutcome::Kind::Kept && o.detail.starts_with(start);
        });
    };
    auto replacedBy = [&](const FieldSnapshot& other) {
        return other.name == value.name && !identical(other, value) && keptAs(other);
    };
    // A value parked under a member path is replaced by a member of a saved record parked under
    // that path (removed, or kept at a type change): another value is parked there now.
    if (fieldOfPath(value.name) != value.name &&
        std::ranges::any_of(m.parked, [&](const FieldSnapshot& p) {
            return p.name == value.name && !identical(p, value);
        }))
        return true;
    return std::ranges::any_of(m.outcomes,
                               [&](const FieldOutcome& o) {
                                   // A member's Kept outcome parks its old value by its path.
                                   return (o.kind == FieldOutcome::Kind::Removed ||
                                           (o.kind == FieldOutcome::Kind::Kept &&
                                            fieldOfPath(value.name) != value.name)) &&
                                          o.field == value.name;
                               }) ||
           std::ranges::any_of(c.saved, replacedBy) || std::ranges::any_of(c.parked, replacedBy);
}

/// The first saved or parked value that ended up nowhere: not written, not parked, not named
/// as displaced, and (parked values only) not superseded by a newer value parked under its name.
inline std::optional<std::string> lostValue(const Case& c, const FieldMigration& m) {
    auto parkedNow = [&](const FieldSnapshot& v) {
        return std::ranges::any_of(m.parked,
                                   [&](const FieldSnapshot& p) { return identical(p, v); });
    };
    for (const FieldSnapshot& v : c.saved) {
        if (!parkedNow(v) && !written(c, m, v) && !namedAsDisplaced(m, v))
            return fmt::format("saved {} {} {} went nowhere", v.name, v.type.typeName,
                               describe(v.value));
    }
    for (const FieldSnapshot& v : c.parked) {
        if (!parkedNow(v) && !written(c, m, v) && !restoredMember(c, m, v) && !superseded(c, m, v))
            return fmt::format("parked {} {} {} went nowhere", v.name, v.type.typeName,
                               describe(v.value));
    }
    return std::nullopt;
}

/// The first broken structural invariant: writes in range, in schema order, once each, each
/// holding its field's shape; outcomes about this script and naming a field that exists in
/// the new class or among the inputs; parked names distinct.
inline std::optional<std::string> brokenInvariant(const Case& c, const FieldMigration& m) {
    for (std::size_t i = 0; i < m.writes.size(); ++i) {
        const FieldWrite& w = m.writes[i];
        if (w.index >= c.newClass.fields.size())
            return fmt::format("write {} is to field index {} of {}", i, w.index,
                               c.newClass.fields.size());
        if (i > 0 && m.writes[i - 1].index >= w.index)
            return fmt::format("field {} written twice or out of order", w.index);
        if (!fitsType(w.value, c.newClass.fields[w.index].type))
            return fmt::format("{} = {} does not hold a {}", c.newClass.fields[w.index].name,
                               describe(w.value), c.newClass.fields[w.index].type.typeName);
    }
    auto inputNamed = [&](const std::string& name) {
        auto named = [&](const FieldSnapshot& f) { return f.name == name; };
        return std::ranges::any_of(c.saved, named) || std::ranges::any_of(c.parked, named) ||
               std::ranges::any_of(c.newClass.fields,
                                   [&](const FieldInfo& f) { return f.name == name; });
    };
    // A member's outcome names its path: the field it starts with must exist (a member path
    // parked as an input names itself).
    auto pathNamed = [&](const std::string& path) {
        return inputNamed(path) || inputNamed(fieldOfPath(path));
    };
    for (const FieldOutcome& o : m.outcomes) {
        if (o.script != c.script || o.className != c.newClass.name)
            return fmt::format("outcome for {} names another script or class", o.field);
        if (!pathNamed(o.field))
            return fmt::format("outcome names {}, a field nobody has", o.field);
    }
    for (std::size_t i = 0; i < m.parked.size(); ++i) {
        for (std::size_t j = i + 1; j < m.parked.size(); ++j) {
            if (m.parked[i].name == m.parked[j].name)
                return "two values parked as " + m.parked[i].name;
        }
    }
    return std::nullopt;
}

inline bool sameMigration(const FieldMigration& a, const FieldMigration& b) {
    auto sameWrite = [](const FieldWrite& x, const FieldWrite& y) {
        return x.index == y.index && identical(x.value, y.value);
    };
    auto sameSnapshot = [](const FieldSnapshot& x, const FieldSnapshot& y) {
        return identical(x, y);
    };
    auto sameOutcome = [](const FieldOutcome& x, const FieldOutcome& y) {
        return x.script == y.script && x.className == y.className && x.field == y.field &&
               x.kind == y.kind && x.detail == y.detail;
    };
    return std::ranges::equal(a.writes, b.writes, sameWrite) &&
           std::ranges::equal(a.parked, b.parked, sameSnapshot) &&
           std::ranges::equal(a.outcomes, b.outcomes, sameOutcome);
}

/// An old class and the values of one of its instances, and a new version of the class that
/// keeps, renames (with [FormerlySerializedAs]), retypes (only where the value converts there
/// and back exactly), removes or adds fields.
struct RoundTrip {
    ScriptClassInfo oldClass; ///< with the new names as former names, for the way back
    ScriptClassInfo newClass;
    std::vector<FieldSnapshot> saved;
};

/// A new version of a record type (or of a list's or array's record elements): each member
/// kept (nested records evolved too), renamed with [FormerlySerializedAs] or removed, and
/// maybe one added; and the old type with the new names as former names, for the way back.
inline std::pair<FieldType, FieldType> evolveRecord(const FieldType& t, const Choose& choose) {
    if ((t.kind == ValueKind::Array || t.kind == ValueKind::List) &&
        t.elementType().kind == ValueKind::Record) {
        auto [now, old] = evolveRecord(t.elementType(), choose);
        FieldType n = t, o = t;
        n.element = {std::move(now)};
        o.element = {std::move(old)};
        return {std::move(n), std::move(o)};
    }
    if (t.kind != ValueKind::Record)
        return {t, t};
    FieldType now = t, old = t;
    now.members.clear();
    for (MemberType& member : old.members) {
        const std::size_t change = choose(3); // keep, rename, remove
        if (change == 0) {
            auto [n, o] = evolveRecord(member.type, choose);
            now.members.push_back(MemberType{member.name, std::move(n), {}});
            member.type = std::move(o);
        } else if (change == 1) {
            now.members.push_back(MemberType{"renamed_" + member.name, member.type, {member.name}});
            member.formerNames = {"renamed_" + member.name};
        }
    }
    // A record keeps at least one member (fieldTypeOf never describes an empty one: an
    // empty member list is a null instance).
    if (choose(2) == 0 || now.members.empty())
        now.members.push_back(MemberType{"added", randomType(choose), {}});
    return {std::move(now), std::move(old)};
}

/// What the runtime does with a migrated record's KeepDefault members: the new code's default
/// (here: any value of the member's type).
inline void fillDefaults(Value& value, const FieldType& type, const Choose& choose) {
    auto* items = std::get_if<ValueList>(&value);
    if (items == nullptr)
        return;
    if (type.kind == ValueKind::Record) {
        if (items->size() != type.members.size())
            return;
        for (std::size_t i = 0; i < items->size(); ++i) {
            if (std::holds_alternative<KeepDefault>((*items)[i]))
                (*items)[i] = randomValue(type.members[i].type, choose);
            else
                fillDefaults((*items)[i], type.members[i].type, choose);
        }
    } else if (type.kind == ValueKind::Array || type.kind == ValueKind::List) {
        for (Value& item : *items)
            fillDefaults(item, type.elementType(), choose);
    }
}

inline RoundTrip randomRoundTrip(const Choose& choose) {
    RoundTrip r;
    r.oldClass.name = r.newClass.name = "Demo.Script";
    for (const FieldSnapshot& v : randomFields(choose)) {
        r.saved.push_back(v);
        FieldInfo old{v.name, v.name, v.type, {}, r.oldClass.name};
        const std::size_t change = choose(4); // keep, retype, rename, remove
        FieldInfo now = old;
        if (change == 1 && migratesByMember(v.type, v.type) && choose(2) == 0) {
            auto [to, from] = evolveRecord(v.type, choose); // members change
            now.type = std::move(to);
            old.type = std::move(from);
        } else if (change == 1) {
            const FieldType& to = randomType(choose);
            auto there = convertValue(v.value, v.type, to);
            auto back = there ? convertValue(*there, to, v.type) : there;
            if (back && identical(*back, v.value))
                now.type = to;
        } else if (change == 2) {
            now.name = "renamed_" + v.name;
            now.formerNames = {v.name};
            old.formerNames = {now.name};
        }
        r.oldClass.fields.push_back(old);
        if (change != 3)
            r.newClass.fields.push_back(now);
    }
    for (std::size_t n = choose(3); n > 0; --n) {
        const FieldType& type = randomType(choose);
        r.newClass.fields.push_back(
            FieldInfo{"added" + std::to_string(n), "", type, {}, r.newClass.name});
    }
    return r;
}

/// Migrates forward and back (new fields holding their defaults in between); the first old
/// field that did not come back as it was.
inline std::optional<std::string> roundTripLoss(const RoundTrip& r, const Choose& choose) {
    auto always = [](ObjectId) { return true; };
    const ObjectId script{7, 1};
    FieldMigration there = migrateFields(script, r.newClass, r.saved, {}, false, always);
    std::vector<FieldSnapshot> live;
    for (std::size_t i = 0; i < r.newClass.fields.size(); ++i) {
        const FieldInfo& f = r.newClass.fields[i];
        auto w = std::ranges::find(there.writes, i, &FieldWrite::index);
        Value value = w != there.writes.end() ? w->value : randomValue(f.type, choose);
        fillDefaults(value, f.type, choose);
        live.push_back(FieldSnapshot{f.name, f.type, std::move(value)});
    }
    FieldMigration back =
        migrateFields(script, r.oldClass, std::move(live), there.parked, false, always);
    for (std::size_t i = 0; i < r.saved.size(); ++i) {
        auto w = std::ranges::find(back.writes, i, &FieldWrite::index);
        if (w == back.writes.end() || !identical(w->value, r.saved[i].value))
            return fmt::format("{} was {}, came back as {}", r.saved[i].name,
                               describe(r.saved[i].value),
                               w == back.writes.end() ? "its default" : describe(w->value));
    }
    return std::nullopt;
}

} // namespace scripthost::migration_cases
