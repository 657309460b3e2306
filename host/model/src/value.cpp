#include "host/model/value.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>

namespace scripthost {

using nlohmann::json;

std::string_view kindName(ValueKind kind) noexcept {
    switch (kind) {
    case ValueKind::Bool:
        return "bool";
    case ValueKind::Int8:
        return "int8";
    case ValueKind::UInt8:
        return "uint8";
    case ValueKind::Int16:
        return "int16";
    case ValueKind::UInt16:
        return "uint16";
    case ValueKind::Int32:
        return "int32";
    case ValueKind::UInt32:
        return "uint32";
    case ValueKind::Int64:
        return "int64";
    case ValueKind::UInt64:
        return "uint64";
    case ValueKind::Float:
        return "float";
    case ValueKind::Double:
        return "double";
    case ValueKind::String:
        return "string";
    case ValueKind::Enum:
        return "enum";
    case ValueKind::Vector2:
        return "vector2";
    case ValueKind::Vector3:
        return "vector3";
    case ValueKind::Vector4:
        return "vector4";
    case ValueKind::Quaternion:
        return "quaternion";
    case ValueKind::ObjectRef:
        return "reference";
    case ValueKind::Array:
        return "array";
    case ValueKind::List:
        return "list";
    case ValueKind::Record:
        return "record";
    case ValueKind::Unsupported:
        return "unsupported";
    }
    return "unknown";
}

namespace {

Result<double> floatFromJson(const json& j) {
    if (j.is_number()) {
        return j.get<double>();
    }
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (s == "nan")
            return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf")
            return std::numeric_limits<double>::infinity();
        if (s == "-inf")
            return -std::numeric_limits<double>::infinity();
    }
    return fail("expected a number, got " + j.dump());
}

// A JSON number for a float: rounded to the nearest float, but a finite number beyond
// float's range is refused rather than turned into infinity.
Result<float> singleFromJson(const json& j) {
    auto d = floatFromJson(j);
    if (!d)
        return std::unexpected(d.error());
    if (std::isfinite(*d) && std::fabs(*d) > static_cast<double>(std::numeric_limits<float>::max()))
        return fail(fmt::format("{} does not fit a float (largest: {:g}; \"inf\" for infinity)",
                                j.dump(), std::numeric_limits<float>::max()));
    return static_cast<float>(*d);
}

json floatToJson(double v) {
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return v;
}

Result<std::int64_t> signedFromJson(const json& j, std::int64_t lo, std::int64_t hi) {
    if (j.is_number_integer() &&
        !(j.is_number_unsigned() && j.get<std::uint64_t>() > std::uint64_t(INT64_MAX))) {
        auto v = j.get<std::int64_t>();
        if (v >= lo && v <= hi)
            return v;
    } else if (j.is_number_float()) {
        // The upper bound is exclusive: double(hi) may round up past hi (INT64_MAX becomes
        // 2^63), and converting a double out of the target's range is undefined behaviour.
        double d = j.get<double>();
        if (std::trunc(d) == d && d >= double(lo) && d < double(hi) + 1.0)
            return std::int64_t(d);
    }
    return fail(fmt::format("expected an integer in [{}, {}], got {}", lo, hi, j.dump()));
}

Result<std::uint64_t> unsignedFromJson(const json& j, std::uint64_t hi) {
    if (j.is_number_unsigned() || (j.is_number_integer() && j.get<std::int64_t>() >= 0)) {
        auto v = j.get<std::uint64_t>();
        if (v <= hi)
            return v;
    } else if (j.is_number_float()) {
        double d = j.get<double>();
        if (std::trunc(d) == d && d >= 0 && d < double(hi) + 1.0) // exclusive, as above
            return std::uint64_t(d);
    }
    return fail(fmt::format("expected an integer in [0, {}], got {}", hi, j.dump()));
}

template <std::size_t N> Result<std::array<float, N>> floatsFromJson(const json& j) {
    if (!j.is_array() || j.size() != N) {
        return fail(fmt::format("expected an array of {} numbers, got {}", N, j.dump()));
    }
    std::array<float, N> out{};
    for (std::size_t i = 0; i < N; ++i) {
        auto f = singleFromJson(j[i]);
        if (!f)
            return std::unexpected(f.error());
        out[i] = *f;
    }
    return out;
}

// Wraps a Result<T> of a value alternative as a Result<Value>.
template <typename T> Result<Value> asValue(Result<T> r) {
    if (!r)
        return std::unexpected(r.error());
    return Value{std::move(*r)};
}

Result<Value> enumFromJson(const json& j, const FieldType& type) {
    if (!j.is_string())
        return asValue(signedFromJson(j, INT64_MIN, INT64_MAX));
    for (const auto& [name, value] : type.enumMembers) {
        if (name == j.get_ref<const std::string&>())
            return Value{value};
    }
    std::string names;
    for (const auto& [name, value] : type.enumMembers)
        names += (names.empty() ? "" : ", ") + name;
    return fail(fmt::format("{} has no member {} (members: {})", type.typeName, j.dump(), names));
}

// Vector2/3/4 and Quaternion from arrays of numbers (a quaternion's json is [x, y, z, w]).
Result<Value> mathFromJson(const json& j, ValueKind kind) {
    if (kind == ValueKind::Vector2) {
        auto f = floatsFromJson<2>(j);
        return f ? Result<Value>(Value{glm::vec2((*f)[0], (*f)[1])}) : std::unexpected(f.error());
    }
    if (kind == ValueKind::Vector3) {
        auto f = floatsFromJson<3>(j);
        return f ? Result<Value>(Value{glm::vec3((*f)[0], (*f)[1], (*f)[2])})
                 : std::unexpected(f.error());
    }
    auto f = floatsFromJson<4>(j);
    if (!f)
        return std::unexpected(f.error());
    if (kind == ValueKind::Quaternion)
        return Value{glm::quat((*f)[3], (*f)[0], (*f)[1], (*f)[2])};
    return Value{glm::vec4((*f)[0], (*f)[1], (*f)[2], (*f)[3])};
}

Result<Value> referenceFromJson(const json& j, const RefResolver& resolve) {
    if (j.is_null())
        return Value{ObjectRef{}};
    if (j.is_object() && resolve) { // scenes: saved ids and names map to this world
        auto id = resolve(j);
        if (!id)
            return std::unexpected(id.error());
        return Value{ObjectRef{*id}};
    }
    if (j.is_object() && j.size() == 1 && j.contains("id") && j["id"].is_number_unsigned())
        return Value{ObjectRef{ObjectId::unpack(j["id"].get<std::uint64_t>())}};
    return fail("expected null, {\"id\": …} or {\"entity\": \"name\"}, got " + j.dump());
}

Result<Value> recordFromJson(const json& j, const FieldType& type, const RefResolver& resolve) {
    if (j.is_null() && type.recordIsClass)
        return Value{ValueList{}};
    if (!j.is_object())
        return fail("expected an object with the members of " + type.typeName + ", got " +
                    j.dump());
    ValueList members;
    for (const MemberType& member : type.members) {
        auto it = j.find(member.name);
        if (it == j.end())
            return fail(fmt::format("{}: missing member {}", type.typeName, member.name));
        auto value = valueFromJson(*it, member.type, resolve);
        if (!value)
            return fail(fmt::format("{}: {}", member.name, value.error().message));
        members.push_back(std::move(*value));
    }
    return Value{std::move(members)};
}

Result<Value> sequenceFromJson(const json& j, const FieldType& type, const RefResolver& resolve) {
    if (!j.is_array())
        return fail("expected an array, got " + j.dump());
    ValueList items;
    items.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i) {
        auto item = valueFromJson(j[i], type.elementType(), resolve);
        if (!item)
            return fail(fmt::format("[{}]: {}", i, item.error().message));
        items.push_back(std::move(*item));
    }
    return Value{std::move(items)};
}

} // namespace

