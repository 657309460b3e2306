#include "field_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>

namespace scripthost::torture {

namespace {

bool isWhole(double d) {
    return std::isfinite(d) && std::trunc(d) == d;
}

bool fitsInt32(double d) {
    return isWhole(d) && d >= std::numeric_limits<std::int32_t>::min() &&
           d <= std::numeric_limits<std::int32_t>::max();
}

std::string floatText(float f) {
    return fmt::format("{:.9g}", f);
}

std::string doubleText(double d) {
    return fmt::format("{:.17g}", d);
}

// A float literal C# reads back as exactly `text`'s value: needs a '.' or an exponent.
std::string realLiteral(std::string text, char suffix) {
    return text + suffix;
}

std::uint64_t idOf(const ObjectRef& ref, const IdTable& ids) {
    return ref.isScript ? ids.slots.at(static_cast<std::size_t>(ref.index))
                        : ids.entities.at(static_cast<std::size_t>(ref.index));
}

} // namespace

bool Vec3::operator==(const Vec3& o) const {
    return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(o.x) &&
           std::bit_cast<std::uint32_t>(y) == std::bit_cast<std::uint32_t>(o.y) &&
           std::bit_cast<std::uint32_t>(z) == std::bit_cast<std::uint32_t>(o.z);
}

const MoodMember* SharedTypes::moodByName(const std::string& name) const {
    for (const MoodMember& m : mood) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

const MoodMember* SharedTypes::moodByValue(std::int64_t value) const {
    for (const MoodMember& m : mood) {
        if (m.value == value)
            return &m;
    }
    return nullptr;
}

bool sameShape(FieldKind a, const SharedTypes& at, FieldKind b, const SharedTypes& bt) {
    if (a != b)
        return false;
    switch (a) {
    case FieldKind::Mood:
        return at.mood == bt.mood;
    case FieldKind::Loadout:
    case FieldKind::LoadoutList:
        return std::ranges::equal(at.loadout, bt.loadout,
                                  [](const FieldDecl& x, const FieldDecl& y) {
                                      return x.name == y.name && x.kind == y.kind;
                                  });
    default:
        return true;
    }
}

bool isScalar(FieldKind kind) {
    using K = FieldKind;
    return kind == K::Int || kind == K::Long || kind == K::Float || kind == K::Double ||
           kind == K::String || kind == K::Bool;
}

const char* csharpType(FieldKind kind) {
    switch (kind) {
    case FieldKind::Int:
        return "int";
    case FieldKind::Long:
        return "long";
    case FieldKind::Float:
        return "float";
    case FieldKind::Double:
        return "double";
    case FieldKind::String:
        return "string";
    case FieldKind::Bool:
        return "bool";
    case FieldKind::Mood:
        return "Mood";
    case FieldKind::Vector3:
        return "Vector3";
    case FieldKind::EntityRef:
        return "UEntity";
    case FieldKind::TransformRef:
        return "UTransform";
    case FieldKind::ScriptRef:
        return "UMonoScriptComponent";
    case FieldKind::IntArray:
        return "int[]";
    case FieldKind::IntList:
        return "List<int>";
    case FieldKind::Loadout:
        return "Loadout";
    case FieldKind::LoadoutList:
        return "List<Loadout>";
    }
    return "?";
}

const char* hostKindName(FieldKind kind) {
    switch (kind) {
    case FieldKind::Int:
        return "int32";
    case FieldKind::Long:
        return "int64";
    case FieldKind::Float:
        return "float";
    case FieldKind::Double:
        return "double";
    case FieldKind::String:
        return "string";
    case FieldKind::Bool:
        return "bool";
    case FieldKind::Mood:
        return "enum";
    case FieldKind::Vector3:
        return "vector3";
    case FieldKind::EntityRef:
    case FieldKind::TransformRef:
    case FieldKind::ScriptRef:
        return "reference";
    case FieldKind::IntArray:
        return "array";
    case FieldKind::IntList:
    case FieldKind::LoadoutList:
        return "list";
    case FieldKind::Loadout:
        return "record";
    }
    return "?";
}

const char* kindLabel(FieldKind kind) {
    return csharpType(kind);
}

Record defaultRecord(const SharedTypes& types) {
    Record r;
    for (const FieldDecl& m : types.loadout)
        r.members.push_back(m.initial);
    return r;
}

ModelValue initialOf(const FieldDecl& decl, const SharedTypes& types) {
    if (decl.kind == FieldKind::Loadout)
        return std::vector<Record>{defaultRecord(types)};
    if (decl.kind == FieldKind::LoadoutList) {
        const std::size_t n = std::get<std::vector<Record>>(decl.initial).size();
        return std::vector<Record>(n, defaultRecord(types));
    }
    return decl.initial;
}

ModelValue randomValue(FieldKind kind, std::mt19937& rng, int entityCount,
                       const std::vector<int>& liveSlots, const SharedTypes& types) {
    auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
    auto quarter = [&] {
        return static_cast<float>(std::uniform_int_distribution<int>(-400, 400)(rng)) / 4.0f;
    };
    auto anyMood = [&] {
        return types.mood[static_cast<std::size_t>(pick(static_cast<int>(types.mood.size())))].name;
    };
    auto randomRecord = [&] {
        Record r;
        for (const FieldDecl& m : types.loadout)
            r.members.push_back(randomValue(m.kind, rng, entityCount, liveSlots, types));
        return r;
    };
    switch (kind) {
    case FieldKind::Int: {
        static constexpr std::int64_t special[] = {16777217, -16777219, 2147483647, -2147483648LL,
                                                   33554435};
        if (pick(2) == 0)
            return special[pick(5)];
        return static_cast<std::int64_t>(std::uniform_int_distribution<int>(-1000, 1000)(rng));
    }
    case FieldKind::Long: {
        if (pick(3) == 0)
            return static_cast<std::int64_t>(5000000000LL + pick(1000));
        return static_cast<std::int64_t>(std::uniform_int_distribution<int>(-100000, 100000)(rng));
    }
    case FieldKind::Float: {
        static constexpr float special[] = {3e9f, -1e10f, 0.1f, 16777216.0f, 1.0e-3f};
        if (pick(3) == 0)
            return special[pick(5)];
        return quarter();
    }
    case FieldKind::Double: {
        static constexpr double special[] = {0.1, 1e12, 3.0e9, 1.0 / 3.0, -7.0};
        if (pick(3) == 0)
            return special[pick(5)];
        return static_cast<double>(std::uniform_int_distribution<int>(-8000, 8000)(rng)) / 8.0;
    }
    case FieldKind::String: {
        if (pick(3) == 0)
            return anyMood();
        static constexpr const char* words[] = {"alpha", "beta gamma", "", "x y z", "Sad", "zeta"};
        return std::string(words[pick(6)]) + (pick(2) ? std::to_string(pick(1000)) : "");
    }
    case FieldKind::Bool:
        return pick(2) == 1;
    case FieldKind::Mood:
        return anyMood();
    case FieldKind::Vector3:
        return Vec3{quarter(), quarter(), quarter()};
    case FieldKind::EntityRef:
    case FieldKind::TransformRef:
        if (pick(4) == 0)
            return std::optional<ObjectRef>{};
        return std::optional<ObjectRef>{ObjectRef{false, pick(entityCount)}};
    case FieldKind::ScriptRef:
        if (pick(4) == 0 || liveSlots.empty())
            return std::optional<ObjectRef>{};
        return std::optional<ObjectRef>{ObjectRef{
            true, liveSlots[static_cast<std::size_t>(pick(static_cast<int>(liveSlots.size())))]}};
    case FieldKind::IntArray:
    case FieldKind::IntList: {
        std::vector<std::int64_t> items(static_cast<std::size_t>(pick(5)));
        for (std::int64_t& i : items)
            i = std::get<std::int64_t>(
                randomValue(FieldKind::Int, rng, entityCount, liveSlots, types));
        return items;
    }
    case FieldKind::Loadout:
        return std::vector<Record>{randomRecord()};
    case FieldKind::LoadoutList: {
        std::vector<Record> items;
        for (int n = pick(4); n > 0; --n)
            items.push_back(randomRecord());
        return items;
    }
    }
    return std::int64_t{0};
}

std::string csharpLiteral(FieldKind kind, const ModelValue& value) {
    switch (kind) {
    case FieldKind::Int: {
        const auto v = std::get<std::int64_t>(value);
        // -2147483648 is a valid int literal in C#, but spell it as the constant to be safe.
        return v == std::numeric_limits<std::int32_t>::min() ? "int.MinValue" : std::to_string(v);
    }
    case FieldKind::Long:
        return std::to_string(std::get<std::int64_t>(value)) + "L";
    case FieldKind::Float:
        return realLiteral(floatText(std::get<float>(value)), 'f');
    case FieldKind::Double:
        return realLiteral(doubleText(std::get<double>(value)), 'd');
    case FieldKind::String:
        return "\"" + std::get<std::string>(value) + "\"";
    case FieldKind::Bool:
        return std::get<bool>(value) ? "true" : "false";
    case FieldKind::Mood:
        return "Mood." + std::get<std::string>(value);
    case FieldKind::Vector3: {
        const Vec3& v = std::get<Vec3>(value);
        return fmt::format("new Vector3({}f, {}f, {}f)", floatText(v.x), floatText(v.y),
                           floatText(v.z));
    }
    case FieldKind::EntityRef:
    case FieldKind::TransformRef:
    case FieldKind::ScriptRef:
        return "null";
    case FieldKind::IntArray:
    case FieldKind::IntList: {
        std::string items;
        for (std::int64_t i : std::get<std::vector<std::int64_t>>(value))
            items += (items.empty() ? "" : ", ") + csharpLiteral(FieldKind::Int, i);
        return fmt::format("new {} {{ {} }}", kind == FieldKind::IntArray ? "int[]" : "List<int>",
                           items);
    }
    case FieldKind::Loadout:
        return "new Loadout()";
    case FieldKind::LoadoutList: {
        std::string items;
        for (std::size_t n = std::get<std::vector<Record>>(value).size(); n > 0; --n)
            items += std::string(items.empty() ? "" : ", ") + "new Loadout()";
        return "new List<Loadout> { " + items + " }";
    }
    }
    return "";
}

std::optional<ModelValue> convert(const ModelValue& value, FieldKind from,
                                  const SharedTypes& fromTypes, FieldKind to,
                                  const SharedTypes& toTypes) {
    using K = FieldKind;
    if (sameShape(from, fromTypes, to, toTypes))
        return value;
    if ((from == K::IntArray || from == K::IntList) && (to == K::IntArray || to == K::IntList))
        return value; // array <-> list of the same element type
    // Everything numeric goes through its exact value as a long double.
    auto numeric = [&]() -> std::optional<long double> {
        switch (from) {
        case K::Int:
        case K::Long:
            return static_cast<long double>(std::get<std::int64_t>(value));
        case K::Float:
            return static_cast<long double>(std::get<float>(value));
        case K::Double:
            return static_cast<long double>(std::get<double>(value));
        case K::Mood:
            return static_cast<long double>(
                fromTypes.moodByName(std::get<std::string>(value))->value);
        default:
            return std::nullopt;
        }
    };
    if (to == K::Mood) {
        if (from == K::String || from == K::Mood) { // by member name
            if (toTypes.moodByName(std::get<std::string>(value)) != nullptr)
                return value;
            return std::nullopt;
        }
        if (from == K::Int || from == K::Long) {
            if (const MoodMember* m = toTypes.moodByValue(std::get<std::int64_t>(value)))
                return m->name;
        }
        return std::nullopt;
    }
    if (from == K::Mood && to == K::String)
        return value; // the member's name
    const auto n = numeric();
    if (!n)
        return std::nullopt;
    switch (to) {
    case K::Int:
        if (!fitsInt32(static_cast<double>(*n)) ||
            static_cast<long double>(static_cast<double>(*n)) != *n)
            return std::nullopt;
        return static_cast<std::int64_t>(*n);
    case K::Long:
        if (std::trunc(*n) != *n || *n < -9.2e18L || *n > 9.2e18L)
            return std::nullopt;
        return static_cast<std::int64_t>(*n);
    case K::Float:
        if (static_cast<long double>(static_cast<float>(*n)) != *n)
            return std::nullopt;
        return static_cast<float>(*n);
    case K::Double:
        if (static_cast<long double>(static_cast<double>(*n)) != *n)
            return std::nullopt;
        return static_cast<double>(*n);
    default:
        return std::nullopt;
    }
}

nlohmann::json toJson(FieldKind kind, const ModelValue& value, const IdTable& ids,
                      const SharedTypes& types) {
    auto record = [&](const Record& r) {
        nlohmann::json out = nlohmann::json::object();
        for (std::size_t i = 0; i < types.loadout.size(); ++i)
            out[types.loadout[i].name] = toJson(types.loadout[i].kind, r.members.at(i), ids, types);
        return out;
    };
    switch (kind) {
    case FieldKind::Int:
    case FieldKind::Long:
        return std::get<std::int64_t>(value);
    case FieldKind::Float:
        return static_cast<double>(std::get<float>(value));
    case FieldKind::Double:
        return std::get<double>(value);
    case FieldKind::String:
    case FieldKind::Mood:
        return std::get<std::string>(value);
    case FieldKind::Bool:
        return std::get<bool>(value);
    case FieldKind::Vector3: {
        const Vec3& v = std::get<Vec3>(value);
        return nlohmann::json::array({v.x, v.y, v.z});
    }
    case FieldKind::EntityRef:
    case FieldKind::TransformRef:
    case FieldKind::ScriptRef: {
        const auto& ref = std::get<std::optional<ObjectRef>>(value);
        if (!ref)
            return nullptr;
        return {{"id", idOf(*ref, ids)}};
    }
    case FieldKind::IntArray:
    case FieldKind::IntList:
        return std::get<std::vector<std::int64_t>>(value);
    case FieldKind::Loadout:
        return record(std::get<std::vector<Record>>(value).at(0));
    case FieldKind::LoadoutList: {
        nlohmann::json out = nlohmann::json::array();
        for (const Record& r : std::get<std::vector<Record>>(value))
            out.push_back(record(r));
        return out;
    }
    }
    return nullptr;
}

bool matches(FieldKind kind, const ModelValue& expected, const nlohmann::json& actual,
             const IdTable& ids, const SharedTypes& types) {
    auto sameFloat = [](float want, const nlohmann::json& got) {
        if (!got.is_number())
            return false;
        // However the host spells a float, it must read back as exactly `want`.
        const float f = static_cast<float>(got.get<double>());
        return std::bit_cast<std::uint32_t>(f) == std::bit_cast<std::uint32_t>(want);
    };
    auto record = [&](const Record& r, const nlohmann::json& got) {
        if (!got.is_object() || got.size() != types.loadout.size() ||
            r.members.size() != types.loadout.size())
            return false;
        for (std::size_t i = 0; i < types.loadout.size(); ++i) {
            const FieldDecl& m = types.loadout[i];
            if (!got.contains(m.name) || !matches(m.kind, r.members[i], got[m.name], ids, types))
                return false;
        }
        return true;
    };
    switch (kind) {
    case FieldKind::Int:
    case FieldKind::Long:
        return actual.is_number_integer() &&
               actual.get<std::int64_t>() == std::get<std::int64_t>(expected);
    case FieldKind::Float:
        return sameFloat(std::get<float>(expected), actual);
    case FieldKind::Double:
        return actual.is_number() && std::bit_cast<std::uint64_t>(actual.get<double>()) ==
                                         std::bit_cast<std::uint64_t>(std::get<double>(expected));
    case FieldKind::String:
    case FieldKind::Mood:
        return actual.is_string() && actual.get<std::string>() == std::get<std::string>(expected);
    case FieldKind::Bool:
        return actual.is_boolean() && actual.get<bool>() == std::get<bool>(expected);
    case FieldKind::Vector3: {
        const Vec3& v = std::get<Vec3>(expected);
        return actual.is_array() && actual.size() == 3 && sameFloat(v.x, actual[0]) &&
               sameFloat(v.y, actual[1]) && sameFloat(v.z, actual[2]);
    }
    case FieldKind::EntityRef:
    case FieldKind::TransformRef:
    case FieldKind::ScriptRef: {
        const auto& ref = std::get<std::optional<ObjectRef>>(expected);
        if (!ref)
            return actual.is_null();
        return actual.is_object() && actual.contains("id") && actual["id"].is_number_unsigned() &&
               actual["id"].get<std::uint64_t>() == idOf(*ref, ids);
    }
    case FieldKind::IntArray:
    case FieldKind::IntList: {
        const auto& items = std::get<std::vector<std::int64_t>>(expected);
        if (!actual.is_array() || actual.size() != items.size())
            return false;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (!actual[i].is_number_integer() || actual[i].get<std::int64_t>() != items[i])
                return false;
        }
        return true;
    }
    case FieldKind::Loadout:
        return record(std::get<std::vector<Record>>(expected).at(0), actual);
    case FieldKind::LoadoutList: {
        const auto& items = std::get<std::vector<Record>>(expected);
        if (!actual.is_array() || actual.size() != items.size())
            return false;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (!record(items[i], actual[i]))
                return false;
        }
        return true;
    }
    }
    return false;
}

