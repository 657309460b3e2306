// ScriptDomain: carrying script fields straight from the previous generation (the
// reload's direct path, no snapshot Values in between for plain data and references).
#include "host/domain/script_domain.hpp"
#include "script_domain_impl.hpp"

#include <fmt/format.h>

namespace scripthost {

const FieldCarryPlan& ScriptDomain::carryPlan(const ScriptDomain& from,
                                              std::string_view className) {
    if (const mono::CarryPlan* cached = impl_->carryPlans.find(from, className))
        return *cached;
    const bool bothLoaded = impl_->domain.loaded() && from.impl_->domain.loaded();
    return impl_->carryPlans.add(mono::planCarry(className, impl_->classes.find(className),
                                                 from.impl_->classes.find(className), bothLoaded));
}

Result<void> ScriptDomain::carryFields(const ScriptDomain& from, ObjectId script,
                                       const FieldCarryPlan& plan,
                                       const std::function<bool(ObjectId)>& usable,
                                       std::vector<ClearedRefs>& cleared) {
    const auto& entry = static_cast<const mono::CarryPlan&>(plan);
    if (!plan.direct || !impl_->carryPlans.madeAgainst(from)) {
        return fail(fmt::format("no direct carry plan for {}", plan.className));
    }
    const mono::ScriptInstance* old = from.impl_->instances.find(script);
    auto next = impl_->instance(script);
    if (old == nullptr || !from.impl_->domain.loaded())
        return fail(fmt::format("no script instance {} to carry from", script.toString()));
    if (!next)
        return std::unexpected(next.error());
    if (old->entry != entry.from || (*next)->entry != entry.to) {
        return fail(fmt::format("script {} is not a {}", script.toString(), plan.className));
    }
    impl_->domain.enter();
    const auto fromContext = from.impl_->marshal();
    const auto toContext = impl_->marshal();
    // Raw pointers for this call only (locals: the collector sees and pins them).
    MonoObject* source = old->handle.target();
    MonoObject* target = (*next)->handle.target();
    const auto& fields = (*next)->entry->info.fields;
    for (std::size_t k = 0; k < entry.carries.size(); ++k) {
        auto carried =
            mono::carryField(source, fromContext, target, toContext, entry.carries[k], usable);
        if (!carried) {
            return fail(fmt::format("{}.{}: {}", plan.className, fields.at(entry.targets[k]).name,
                                    carried.error().message));
        }
        if (*carried != 0)
            cleared.push_back({entry.targets[k], *carried});
    }
    return {};
}

void ScriptDomain::prepareCarry(const ScriptDomain& from, ObjectId script,
                                const FieldCarryPlan& plan) {
    const auto& entry = static_cast<const mono::CarryPlan&>(plan);
    if (!plan.direct || !impl_->carryPlans.madeAgainst(from) || !impl_->domain.loaded())
        return;
    const mono::ScriptInstance* old = from.impl_->instances.find(script);
    if (old == nullptr || old->entry != entry.from)
        return;
    impl_->domain.enter();
    const auto fromContext = from.impl_->marshal();
    const auto toContext = impl_->marshal();
    MonoObject* source = old->handle.target();
    for (const mono::FieldCarry& carry : entry.carries)
        mono::prepareReferenceCarry(source, fromContext, toContext, carry);
}

} // namespace scripthost
