#include "host/model/value_conversion.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace scripthost {

namespace {

bool isInteger(ValueKind k) {
    return k >= ValueKind::Int8 && k <= ValueKind::UInt64;
}
bool isFloat(ValueKind k) {
    return k == ValueKind::Float || k == ValueKind::Double;
}
bool isNumeric(ValueKind k) {
    return isInteger(k) || isFloat(k);
}
bool isSignedInteger(ValueKind k) {
    return k == ValueKind::Int8 || k == ValueKind::Int16 || k == ValueKind::Int32 ||
           k == ValueKind::Int64;
}

// Inclusive range of an integer kind as long double (exact for 64-bit bounds).
void integerRange(ValueKind k, long double& lo, long double& hi) {
    switch (k) {
    case ValueKind::Int8:
        lo = INT8_MIN;
        hi = INT8_MAX;
        return;
    case ValueKind::UInt8:
        lo = 0;
        hi = UINT8_MAX;
        return;
    case ValueKind::Int16:
        lo = INT16_MIN;
        hi = INT16_MAX;
        return;
    case ValueKind::UInt16:
        lo = 0;
        hi = UINT16_MAX;
        return;
    case ValueKind::Int32:
        lo = INT32_MIN;
        hi = INT32_MAX;
        return;
    case ValueKind::UInt32:
        lo = 0;
        hi = UINT32_MAX;
        return;
    case ValueKind::Int64:
        lo = static_cast<long double>(INT64_MIN);
        hi = static_cast<long double>(INT64_MAX);
        return;
    default:
        lo = 0;
        hi = static_cast<long double>(UINT64_MAX);
        return;
    }
}

// The value as an exact long double (64-bit integers and doubles fit an x87 long double).
bool asNumber(const Value& v, long double& out, bool& isNan) {
    isNan = false;
    if (auto* i = std::get_if<std::int64_t>(&v)) {
        out = static_cast<long double>(*i);
        return true;
    }
    if (auto* u = std::get_if<std::uint64_t>(&v)) {
        out = static_cast<long double>(*u);
        return true;
    }
    if (auto* f = std::get_if<float>(&v)) {
        isNan = std::isnan(*f);
        out = *f;
        return true;
    }
    if (auto* d = std::get_if<double>(&v)) {
        isNan = std::isnan(*d);
        out = *d;
        return true;
    }
    return false;
}

Result<Value> numberTo(long double n, bool isNan, ValueKind to, const Value& original) {
    if (isFloat(to)) {
        if (to == ValueKind::Double) {
            const double d = static_cast<double>(n);
            if (!isNan && static_cast<long double>(d) != n) {
                return fail(describe(original) + " is not exactly representable as a double");
            }
            return Value{isNan ? std::numeric_limits<double>::quiet_NaN() : d};
        }
        const float f = static_cast<float>(n);
        if (!isNan && static_cast<long double>(f) != n) {
            return fail(describe(original) + " is not exactly representable as a float");
        }
        return Value{isNan ? std::numeric_limits<float>::quiet_NaN() : f};
    }
    if (isNan || std::isinf(n) || std::trunc(n) != n) {
        return fail(describe(original) + " is not a whole number");
    }
    long double lo, hi;
    integerRange(to, lo, hi);
    if (n < lo || n > hi) {
        return fail(fmt::format("{} does not fit a {}", describe(original), kindName(to)));
    }
    if (isSignedInteger(to))
        return Value{static_cast<std::int64_t>(n)};
    return Value{static_cast<std::uint64_t>(n)};
}

const std::string* memberName(const FieldType& type, std::int64_t value) {
    for (const auto& [name, member] : type.enumMembers) {
        if (member == value)
            return &name;
    }
    return nullptr;
}

const std::int64_t* memberValue(const FieldType& type, const std::string& name) {
    for (const auto& [member, value] : type.enumMembers) {
        if (member == name)
            return &value;
    }
    return nullptr;
}

} // namespace

bool sameShape(const FieldType& a, const FieldType& b) {
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case ValueKind::Enum:
        return a.enumMembers == b.enumMembers;
    case ValueKind::ObjectRef:
        return a.typeName == b.typeName;
    case ValueKind::Array:
    case ValueKind::List:
        return sameShape(a.elementType(), b.elementType());
    case ValueKind::Record:
        if (a.members.size() != b.members.size())
            return false;
        for (std::size_t i = 0; i < a.members.size(); ++i) {
            if (a.members[i].name != b.members[i].name ||
                !sameShape(a.members[i].type, b.members[i].type)) {
                return false;
            }
        }
        return true;
    default:
        return true;
    }
}

