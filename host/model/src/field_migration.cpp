// The reload's field-migration rules (field_migration.hpp). Every outcome text here is part of
// the reload report that tests and tools read: change none of them lightly.
#include "host/model/field_migration.hpp"

#include "host/model/member_migration.hpp"
#include "host/model/value_conversion.hpp"

#include <fmt/format.h>
#include <optional>
#include <string>

namespace scripthost {

namespace {

constexpr const char* kAddedDetail = "new field: constructor default";
constexpr const char* kRemovedDetail = "no such field any more: value parked";

std::string clearedDetail(std::size_t count) {
    return fmt::format("{} reference(s) to objects that no longer exist set to null", count);
}

// The position of the first field named `name`, if any (the first, as a snapshot has each
// name once and parking keeps it so).
std::optional<std::size_t> findByName(const std::vector<FieldSnapshot>& fields,
                                      const std::string& name) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].name == name)
            return i;
    }
    return std::nullopt;
}

void eraseByName(std::vector<FieldSnapshot>& fields, const std::string& name) {
    std::erase_if(fields, [&](const FieldSnapshot& f) { return f.name == name; });
}

// Parks `field`, replacing an older parked value of the same name: the latest value of a
// name is the one a returning field wants.
void park(std::vector<FieldSnapshot>& parked, FieldSnapshot field) {
    eraseByName(parked, field.name);
    parked.push_back(std::move(field));
}

// Where one new field's value comes from.
struct Source {
    bool fromParked = false; ///< in the slot's parked values, else in the saved ones
    std::size_t at = 0;      ///< position in that list
    FieldOutcome::Kind how = FieldOutcome::Kind::Converted; ///< same name: Converted if it must
    std::string fromName;                                   ///< the name it was found under
    std::string displacedNote; ///< " (replaces T v)" when a parked value displaced a saved one
};

// One script's migration in progress: the values not yet placed, and what has been decided.
class Migration {
public:
    Migration(ObjectId script, const ScriptClassInfo& newClass, std::vector<FieldSnapshot> saved,
              std::vector<FieldSnapshot> parked, const std::function<bool(ObjectId)>& usable)
        : script_(script), class_(newClass), saved_(std::move(saved)), usable_(usable) {
        result_.parked = std::move(parked);
    }

    void migrate(const FieldInfo& field, std::size_t index, bool revived);
    [[nodiscard]] FieldMigration finish();

private:
    void note(const std::string& field, FieldOutcome::Kind kind, std::string detail) {
        result_.outcomes.push_back({script_, class_.name, field, kind, std::move(detail)});
    }
    [[nodiscard]] std::optional<Source> findSaved(const FieldInfo& field) const;
    void preferReturningParked(const FieldInfo& field, Source& source);
    [[nodiscard]] std::optional<Source> findParked(const FieldInfo& field) const;
    [[nodiscard]] FieldSnapshot take(const Source& source);
    [[nodiscard]] std::optional<Value> convertOrPark(const FieldInfo& field, FieldSnapshot consumed,
                                                     FieldOutcome::Kind how);

    ObjectId script_;
    const ScriptClassInfo& class_;
    std::vector<FieldSnapshot> saved_; ///< saved values no field has taken yet
    const std::function<bool(ObjectId)>& usable_;
    FieldMigration result_; ///< its `parked` is the slot's parked values as they stand
};

// The saved value of the field's own name, else of its first former name that has one: the
// current name wins, as a [FormerlySerializedAs] may be left on after the rename was carried.
std::optional<Source> Migration::findSaved(const FieldInfo& field) const {
    if (auto at = findByName(saved_, field.name))
        return Source{false, *at, FieldOutcome::Kind::Converted, field.name, {}};
    for (const std::string& former : field.formerNames) {
        if (auto at = findByName(saved_, former))
            return Source{false, *at, FieldOutcome::Kind::Renamed, former, {}};
    }
    return std::nullopt;
}

// A value parked when the field's type changed comes back when the type changes back: it is
// preferred over a saved value that would need converting. The displaced saved value is the
// default kept at the type change (or an edit made while the type was different): the
// outcome names it. (A displaced value found under a former name stays among the saved ones
// and is parked as removed, unless another field takes it.)
void Migration::preferReturningParked(const FieldInfo& field, Source& source) {
    const FieldSnapshot& current = saved_[source.at];
    if (sameShape(current.type, field.type))
        return;
    const auto parkedAt = findByName(result_.parked, field.name);
    if (!parkedAt || !sameShape(result_.parked[*parkedAt].type, field.type))
        return;
    source.displacedNote =
        fmt::format(" (replaces {} {})", current.type.typeName, describe(current.value));
    FieldSnapshot returning = result_.parked[*parkedAt];
    eraseByName(saved_, field.name);
    saved_.push_back(std::move(returning));
    eraseByName(result_.parked, field.name);
    source.at = *findByName(saved_, field.name);
    source.how = FieldOutcome::Kind::Unparked;
}

// A value parked by an earlier reload under the field's name or a former name: the field
// came back.
std::optional<Source> Migration::findParked(const FieldInfo& field) const {
    if (auto at = findByName(result_.parked, field.name))
        return Source{true, *at, FieldOutcome::Kind::Unparked, field.name, {}};
    for (const std::string& former : field.formerNames) {
        if (auto at = findByName(result_.parked, former))
            return Source{true, *at, FieldOutcome::Kind::Unparked, former, {}};
    }
    return std::nullopt;
}

