// ScriptDomain: carrying running behaviour across a reload — coroutines (coroutine_carry.hpp)
// and the delegates scripts' fields hold (ScriptCore's UEngine.Internal.DelegateCarry).
#include "carry/coroutine_carry.hpp"
#include "host/domain/script_domain.hpp"
#include "host/runtime/managed_lines.hpp"
#include "runtime/checked_call.hpp"
#include "runtime/mono_text.hpp"
#include "script_domain_impl.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <vector>
#include <mono/metadata/attrdefs.h>

namespace scripthost {

namespace {

mono::CarrySide sideOf(ScriptDomain::Impl& impl) {
    return {impl.domain.get(), impl.coreImage, &impl.dispatcher, impl.marshal(), &impl.core.types};
}

std::string classOf(const mono::ScriptInstances& instances, ObjectId script) {
    const mono::ScriptInstance* instance = instances.find(script);
    return instance ? instance->entry->info.name : std::string("script");
}

MonoMethod* delegateCarryMethod(MonoImage* core, const char* name, int params) {
    MonoClass* carry = mono_class_from_name(core, "UEngine.Internal", "DelegateCarry");
    return carry ? mono_class_get_method_from_name(carry, name, params) : nullptr;
}

// Whether a script class (or a base class below UMonoScriptComponent) has an instance field
// of a delegate type: when none has, a reload has no delegates to carry and makes no call.
bool hasDelegateFields(const ScriptDomain::Impl& impl) {
    MonoClass* delegate = mono_class_from_name(mono_get_corlib(), "System", "Delegate");
    if (delegate == nullptr)
        return true; // cannot tell: let ScriptCore look
    for (const auto& entry : impl.classes.entries()) {
        for (MonoClass* k = entry->klass; k != nullptr && k != impl.core.scriptBase;
             k = mono_class_get_parent(k)) {
            void* iter = nullptr;
            while (MonoClassField* field = mono_class_get_fields(k, &iter)) {
                if ((mono_field_get_flags(field) & MONO_FIELD_ATTR_STATIC) != 0)
                    continue;
                MonoClass* type = mono_class_from_mono_type(mono_field_get_type(field));
                if (type != nullptr && mono_class_is_subclass_of(type, delegate, false))
                    return true;
            }
        }
    }
    return false;
}

// UEngine.Time's statics: the clock the host sets before each dispatch.
// The engine's own statics that go on across a reload: UEngine.Time's clock and
// UEngine.Random's generator (neither has a static constructor or initialisers, so nothing
// overwrites what is copied here). Each fits in 8 bytes (float, double, long, uint, bool).
struct CarriedStatics {
    const char* className;
    std::vector<const char*> fields;
};
const CarriedStatics kCarriedStatics[] = {
    {"Time", {"s_DeltaTime", "s_FixedDeltaTime", "s_Time", "s_FrameCount"}},
    {"Random", {"s_X", "s_Y", "s_Z", "s_W", "s_Seeded"}},
};

} // namespace

Result<void> ScriptDomain::continueClockFrom(const ScriptDomain& from) {
    if (!impl_->domain.loaded() || !from.impl_->domain.loaded())
        return fail("continuing the clock needs both generations loaded");
    for (const CarriedStatics& carried : kCarriedStatics) {
        MonoClass* oldClass = mono_class_from_name(from.impl_->coreImage, "UEngine", carried.className);
        MonoClass* newClass = mono_class_from_name(impl_->coreImage, "UEngine", carried.className);
        if (oldClass == nullptr || newClass == nullptr)
            return fail(fmt::format("ScriptCore has no UEngine.{}", carried.className));
        MonoVTable* oldTable = mono_class_vtable(from.impl_->domain.get(), oldClass);
        MonoVTable* newTable = mono_class_vtable(impl_->domain.get(), newClass);
        if (oldTable == nullptr || newTable == nullptr)
            return fail(fmt::format("UEngine.{} cannot be loaded", carried.className));
        for (const char* name : carried.fields) {
            MonoClassField* oldField = mono_class_get_field_from_name(oldClass, name);
            MonoClassField* newField = mono_class_get_field_from_name(newClass, name);
            if (oldField == nullptr || newField == nullptr)
                return fail(fmt::format("UEngine.{} has no {}", carried.className, name));
            std::uint64_t bits = 0; // wide enough for each of them
            mono_field_static_get_value(oldTable, oldField, &bits);
            mono_field_static_set_value(newTable, newField, &bits);
        }
    }
    return {};
}

Result<std::vector<CoroutineOutcome>> ScriptDomain::carryCoroutines(const ScriptDomain& from) {
    if (!impl_->domain.loaded() || !from.impl_->domain.loaded())
        return fail("carrying coroutines needs both generations loaded");
    auto carried = mono::carryCoroutines(sideOf(*from.impl_), sideOf(*impl_));
    if (!carried)
        return std::unexpected(carried.error());
    for (CoroutineOutcome& c : *carried)
        c.className = classOf(from.impl_->instances, c.script);
    return carried;
}

Result<std::vector<DelegateOutcome>> ScriptDomain::carryDelegates(const ScriptDomain& from) {
    std::vector<DelegateOutcome> outcomes;
    if (!impl_->domain.loaded() || !from.impl_->domain.loaded())
        return fail("carrying delegates needs both generations loaded");
    if (!hasDelegateFields(*from.impl_))
        return outcomes;
    MonoMethod* exportMethod = delegateCarryMethod(from.impl_->coreImage, "Export", 0);
    MonoMethod* importMethod = delegateCarryMethod(impl_->coreImage, "Import", 1);
    if (exportMethod == nullptr || importMethod == nullptr)
        return fail("ScriptCore has no UEngine.Internal.DelegateCarry (Export, Import)");
    auto exported = mono::invokeChecked(from.impl_->domain.get(), exportMethod, nullptr,
                                        "listing the delegates to carry: ");
    if (!exported)
        return std::unexpected(exported.error());
    const std::string text = mono::toUtf8(reinterpret_cast<MonoString*>(*exported));
    if (text.empty())
        return outcomes;
    auto argument = mono::newString(impl_->domain.get(), text);
    if (!argument)
        return std::unexpected(argument.error());
    void* args[] = {*argument};
    auto imported = mono::invokeChecked(impl_->domain.get(), importMethod, nullptr, args,
                                        "rebinding the delegates: ");
    if (!imported)
        return std::unexpected(imported.error());
    // One line per entry: "script field shown outcome reason".
    const std::string lines = mono::toUtf8(reinterpret_cast<MonoString*>(*imported));
    for (const auto& line : mono::tabbedLines(lines)) {
        std::uint64_t packed = 0;
        if (line.size() != 5 || !mono::parseNumber(line[0], packed))
            return fail(fmt::format("ScriptCore described a rebound delegate as \"{}\"",
                                    fmt::join(line, "\t")));
        const ObjectId script = ObjectId::unpack(packed);
        outcomes.push_back(
            {script, classOf(from.impl_->instances, script), std::string(line[1]),
             std::string(line[2]),
             line[3] == "rebound" ? DelegateOutcome::Kind::Rebound : DelegateOutcome::Kind::Dropped,
             std::string(line[4])});
    }
    return outcomes;
}

} // namespace scripthost
