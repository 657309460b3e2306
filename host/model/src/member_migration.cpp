// The reload's member-by-member rules for records (member_migration.hpp). The outcome texts
// are part of the reload report, like field_migration.cpp's.
#include "host/model/member_migration.hpp"

#include "host/model/value_conversion.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <tuple>

namespace scripthost {

namespace {

constexpr const char* kAddedDetail = "new member: default kept";
constexpr const char* kRemovedDetail = "no such member any more: value parked";

bool isRecordSequence(const FieldType& t) {
    return (t.kind == ValueKind::Array || t.kind == ValueKind::List) &&
           t.elementType().kind == ValueKind::Record;
}

std::optional<std::size_t> findParked(const std::vector<FieldSnapshot>& parked,
                                      const std::string& path) {
    for (std::size_t i = 0; i < parked.size(); ++i) {
        if (parked[i].name == path)
            return i;
    }
    return std::nullopt;
}

// One migration in progress: the parked values as they stand and the notes so far, committed
// by migrateValue only when the whole value migrated.
struct Staged {
    std::vector<FieldSnapshot> parked;
    std::vector<std::tuple<std::string, FieldOutcome::Kind, std::string>> notes;

    void note(std::string path, FieldOutcome::Kind kind, std::string detail) {
        notes.emplace_back(std::move(path), kind, std::move(detail));
    }
    void park(FieldSnapshot value) {
        std::erase_if(parked, [&](const FieldSnapshot& p) { return p.name == value.name; });
        parked.push_back(std::move(value));
    }
    FieldSnapshot take(std::size_t at) {
        FieldSnapshot taken = std::move(parked[at]);
        parked.erase(parked.begin() + static_cast<std::ptrdiff_t>(at));
        return taken;
    }
};

Result<Value> migrate(const std::string& path, const Value& value, const FieldType& from,
                      const FieldType& to, Staged& staged);

// One member's value, converted like a field: what cannot convert keeps the default and is
// parked under `oldPath` (the member's path under its old name).
Value migrateMember(const std::string& path, const std::string& oldPath, const Value& value,
                    const FieldType& from, const FieldType& to, Staged& staged) {
    auto converted = migrate(path, value, from, to, staged);
    if (!converted) {
        staged.note(path, FieldOutcome::Kind::Kept,
                    fmt::format("{} {} cannot become {}: {}; default kept, old value parked",
                                kindName(from.kind), describe(value), to.typeName,
                                converted.error().message));
        staged.park(FieldSnapshot{oldPath, from, value});
        return KeepDefault{};
    }
    if (!sameShape(from, to) && !migratesByMember(from, to)) {
        staged.note(path, FieldOutcome::Kind::Converted,
                    fmt::format("{} {} -> {} {}", from.typeName, describe(value), to.typeName,
                                describe(*converted)));
    }
    return std::move(*converted);
}

// A gained member: the value parked under its path (or a former name's), else the default.
Value gainedMember(const std::string& parent, const MemberType& now, Staged& staged) {
    const std::string path = memberPath(parent, now.name);
    std::optional<std::size_t> at = findParked(staged.parked, path);
    for (std::size_t i = 0; !at && i < now.formerNames.size(); ++i)
        at = findParked(staged.parked, memberPath(parent, now.formerNames[i]));
    if (!at) {
        staged.note(path, FieldOutcome::Kind::Added, kAddedDetail);
        return KeepDefault{};
    }
    FieldSnapshot returning = staged.take(*at);
    const std::string oldPath = returning.name;
    auto converted = migrate(path, returning.value, returning.type, now.type, staged);
    if (!converted) {
        staged.note(path, FieldOutcome::Kind::Kept,
                    fmt::format("parked {} {} cannot become {}: {}; default kept, still parked",
                                kindName(returning.type.kind), describe(returning.value),
                                now.type.typeName, converted.error().message));
        staged.park(std::move(returning));
        return KeepDefault{};
    }
    staged.note(path, FieldOutcome::Kind::Unparked,
                oldPath == path ? std::string("parked value restored")
                                : "parked value restored (from " + oldPath + ")");
    return std::move(*converted);
}

Result<Value> migrateRecord(const std::string& path, const Value& value, const FieldType& from,
                            const FieldType& to, Staged& staged) {
    const auto* members = std::get_if<ValueList>(&value);
    if (members == nullptr)
        return fail("a saved record holds " + describe(value));
    if (members->empty() && from.recordIsClass) {
        if (to.recordIsClass)
            return Value{ValueList{}}; // null stays null
        return fail("a null " + from.typeName + " cannot become a struct");
    }
    if (members->size() != from.members.size())
        return fail(fmt::format("a saved {} has {} members, not {}", from.typeName, members->size(),
                                from.members.size()));
    std::vector<bool> taken(from.members.size(), false);
    auto findOld = [&](const std::string& name) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < from.members.size(); ++i) {
            if (!taken[i] && from.members[i].name == name)
                return i;
        }
        return std::nullopt;
    };
    ValueList out;
    out.reserve(to.members.size());
    for (const MemberType& now : to.members) {
        const std::string path_ = memberPath(path, now.name);
        std::optional<std::size_t> at = findOld(now.name);
        bool renamed = false;
        for (std::size_t i = 0; !at && i < now.formerNames.size(); ++i) {
            at = findOld(now.formerNames[i]);
            renamed = at.has_value();
        }
        if (!at) {
            out.push_back(gainedMember(path, now, staged));
            continue;
        }
        taken[*at] = true;
        const MemberType& old = from.members[*at];
        const Value& saved = (*members)[*at];
        // A value parked when the member's type changed comes back when the type changes back,
        // in preference to the saved value (the default kept then): the outcome names it.
        if (!sameShape(old.type, now.type)) {
            if (auto p = findParked(staged.parked, path_);
                p && sameShape(staged.parked[*p].type, now.type)) {
                FieldSnapshot returning = staged.take(*p);
                staged.note(path_, FieldOutcome::Kind::Unparked,
                            fmt::format("parked value restored (replaces {} {})", old.type.typeName,
                                        describe(saved)));
                out.push_back(std::move(returning.value));
                continue;
            }
        }
        out.push_back(
            migrateMember(path_, memberPath(path, old.name), saved, old.type, now.type, staged));
        if (renamed)
            staged.note(path_, FieldOutcome::Kind::Renamed, "from " + old.name);
    }
    for (std::size_t i = 0; i < from.members.size(); ++i) {
        if (taken[i])
            continue;
        const std::string gone = memberPath(path, from.members[i].name);
        staged.note(gone, FieldOutcome::Kind::Removed, kRemovedDetail);
        staged.park(FieldSnapshot{gone, from.members[i].type, (*members)[i]});
    }
    return Value{std::move(out)};
}