namespace {

/// An enum's value to another type: by member name to an enum or a string, by its number to
/// a numeric type.
Result<Value> convertFromEnum(const Value& value, const FieldType& from, const FieldType& to) {
    const ValueKind t = to.kind;
    const auto* raw = std::get_if<std::int64_t>(&value);
    if (raw == nullptr)
        return fail("a saved enum holds " + describe(value));
    const std::string* name = memberName(from, *raw);
    if (t == ValueKind::Enum) {
        if (name == nullptr)
            return fail(fmt::format("{} is not a member of {}", *raw, from.typeName));
        if (const std::int64_t* v = memberValue(to, *name))
            return Value{*v};
        return fail(fmt::format("{} has no member {}", to.typeName, *name));
    }
    if (t == ValueKind::String) {
        if (name == nullptr)
            return fail(fmt::format("{} is not a member of {}", *raw, from.typeName));
        return Value{*name};
    }
    if (isNumeric(t))
        return numberTo(static_cast<long double>(*raw), false, t, value);
    return fail(fmt::format("an enum cannot become a {}", kindName(t)));
}

/// A string (a member's name) or an integer (a member's value) to an enum.
Result<Value> convertToEnum(const Value& value, const FieldType& from, const FieldType& to) {
    const ValueKind f = from.kind;
    if (f == ValueKind::String) {
        const std::string& name = std::get<std::string>(value);
        if (const std::int64_t* v = memberValue(to, name))
            return Value{*v};
        return fail(fmt::format("{} has no member {}", to.typeName, name));
    }
    long double n;
    bool isNan;
    if (isInteger(f) && asNumber(value, n, isNan)) {
        const auto member = static_cast<std::int64_t>(n);
        if (static_cast<long double>(member) == n && memberName(to, member) != nullptr) {
            return Value{member};
        }
        return fail(fmt::format("{} is not a member of {}", describe(value), to.typeName));
    }
    return fail(fmt::format("a {} cannot become an enum", kindName(f)));
}

/// An array or list, element by element.
Result<Value> convertList(const Value& value, const FieldType& from, const FieldType& to) {
    const auto* items = std::get_if<ValueList>(&value);
    if (items == nullptr)
        return fail("a saved list holds " + describe(value));
    ValueList converted;
    converted.reserve(items->size());
    for (std::size_t i = 0; i < items->size(); ++i) {
        auto item = convertValue((*items)[i], from.elementType(), to.elementType());
        if (!item)
            return fail(fmt::format("[{}]: {}", i, item.error().message));
        converted.push_back(std::move(*item));
    }
    return Value{std::move(converted)};
}

/// A record, member by member, by name. Every old member must find a place: a member that
/// would be dropped fails the conversion (the caller parks the whole value).
Result<Value> convertRecord(const Value& value, const FieldType& from, const FieldType& to) {
    const auto* members = std::get_if<ValueList>(&value);
    if (members == nullptr)
        return fail("a saved record holds " + describe(value));
    if (members->empty()) {
        if (to.recordIsClass)
            return Value{ValueList{}};
        return fail("a null " + from.typeName + " cannot become a struct");
    }
    for (const MemberType& old : from.members) {
        bool kept = false;
        for (const MemberType& now : to.members)
            kept = kept || now.name == old.name;
        if (!kept)
            return fail(fmt::format("{} has no member {} any more", to.typeName, old.name));
    }
    ValueList converted;
    for (const MemberType& now : to.members) {
        std::size_t at = from.members.size();
        for (std::size_t i = 0; i < from.members.size(); ++i) {
            if (from.members[i].name == now.name)
                at = i;
        }
        if (at == from.members.size()) {
            return fail(
                fmt::format("{} gained member {}: no saved value for it", to.typeName, now.name));
        }
        auto member = convertValue((*members)[at], from.members[at].type, now.type);
        if (!member)
            return fail(fmt::format("{}: {}", now.name, member.error().message));
        converted.push_back(std::move(*member));
    }
    return Value{std::move(converted)};
}

bool isSequence(ValueKind kind) { return kind == ValueKind::Array || kind == ValueKind::List; }

} // namespace

Result<Value> convertValue(const Value& value, const FieldType& from, const FieldType& to) {
    if (sameShape(from, to)) {
        return value;
    }
    const ValueKind f = from.kind, t = to.kind;
    // Enums first: their storage is an integer, but their meaning is the member.
    if (f == ValueKind::Enum)
        return convertFromEnum(value, from, to);
    if (t == ValueKind::Enum)
        return convertToEnum(value, from, to);
    if (isNumeric(f) && isNumeric(t)) {
        long double n;
        bool isNan;
        asNumber(value, n, isNan);
        return numberTo(n, isNan, t, value);
    }
    if (isSequence(f) && isSequence(t))
        return convertList(value, from, to);
    if (f == ValueKind::Record && t == ValueKind::Record)
        return convertRecord(value, from, to);
    if (f == ValueKind::ObjectRef && t == ValueKind::ObjectRef) {
        // The object's class decides; the bridge checks it when the value is written.
        return value;
    }
    return fail(fmt::format("a {} ({}) cannot become a {} ({})", kindName(f), from.typeName,
                            kindName(t), to.typeName));
}

} // namespace scripthost