std::string describe(FieldKind kind, const ModelValue& value) {
    // A record's members are scalars: their kind follows from what the value holds.
    auto record = [](const Record& r) {
        static constexpr FieldKind scalarOf[] = {FieldKind::Long, FieldKind::Float,
                                                 FieldKind::Double, FieldKind::String,
                                                 FieldKind::Bool};
        std::string text;
        for (const ModelValue& m : r.members) {
            text += text.empty() ? "{" : ", ";
            text += m.index() < std::size(scalarOf) ? describe(scalarOf[m.index()], m) : "?";
        }
        return text.empty() ? std::string("{}") : text + "}";
    };
    switch (kind) {
    case FieldKind::Int:
    case FieldKind::Long:
        return std::to_string(std::get<std::int64_t>(value));
    case FieldKind::Float:
        return floatText(std::get<float>(value)) + "f";
    case FieldKind::Double:
        return doubleText(std::get<double>(value));
    case FieldKind::String:
        return "\"" + std::get<std::string>(value) + "\"";
    case FieldKind::Mood:
        return "Mood." + std::get<std::string>(value);
    case FieldKind::Bool:
        return std::get<bool>(value) ? "true" : "false";
    case FieldKind::Vector3: {
        const Vec3& v = std::get<Vec3>(value);
        return fmt::format("({}, {}, {})", floatText(v.x), floatText(v.y), floatText(v.z));
    }
    case FieldKind::EntityRef:
    case FieldKind::TransformRef:
    case FieldKind::ScriptRef: {
        const auto& ref = std::get<std::optional<ObjectRef>>(value);
        if (!ref)
            return "null";
        return fmt::format("{}#{}", ref->isScript ? "slot" : "entity", ref->index);
    }
    case FieldKind::IntArray:
    case FieldKind::IntList:
        return fmt::format("[{}]", fmt::join(std::get<std::vector<std::int64_t>>(value), ", "));
    case FieldKind::Loadout:
        return record(std::get<std::vector<Record>>(value).at(0));
    case FieldKind::LoadoutList: {
        std::string text = "[";
        for (const Record& r : std::get<std::vector<Record>>(value))
            text += (text.size() > 1 ? ", " : "") + record(r);
        return text + "]";
    }
    }
    return "?";
}

} // namespace scripthost::torture