Result<Value> migrateSequence(const std::string& path, const Value& value, const FieldType& from,
                              const FieldType& to, Staged& staged) {
    const auto* items = std::get_if<ValueList>(&value);
    if (items == nullptr)
        return fail("a saved list holds " + describe(value));
    ValueList out;
    out.reserve(items->size());
    for (std::size_t i = 0; i < items->size(); ++i) {
        auto item = migrate(elementPath(path, i), (*items)[i], from.elementType(), to.elementType(),
                            staged);
        if (!item)
            return fail(fmt::format("[{}]: {}", i, item.error().message));
        out.push_back(std::move(*item));
    }
    return Value{std::move(out)};
}

Result<Value> migrate(const std::string& path, const Value& value, const FieldType& from,
                      const FieldType& to, Staged& staged) {
    if (sameShape(from, to))
        return value;
    if (from.kind == ValueKind::Record && to.kind == ValueKind::Record)
        return migrateRecord(path, value, from, to, staged);
    if (migratesByMember(from, to))
        return migrateSequence(path, value, from, to, staged);
    return convertValue(value, from, to);
}

} // namespace

std::string memberPath(std::string_view parent, std::string_view member) {
    return fmt::format("{}.{}", parent, member);
}

std::string elementPath(std::string_view parent, std::size_t index) {
    return fmt::format("{}[{}]", parent, index);
}