Result<Value> valueFromJson(const json& j, const FieldType& type, const RefResolver& resolve) {
    switch (type.kind) {
    case ValueKind::Bool:
        if (!j.is_boolean())
            return fail("expected true or false, got " + j.dump());
        return Value{j.get<bool>()};
    case ValueKind::Int8:
        return asValue(signedFromJson(j, INT8_MIN, INT8_MAX));
    case ValueKind::Int16:
        return asValue(signedFromJson(j, INT16_MIN, INT16_MAX));
    case ValueKind::Int32:
        return asValue(signedFromJson(j, INT32_MIN, INT32_MAX));
    case ValueKind::Int64:
        return asValue(signedFromJson(j, INT64_MIN, INT64_MAX));
    case ValueKind::UInt8:
        return asValue(unsignedFromJson(j, UINT8_MAX));
    case ValueKind::UInt16:
        return asValue(unsignedFromJson(j, UINT16_MAX));
    case ValueKind::UInt32:
        return asValue(unsignedFromJson(j, UINT32_MAX));
    case ValueKind::UInt64:
        return asValue(unsignedFromJson(j, UINT64_MAX));
    case ValueKind::Float:
        return asValue(singleFromJson(j));
    case ValueKind::Double:
        return asValue(floatFromJson(j));
    case ValueKind::String:
        if (!j.is_string())
            return fail("expected a string, got " + j.dump());
        return Value{j.get<std::string>()};
    case ValueKind::Enum:
        return enumFromJson(j, type);
    case ValueKind::Vector2:
    case ValueKind::Vector3:
    case ValueKind::Vector4:
    case ValueKind::Quaternion:
        return mathFromJson(j, type.kind);
    case ValueKind::ObjectRef:
        return referenceFromJson(j, resolve);
    case ValueKind::Record:
        return recordFromJson(j, type, resolve);
    case ValueKind::Array:
    case ValueKind::List:
        return sequenceFromJson(j, type, resolve);
    case ValueKind::Unsupported:
        break;
    }
    return fail("unsupported field type " + type.typeName);
}

