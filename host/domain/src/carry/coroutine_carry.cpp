#include "carry/coroutine_carry.hpp"

#include "host/runtime/managed_lines.hpp"
#include "runtime/checked_call.hpp"
#include "runtime/gc_handle.hpp"
#include "runtime/mono_text.hpp"

#include <fmt/format.h>
#include <mono/metadata/attrdefs.h>
#include <string_view>

namespace scripthost::mono {

namespace {

MonoMethod* carryMethod(MonoImage* scriptCore, const char* name, int params) {
    MonoClass* carry = mono_class_from_name(scriptCore, "UEngine.Internal", "CoroutineCarry");
    return carry ? mono_class_get_method_from_name(carry, name, params) : nullptr;
}

// The compiler's own iterator fields that are not state to carry: the value last yielded
// (the scheduler keeps what the coroutine waits for).
bool isCurrentValue(std::string_view name) {
    return name == "$current" || name == "<>2__current";
}

// What a restart takes from the copy made when the coroutine started: `this` and the
// method's arguments (mcs: plain names and "<$>name" copies; csc: "<>3__name", "<>4__this").
bool isStartState(std::string_view name) {
    return name == "$this" || name == "<>4__this" || name.starts_with("<$>") ||
           name.starts_with("<>3__") || (!name.empty() && name[0] != '$' && name[0] != '<');
}

bool isNullReference(MonoObject* object, MonoClassField* field) {
    if (mono_type_is_reference(mono_field_get_type(field)) == 0)
        return false;
    MonoObject* value = nullptr;
    mono_field_get_value(object, field, &value);
    return value == nullptr;
}

/// Copies `source`'s fields into `target` (same names), by the value rules: mode "all"
/// every instance field but the current value, mode "start" `this` and the arguments.
Result<void> copyIteratorFields(MonoObject* source, const CarrySide& from, MonoObject* target,
                                const CarrySide& to, std::string_view mode) {
    const bool all = mode == "all";
    MonoClass* sourceClass = mono_object_get_class(source);
    MonoClass* targetClass = mono_object_get_class(target);
    void* iter = nullptr;
    while (MonoClassField* field = mono_class_get_fields(targetClass, &iter)) {
        if ((mono_field_get_flags(field) & MONO_FIELD_ATTR_STATIC) != 0)
            continue;
        const std::string_view name = mono_field_get_name(field);
        if (isCurrentValue(name) || (!all && !isStartState(name)))
            continue;
        MonoClassField* old = mono_class_get_field_from_name(sourceClass, name.data());
        if (old == nullptr) {
            if (!all && name != "$this" && name != "<>4__this")
                return fail(fmt::format("its argument {} was not recorded when it started", name));
            continue;
        }
        enterDomain(from.domain);
        const FieldType oldType = fieldTypeOf(mono_field_get_type(old), *from.types);
        if (isNullReference(source, old))
            continue; // nothing to carry: the new object's field is null too
        enterDomain(to.domain);
        const FieldType newType = fieldTypeOf(mono_field_get_type(field), *to.types);
        if (oldType.kind == ValueKind::Unsupported || newType.kind == ValueKind::Unsupported) {
            return fail(fmt::format("its local {} ({}) is of a type a reload cannot carry yet",
                                    name, oldType.typeName));
        }
        enterDomain(from.domain);
        auto value = readField(source, old, oldType, from.marshal);
        if (!value)
            return fail(fmt::format("its local {}: {}", name, value.error().message));
        enterDomain(to.domain);
        if (auto written = writeField(target, field, newType, *value, to.marshal); !written)
            return fail(fmt::format("its local {}: {}", name, written.error().message));
    }
    return {};
}

MonoObject* element(MonoArray* array, std::size_t index) {
    if (array == nullptr || index >= mono_array_length(array))
        return nullptr;
    return mono_array_get(array, MonoObject*, index);
}

/// Runs a plan line's copies ("old>new:mode,…"); the first failure's reason.
Result<void> runCopies(std::string_view copies, MonoArray* exported, const CarrySide& from,
                       MonoArray* planned, const CarrySide& to) {
    for (std::string_view copy : splitOn(copies, ',')) {
        if (copy.empty())
            continue;
        const std::size_t arrow = copy.find('>');
        const std::size_t colon = copy.find(':');
        std::size_t oldIndex = 0;
        std::size_t newIndex = 0;
        if (arrow == std::string_view::npos || colon == std::string_view::npos ||
            !parseNumber(copy.substr(0, arrow), oldIndex) ||
            !parseNumber(copy.substr(arrow + 1, colon - arrow - 1), newIndex))
            return fail(fmt::format("ScriptCore planned a copy as \"{}\"", copy));
        MonoObject* source = element(exported, oldIndex);
        MonoObject* target = element(planned, newIndex);
        if (source == nullptr || target == nullptr)
            return fail(
                fmt::format("ScriptCore planned a copy of a missing object (\"{}\")", copy));
        if (auto copied = copyIteratorFields(source, from, target, to, copy.substr(colon + 1));
            !copied)
            return copied;
    }
    return {};
}

CoroutineOutcome::Kind kindOf(std::string_view decision) {
    if (decision == "resume")
        return CoroutineOutcome::Kind::Resumed;
    if (decision == "restart")
        return CoroutineOutcome::Kind::Restarted;
    return CoroutineOutcome::Kind::Stopped;
}

char decisionLetter(CoroutineOutcome::Kind kind) {
    switch (kind) {
    case CoroutineOutcome::Kind::Resumed:
        return 'r';
    case CoroutineOutcome::Kind::Restarted:
        return 's';
    case CoroutineOutcome::Kind::Stopped:
        break;
    }
    return 'x';
}

} // namespace

Result<void> prepareExport(ManagedDispatcher& dispatcher) {
    auto exported = dispatcher.exportCoroutines("warming the coroutine carry: ");
    if (!exported)
        return std::unexpected(exported.error());
    return {};
}

Result<std::vector<CoroutineOutcome>> carryCoroutines(const CarrySide& from, const CarrySide& to) {
    std::vector<CoroutineOutcome> carried;
    MonoMethod* planMethod = carryMethod(to.scriptCore, "Plan", 1);
    MonoMethod* adoptMethod = carryMethod(to.scriptCore, "Adopt", 1);
    if (planMethod == nullptr || adoptMethod == nullptr || from.dispatcher == nullptr)
        return fail("ScriptCore has no UEngine.Internal.CoroutineCarry (Plan, Adopt)");

    // Export through the old generation's dispatcher (ScriptRuntime.Call): its warm-up ran
    // the same call (prepareExport), so nothing is compiled here.
    auto exportedObject = from.dispatcher->exportCoroutines("listing the coroutines to carry: ");
    if (!exportedObject)
        return std::unexpected(exportedObject.error());
    if (*exportedObject == nullptr)
        return carried; // nothing was running
    // Both arrays are held by handles: the copies below allocate, and objects move.
    GcHandle exportedHandle = GcHandle::strong(*exportedObject);
    auto* exported = reinterpret_cast<MonoArray*>(exportedHandle.target());
    const std::string description = toUtf8(reinterpret_cast<MonoString*>(element(exported, 0)));
    if (description.empty())
        return carried; // nothing was running

    auto text = newString(to.domain, description);
    if (!text)
        return std::unexpected(text.error());
    void* planArgs[] = {*text};
    auto plannedObject =
        invokeChecked(to.domain, planMethod, nullptr, planArgs, "planning the coroutines: ");
    if (!plannedObject)
        return std::unexpected(plannedObject.error());
    GcHandle plannedHandle = GcHandle::strong(*plannedObject);
    const std::string plan = toUtf8(reinterpret_cast<MonoString*>(
        element(reinterpret_cast<MonoArray*>(plannedHandle.target()), 0)));

    // One line per coroutine: owner method decision reason copies fallback fallbackReason
    // fallbackCopies (CoroutineCarry.Plan).
    std::string decisions;
    for (std::string_view line : splitOn(plan, '\n')) {
        if (line.empty())
            continue;
        const auto parts = splitOn(line, '\t');
        std::uint64_t owner = 0;
        if (parts.size() != 8 || !parseNumber(parts[0], owner))
            return fail(fmt::format("ScriptCore planned a coroutine as \"{}\"", line));
        CoroutineOutcome c{ObjectId::unpack(owner),
                           {},
                           std::string(parts[1]),
                           kindOf(parts[2]),
                           std::string(parts[3])};
        if (c.kind != CoroutineOutcome::Kind::Stopped) {
            exported = reinterpret_cast<MonoArray*>(exportedHandle.target());
            auto* planned = reinterpret_cast<MonoArray*>(plannedHandle.target());
            if (auto copied = runCopies(parts[4], exported, from, planned, to); !copied) {
                // The fallback: restart (its own copies) or stop; the reason says why.
                std::string why = copied.error().message;
                c.kind = kindOf(parts[5]);
                if (c.kind != CoroutineOutcome::Kind::Stopped) {
                    if (auto again = runCopies(parts[7], exported, from, planned, to); !again) {
                        c.kind = CoroutineOutcome::Kind::Stopped;
                        why += "; restarting it failed too: " + again.error().message;
                    }
                }
                c.reason = parts[6].empty() ? why : why + "; " + std::string(parts[6]);
            }
        }
        decisions += decisionLetter(c.kind);
        carried.push_back(std::move(c));
    }

    auto decided = newString(to.domain, decisions);
    if (!decided)
        return std::unexpected(decided.error());
    void* adoptArgs[] = {*decided};
    if (auto adopted = invokeChecked(to.domain, adoptMethod, nullptr, adoptArgs,
                                     "starting the carried coroutines: ");
        !adopted)
        return std::unexpected(adopted.error());
    return carried;
}

} // namespace scripthost::mono