bool migratesByMember(const FieldType& from, const FieldType& to) {
    if (from.kind == ValueKind::Record && to.kind == ValueKind::Record)
        return true;
    return isRecordSequence(from) && isRecordSequence(to);
}

Result<Value> migrateValue(const std::string& path, const Value& value, const FieldType& from,
                           const FieldType& to, std::vector<FieldSnapshot>& parked,
                           const MemberNote& note) {
    if (!migratesByMember(from, to))
        return sameShape(from, to) ? Result<Value>(value) : convertValue(value, from, to);
    Staged staged{parked, {}};
    auto migrated = migrate(path, value, from, to, staged);
    if (!migrated)
        return migrated;
    parked = std::move(staged.parked);
    for (auto& [memberPathText, kind, detail] : staged.notes)
        note(memberPathText, kind, std::move(detail));
    return migrated;
}

const Value* valueAtPath(const Value& value, const FieldType& type, std::string_view path) {
    if (path.empty())
        return &value;
    const auto* items = std::get_if<ValueList>(&value);
    if (items == nullptr)
        return nullptr;
    if (path.front() == '[') {
        if (type.kind != ValueKind::Array && type.kind != ValueKind::List)
            return nullptr;
        const std::size_t close = path.find(']');
        if (close == std::string_view::npos)
            return nullptr;
        std::size_t index = 0;
        for (char c : path.substr(1, close - 1)) {
            if (c < '0' || c > '9')
                return nullptr;
            index = index * 10 + static_cast<std::size_t>(c - '0');
        }
        if (close == 1 || index >= items->size())
            return nullptr;
        return valueAtPath((*items)[index], type.elementType(), path.substr(close + 1));
    }
    if (path.front() != '.' || type.kind != ValueKind::Record)
        return nullptr;
    const std::size_t end = path.find_first_of(".[", 1);
    const std::string_view name =
        path.substr(1, end == std::string_view::npos ? path.npos : end - 1);
    for (std::size_t i = 0; i < type.members.size() && i < items->size(); ++i) {
        if (type.members[i].name == name)
            return valueAtPath((*items)[i], type.members[i].type,
                               end == std::string_view::npos ? std::string_view{}
                                                             : path.substr(end));
    }
    return nullptr;
}

void describeKeptDefaults(std::vector<FieldOutcome>& outcomes, const ScriptClassInfo& newClass,
                          const std::function<Result<Value>(const FieldInfo& field)>& read) {
    std::vector<std::pair<const FieldInfo*, std::optional<Value>>> cache; // fields read so far
    for (FieldOutcome& outcome : outcomes) {
        const std::size_t split = outcome.field.find_first_of(".[");
        if (outcome.kind != FieldOutcome::Kind::Added || split == std::string::npos ||
            outcome.detail != kAddedDetail) {
            continue;
        }
        const std::string_view name = std::string_view(outcome.field).substr(0, split);
        const FieldInfo* field = nullptr;
        for (const FieldInfo& f : newClass.fields) {
            if (f.name == name)
                field = &f;
        }
        if (field == nullptr)
            continue;
        auto cached = std::find_if(cache.begin(), cache.end(),
                                   [&](const auto& entry) { return entry.first == field; });
        if (cached == cache.end()) {
            auto value = read(*field);
            cache.emplace_back(field,
                               value ? std::optional<Value>(std::move(*value)) : std::nullopt);
            cached = cache.end() - 1;
        }
        if (!cached->second)
            continue;
        const Value* member = valueAtPath(*cached->second, field->type,
                                          std::string_view(outcome.field).substr(split));
        if (member != nullptr && !std::holds_alternative<KeepDefault>(*member))
            outcome.detail = fmt::format("new member: default {} kept", describe(*member));
    }
}

} // namespace scripthost