json valueToJson(const Value& value, const FieldType& type) {
    return std::visit(
        [&](const auto& v) -> json {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
                return floatToJson(static_cast<double>(v));
            } else if constexpr (std::is_same_v<T, std::int64_t>) {
                if (type.kind == ValueKind::Enum) {
                    for (const auto& [name, member] : type.enumMembers) {
                        if (member == v)
                            return name;
                    }
                }
                return v;
            } else if constexpr (std::is_same_v<T, glm::vec2>) {
                return json::array({floatToJson(v.x), floatToJson(v.y)});
            } else if constexpr (std::is_same_v<T, glm::vec3>) {
                return json::array({floatToJson(v.x), floatToJson(v.y), floatToJson(v.z)});
            } else if constexpr (std::is_same_v<T, glm::vec4>) {
                return json::array(
                    {floatToJson(v.x), floatToJson(v.y), floatToJson(v.z), floatToJson(v.w)});
            } else if constexpr (std::is_same_v<T, glm::quat>) {
                return json::array(
                    {floatToJson(v.x), floatToJson(v.y), floatToJson(v.z), floatToJson(v.w)});
            } else if constexpr (std::is_same_v<T, ObjectRef>) {
                return v.id.isNull() ? json(nullptr) : json{{"id", v.id.packed()}};
            } else if constexpr (std::is_same_v<T, KeepDefault>) {
                return json(nullptr); // never saved: only a migration's writes hold one
            } else if constexpr (std::is_same_v<T, ValueList>) {
                if (type.kind == ValueKind::Record) {
                    if (v.empty() && !type.members.empty())
                        return json(nullptr);
                    json record = json::object();
                    for (std::size_t i = 0; i < v.size() && i < type.members.size(); ++i) {
                        record[type.members[i].name] = valueToJson(v[i], type.members[i].type);
                    }
                    return record;
                }
                json items = json::array();
                const FieldType& element =
                    type.element.empty() ? type : type.elementType(); // tolerate a bare type
                for (const Value& item : v) {
                    items.push_back(valueToJson(item, element));
                }
                return items;
            } else {
                return v;
            }
        },
        value);
}

std::string describe(const Value& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>) {
                return v ? "true" : "false";
            } else if constexpr (std::is_same_v<T, std::string>) {
                return "\"" + v + "\"";
            } else if constexpr (std::is_same_v<T, glm::vec2>) {
                return fmt::format("({}, {})", v.x, v.y);
            } else if constexpr (std::is_same_v<T, glm::vec3>) {
                return fmt::format("({}, {}, {})", v.x, v.y, v.z);
            } else if constexpr (std::is_same_v<T, glm::vec4> || std::is_same_v<T, glm::quat>) {
                return fmt::format("({}, {}, {}, {})", v.x, v.y, v.z, v.w);
            } else if constexpr (std::is_same_v<T, ObjectRef>) {
                return v.id.isNull() ? std::string("null") : v.id.toString();
            } else if constexpr (std::is_same_v<T, KeepDefault>) {
                return "(default)";
            } else if constexpr (std::is_same_v<T, ValueList>) {
                std::string text = "[";
                for (std::size_t i = 0; i < v.size(); ++i) {
                    if (i == 8) {
                        text += fmt::format(", … {} more", v.size() - 8);
                        break;
                    }
                    text += (i ? ", " : "") + describe(v[i]);
                }
                return text + "]";
            } else {
                return fmt::format("{}", v);
            }
        },
        value);
}

std::size_t clearReferences(Value& value, const std::function<bool(ObjectId)>& keep) {
    if (auto* ref = std::get_if<ObjectRef>(&value)) {
        if (!ref->id.isNull() && !keep(ref->id)) {
            ref->id = {};
            return 1;
        }
        return 0;
    }
    std::size_t cleared = 0;
    if (auto* items = std::get_if<ValueList>(&value)) {
        for (Value& item : *items)
            cleared += clearReferences(item, keep);
    }
    return cleared;
}

} // namespace scripthost
