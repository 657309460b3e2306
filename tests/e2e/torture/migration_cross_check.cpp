#include "migration_cross_check.hpp"

#include "../../host/model/field_migration_cases.hpp"
#include "host/model/field_migration.hpp"

#include <fmt/format.h>

namespace scripthost::torture {

namespace {

using migration_cases::identical;

FieldType hostType(FieldKind kind, const SharedTypes& types) {
    using migration_cases::record;
    using migration_cases::reference;
    using migration_cases::scalar;
    using migration_cases::sequence;
    auto loadout = [&] {
        std::vector<MemberType> members;
        for (const FieldDecl& m : types.loadout)
            members.push_back(MemberType{m.name, hostType(m.kind, types), m.formerNames});
        return record("Torture.Loadout", true, std::move(members));
    };
    switch (kind) {
    case FieldKind::Int:
        return scalar(ValueKind::Int32, "System.Int32");
    case FieldKind::Long:
        return scalar(ValueKind::Int64, "System.Int64");
    case FieldKind::Float:
        return scalar(ValueKind::Float, "System.Single");
    case FieldKind::Double:
        return scalar(ValueKind::Double, "System.Double");
    case FieldKind::String:
        return scalar(ValueKind::String, "System.String");
    case FieldKind::Bool:
        return scalar(ValueKind::Bool, "System.Boolean");
    case FieldKind::Mood: {
        FieldType t = scalar(ValueKind::Enum, "Torture.Mood");
        for (const MoodMember& m : types.mood)
            t.enumMembers.emplace_back(m.name, m.value);
        return t;
    }
    case FieldKind::Vector3:
        return scalar(ValueKind::Vector3, "UEngine.Vector3");
    case FieldKind::EntityRef:
        return reference(RefTarget::Entity, "UEngine.UEntity");
    case FieldKind::ScriptRef:
        return reference(RefTarget::Script, "UEngine.UMonoScriptComponent");
    case FieldKind::TransformRef:
        return reference(RefTarget::Entity, "UEngine.UTransform");
    case FieldKind::IntArray:
        return sequence(ValueKind::Array, scalar(ValueKind::Int32, "System.Int32"));
    case FieldKind::IntList:
        return sequence(ValueKind::List, scalar(ValueKind::Int32, "System.Int32"));
    case FieldKind::Loadout:
        return loadout();
    case FieldKind::LoadoutList:
        return sequence(ValueKind::List, loadout());
    }
    return {};
}

// Entities and script slots as ids: generation 1 for entities, 2 for scripts, so the two
// never collide and a script id says which slot it is.
ObjectId idOf(const ObjectRef& ref) {
    return ObjectId{static_cast<std::uint32_t>(ref.index + 1), ref.isScript ? 2u : 1u};
}

Value hostValue(FieldKind kind, const ModelValue& value, const SharedTypes& types) {
    auto record = [&](const Record& r) {
        ValueList members;
        for (std::size_t i = 0; i < types.loadout.size(); ++i)
            members.push_back(hostValue(types.loadout[i].kind, r.members.at(i), types));
        return Value{std::move(members)};
    };
    switch (kind) {
    case FieldKind::Mood:
        if (const MoodMember* m = types.moodByName(std::get<std::string>(value)))
            return Value{m->value};
        return Value{std::int64_t{-1}}; // the model only holds members
    case FieldKind::Vector3: {
        const Vec3& v = std::get<Vec3>(value);
        return Value{glm::vec3(v.x, v.y, v.z)};
    }
    case FieldKind::EntityRef:
    case FieldKind::ScriptRef:
    case FieldKind::TransformRef: {
        const auto& ref = std::get<std::optional<ObjectRef>>(value);
        return Value{scripthost::ObjectRef{ref ? idOf(*ref) : ObjectId{}}};
    }
    case FieldKind::IntArray:
    case FieldKind::IntList: {
        ValueList items;
        for (std::int64_t i : std::get<std::vector<std::int64_t>>(value))
            items.push_back(Value{i});
        return Value{std::move(items)};
    }
    case FieldKind::Loadout:
        return record(std::get<std::vector<Record>>(value).at(0));
    case FieldKind::LoadoutList: {
        ValueList items;
        for (const Record& r : std::get<std::vector<Record>>(value))
            items.push_back(record(r));
        return Value{std::move(items)};
    }
    default:
        return std::visit(
            [](const auto& v) -> Value {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, float> ||
                              std::is_same_v<T, double> || std::is_same_v<T, std::string> ||
                              std::is_same_v<T, bool>)
                    return Value{v};
                else
                    return Value{};
            },
            value);
    }
}

// A value the host writes with KeepDefault in it (a gained record member): what the new
// instance holds there, from the model's default of the same place.
void fillDefaults(Value& value, const Value& fallback) {
    if (std::holds_alternative<KeepDefault>(value)) {
        value = fallback;
        return;
    }
    auto* items = std::get_if<ValueList>(&value);
    const auto* defaults = std::get_if<ValueList>(&fallback);
    if (items == nullptr || defaults == nullptr)
        return;
    for (std::size_t i = 0; i < items->size() && i < defaults->size(); ++i)
        fillDefaults((*items)[i], (*defaults)[i]);
}

std::vector<FieldSnapshot> snapshots(const std::vector<SavedField>& fields) {
    std::vector<FieldSnapshot> out;
    for (const SavedField& f : fields)
        out.push_back(FieldSnapshot{f.name, hostType(f.kind, *f.types),
                                    hostValue(f.kind, f.value, *f.types)});
    return out;
}

ScriptClassInfo classInfo(const ClassSource& source, const SharedTypes& types) {
    ScriptClassInfo info;
    info.name = "Torture." + source.name;
    for (const FieldDecl& decl : source.fields)
        info.fields.push_back(FieldInfo{decl.name, decl.name, hostType(decl.kind, types),
                                        decl.formerNames, info.name});
    return info;
}

// The model's fields of one slot after the reload against migrateFields' writes (defaults
// where it writes nothing).
std::optional<std::string> compareFields(const ScriptClassInfo& info, const ClassSource& source,
                                         const SharedTypes& types, const Slot& slot, int index,
                                         const FieldMigration& m) {
    if (slot.values.size() != info.fields.size())
        return fmt::format("{} slot {}: the model has {} fields, the class {}", info.name, index,
                           slot.values.size(), info.fields.size());
    for (std::size_t i = 0; i < info.fields.size(); ++i) {
        const SavedField& model = slot.values[i];
        auto write = std::ranges::find(m.writes, i, &FieldWrite::index);
        const Value initial =
            hostValue(source.fields[i].kind, initialOf(source.fields[i], types), types);
        Value expected = write != m.writes.end() ? write->value : initial;
        if (source.fields[i].kind == FieldKind::LoadoutList) {
            // Each element's gained members: what a fresh Loadout holds.
            const Value fresh =
                hostValue(FieldKind::Loadout, std::vector<Record>{defaultRecord(types)}, types);
            if (auto* items = std::get_if<ValueList>(&expected))
                for (Value& item : *items)
                    fillDefaults(item, fresh);
        } else {
            fillDefaults(expected, initial);
        }
        if (model.name != info.fields[i].name || model.kind != source.fields[i].kind ||
            !identical(hostValue(model.kind, model.value, types), expected)) {
            return fmt::format("{}.{} (slot {}): the model says {} ({}), migrateFields {} {}",
                               info.name, info.fields[i].name, index,
                               describe(model.kind, model.value), kindLabel(model.kind),
                               write != m.writes.end() ? "writes" : "keeps the default",
                               scripthost::describe(expected));
        }
    }
    return std::nullopt;
}

// The values parked on one slot after the reload, by name.
std::optional<std::string> compareParked(const ScriptClassInfo& info, const Slot& slot, int index,
                                         const FieldMigration& m) {
    for (const SavedField& model : slot.parked) {
        auto host = std::ranges::find(m.parked, model.name, &FieldSnapshot::name);
        if (host == m.parked.end() || !(host->type == hostType(model.kind, *model.types)) ||
            !identical(host->value, hostValue(model.kind, model.value, *model.types))) {
            return fmt::format(
                "{}.{} (slot {}): the model parks {} ({}), migrateFields {}", info.name, model.name,
                index, describe(model.kind, model.value), kindLabel(model.kind),
                host == m.parked.end() ? std::string("parks nothing of that name")
                                       : "parks " + scripthost::describe(host->value));
        }
    }
    for (const FieldSnapshot& host : m.parked) {
        if (std::ranges::find(slot.parked, host.name, &SavedField::name) == slot.parked.end())
            return fmt::format("{}.{} (slot {}): migrateFields parks {}, the model nothing",
                               info.name, host.name, index, scripthost::describe(host.value));
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> migrationDisagreement(const WorldModel& before,
                                                 const WorldModel& after) {
    // A reference to a script whose class is missing after the reload is dead; entities stay.
    const std::function<bool(ObjectId)> usable = [&](ObjectId id) {
        return id.generation != 2 || after.slots.at(id.index - 1).live;
    };
    for (std::size_t s = 0; s < after.slots.size(); ++s) {
        const Slot& now = after.slots[s];
        if (!now.live)
            continue;
        const Slot& was = before.slots[s];
        const ClassSource& source = after.running[static_cast<std::size_t>(now.cls)];
        const ScriptClassInfo info = classInfo(source, *after.runningTypes);
        const FieldMigration m =
            migrateFields(ObjectId{static_cast<std::uint32_t>(s + 1), 2}, info,
                          snapshots(was.values), snapshots(was.parked), !was.live, usable);
        const int index = static_cast<int>(s);
        if (auto fields = compareFields(info, source, *after.runningTypes, now, index, m))
            return fields;
        if (auto parked = compareParked(info, now, index, m))
            return parked;
    }
    return std::nullopt;
}

} // namespace scripthost::torture
