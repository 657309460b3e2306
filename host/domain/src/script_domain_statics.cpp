// ScriptDomain: static constructors and [PreserveStatic] fields.
#include "host/domain/script_domain.hpp"
#include "host/runtime/script_watchdog.hpp"
#include "runtime/managed_exception.hpp"
#include "script_domain_impl.hpp"

#include <fmt/format.h>
#include <mono/metadata/reflection.h>
#include <utility>

namespace scripthost {

namespace {

// A [PreserveStatic] field of a script class.
struct StaticField {
    MonoClass* klass;
    MonoClassField* field;
    const FieldInfo* info;
};

Result<StaticField> findStatic(const ScriptDomain::Impl& impl, std::string_view className,
                               std::string_view field) {
    const mono::ScriptClassEntry* entry = impl.classes.find(className);
    if (entry == nullptr)
        return fail(fmt::format("no script class {}", className));
    for (std::size_t i = 0; i < entry->info.preservedStatics.size(); ++i) {
        if (entry->info.preservedStatics[i].name == field) {
            return StaticField{entry->klass, entry->staticHandles[i],
                               &entry->info.preservedStatics[i]};
        }
    }
    return fail(fmt::format("{} has no [PreserveStatic] field {}", className, field));
}

// The vtable and field of a [PreserveStatic] field, with this domain entered.
Result<std::pair<MonoVTable*, StaticField>>
staticAccess(ScriptDomain::Impl& impl, std::string_view className, std::string_view field) {
    if (!impl.domain.loaded())
        return fail("the script domain is unloaded");
    auto found = findStatic(impl, className, field);
    if (!found)
        return std::unexpected(found.error());
    impl.domain.enter();
    MonoVTable* vtable = mono_class_vtable(impl.domain.get(), found->klass);
    if (vtable == nullptr)
        return fail(fmt::format("{} cannot be loaded", className));
    return std::pair{vtable, *found};
}

} // namespace

Result<void> ScriptDomain::initializeClass(std::string_view className) {
    ScriptWatchdog::Scope watched("a static constructor");
    if (!impl_->domain.loaded())
        return fail("the script domain is unloaded");
    const mono::ScriptClassEntry* entry = impl_->classes.find(className);
    if (entry == nullptr)
        return fail(fmt::format("no script class {}", className));
    impl_->domain.enter();
    MonoReflectionType* type =
        mono_type_get_object(impl_->domain.get(), mono_class_get_type(entry->klass));
    const std::string failure =
        fmt::format("the static constructor of {} threw: ", entry->info.name);
    auto thrown = impl_->dispatcher.runClassConstructor(type, failure);
    if (!thrown)
        return std::unexpected(thrown.error());
    if (*thrown != nullptr)
        return fail(failure + mono::thrownText(*thrown));
    return {};
}

Result<Value> ScriptDomain::getStatic(std::string_view className, std::string_view field) {
    auto access = staticAccess(*impl_, className, field);
    if (!access)
        return std::unexpected(access.error());
    const auto& [vtable, f] = *access;
    return mono::readStatic(vtable, f.field, f.info->type, impl_->marshal());
}

Result<void> ScriptDomain::setStatic(std::string_view className, std::string_view field,
                                     const Value& value) {
    auto access = staticAccess(*impl_, className, field);
    if (!access)
        return std::unexpected(access.error());
    const auto& [vtable, f] = *access;
    return mono::writeStatic(vtable, f.field, f.info->type, value, impl_->marshal());
}

} // namespace scripthost