// Takes the source's value out of its list, so no other field takes it too.
FieldSnapshot Migration::take(const Source& source) {
    std::vector<FieldSnapshot>& from = source.fromParked ? result_.parked : saved_;
    const auto at = from.begin() + static_cast<std::ptrdiff_t>(source.at);
    FieldSnapshot consumed = std::move(*at);
    from.erase(at);
    return consumed;
}

// The consumed value in the field's type, converted only where nothing is lost. What cannot
// convert is parked (the field keeps its default), so a later type change back recovers it.
std::optional<Value> Migration::convertOrPark(const FieldInfo& field, FieldSnapshot consumed,
                                              FieldOutcome::Kind how) {
    if (sameShape(consumed.type, field.type))
        return std::move(consumed.value);
    // Records (and lists of them) go member by member: the members' outcomes are noted, what
    // has no member is parked under its path, gained members are KeepDefault.
    auto converted =
        migrateValue(field.name, consumed.value, consumed.type, field.type, result_.parked,
                     [this](const std::string& path, FieldOutcome::Kind kind, std::string detail) {
                         note(path, kind, std::move(detail));
                     });
    if (!converted) {
        note(field.name, FieldOutcome::Kind::Kept,
             fmt::format("{} {} cannot become {}: {}; default kept, old value parked",
                         kindName(consumed.type.kind), describe(consumed.value),
                         field.type.typeName, converted.error().message));
        park(result_.parked, std::move(consumed));
        return std::nullopt;
    }
    if (how == FieldOutcome::Kind::Converted && !migratesByMember(consumed.type, field.type)) {
        note(field.name, how,
             fmt::format("{} {} -> {} {}", consumed.type.typeName, describe(consumed.value),
                         field.type.typeName, describe(*converted)));
    }
    return std::move(*converted);
}

// One field of the new class: find its source, convert or park it, clear dead references.
void Migration::migrate(const FieldInfo& field, std::size_t index, bool revived) {
    std::optional<Source> source = findSaved(field);
    if (source)
        preferReturningParked(field, *source);
    else
        source = findParked(field);
    if (!source) {
        if (!revived)
            note(field.name, FieldOutcome::Kind::Added, kAddedDetail);
        return;
    }
    std::optional<Value> value = convertOrPark(field, take(*source), source->how);
    if (!value)
        return;
    if (source->how == FieldOutcome::Kind::Renamed)
        note(field.name, source->how, "from " + source->fromName);
    else if (source->how == FieldOutcome::Kind::Unparked)
        note(field.name, source->how, "parked value restored" + source->displacedNote);
    if (const std::size_t cleared = clearReferences(*value, usable_))
        note(field.name, FieldOutcome::Kind::Cleared, clearedDetail(cleared));
    result_.writes.push_back(FieldWrite{index, std::move(*value)});
}

// Whatever the new class has no field for is parked on the slot.
FieldMigration Migration::finish() {
    for (FieldSnapshot& gone : saved_) {
        note(gone.name, FieldOutcome::Kind::Removed, kRemovedDetail);
        park(result_.parked, std::move(gone));
    }
    saved_.clear();
    return std::move(result_);
}

} // namespace

FieldMigration migrateFields(ObjectId script, const ScriptClassInfo& newClass,
                             std::vector<FieldSnapshot> saved, std::vector<FieldSnapshot> parked,
                             bool revived, const std::function<bool(ObjectId)>& usable) {
    Migration migration(script, newClass, std::move(saved), std::move(parked), usable);
    for (std::size_t i = 0; i < newClass.fields.size(); ++i)
        migration.migrate(newClass.fields[i], i, revived);
    return migration.finish();
}

Result<Value> migrateStatic(const FieldSnapshot& saved, const FieldInfo& field,
                            const std::function<bool(ObjectId)>& usable) {
    auto value = sameShape(saved.type, field.type)
                     ? Result<Value>(saved.value)
                     : convertValue(saved.value, saved.type, field.type);
    if (value)
        clearReferences(*value, usable); // statics report no Cleared outcome: none is asked
    return value;
}

std::vector<FieldOutcome>
directCarryOutcomes(ObjectId script, const ScriptClassInfo& newClass,
                    const std::vector<std::size_t>& added,
                    const std::vector<std::pair<std::size_t, std::size_t>>& cleared) {
    std::vector<FieldOutcome> outcomes;
    outcomes.reserve(added.size() + cleared.size());
    auto a = added.begin();
    auto c = cleared.begin();
    while (a != added.end() || c != cleared.end()) {
        if (c == cleared.end() || (a != added.end() && *a < c->first)) {
            outcomes.push_back({script, newClass.name, newClass.fields[*a].name,
                                FieldOutcome::Kind::Added, kAddedDetail});
            ++a;
        } else {
            outcomes.push_back({script, newClass.name, newClass.fields[c->first].name,
                                FieldOutcome::Kind::Cleared, clearedDetail(c->second)});
            ++c;
        }
    }
    return outcomes;
}

} // namespace scripthost
