// ScriptDomain: creating, scheduling and freeing script instances.
#include "host/domain/script_domain.hpp"
#include "host/model/unity_message.hpp"
#include "host/runtime/script_watchdog.hpp"
#include "script_domain_impl.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace {
// The dispatcher's message flags (ManagedDispatcher::AttachFlag): the overrides, the Unity
// message methods (UnityMessage bits), whether the script had set its enabled to false, whether
// its entity is inactive in the hierarchy, and the Unity messages it is still owed.
std::int32_t messagesOf(const ScriptClassInfo& info, const World* world, ObjectId script) {
    using Flag = mono::ManagedDispatcher::AttachFlag;
    std::uint32_t flags = (info.overridesUpdate ? Flag::OverridesUpdate : 0U) |
                          (info.overridesFixedUpdate ? Flag::OverridesFixedUpdate : 0U) |
                          info.unityMessages;
    const ScriptSlot* slot = world != nullptr ? world->script(script) : nullptr;
    if (slot != nullptr) {
        const bool inactive =
            world->entity(slot->entity) != nullptr && !world->activeInHierarchy(slot->entity);
        flags |= (slot->disabledByScript ? Flag::SelfDisabled : 0U) |
                 (inactive ? Flag::EntityInactive : 0U) |
                 ((slot->messagesDue & bitOf(UnityMessage::Awake)) != 0 ? Flag::AwakeDue : 0U) |
                 ((slot->messagesDue & bitOf(UnityMessage::Start)) != 0 ? Flag::StartDue : 0U);
    }
    return static_cast<std::int32_t>(flags);
}
} // namespace

Result<void> ScriptDomain::instantiate(ObjectId script, ObjectId entity,
                                       std::string_view className) {
    ScriptWatchdog::Scope watched("a script constructor");
    if (!impl_->domain.loaded()) {
        return fail(fmt::format("generation {} is unloaded", impl_->generation));
    }
    const mono::ScriptClassEntry* entry = impl_->classes.find(className);
    if (entry == nullptr) {
        return fail(explainMissingClass(className));
    }
    if (impl_->instances.contains(script)) {
        return fail(fmt::format("script {} already has an instance", script.toString()));
    }
    impl_->domain.enter();
    auto handle = mono::ScriptInstances::construct(impl_->domain.get(), *entry);
    if (!handle)
        return std::unexpected(handle.error());
    impl_->instances.add(script, mono::ScriptInstance{std::move(*handle), entity, entry});
    return {};
}

bool ScriptDomain::hasInstance(ObjectId script, std::string_view className) const {
    const mono::ScriptInstance* found = impl_->instances.find(script);
    return found != nullptr && found->entry->info.name == className;
}

void ScriptDomain::discardInstancesExcept(const std::function<bool(ObjectId)>& keep) {
    impl_->instances.eraseIf([&](ObjectId script) { return !keep(script); });
}

Result<void> ScriptDomain::attach(ObjectId script, bool runInitialize) {
    ScriptWatchdog::Scope watched("Initialize");
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    return impl_->dispatcher.attach((*inst)->handle.target(), script, (*inst)->entity,
                                    runInitialize,
                                    messagesOf((*inst)->entry->info, impl_->world, script));
}

Result<void> ScriptDomain::detach(ObjectId script) {
    ScriptWatchdog::Scope watched("Destroy");
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    auto detached = impl_->dispatcher.detach(script);
    impl_->instances.erase(script); // freed even when Destroy's dispatcher threw
    return detached;
}

Result<void> ScriptDomain::setEnabled(ObjectId script, bool enabled) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    return impl_->dispatcher.setEnabled(script, enabled);
}

Result<void> ScriptDomain::entityActiveChanged(ObjectId entity, bool active) {
    if (!impl_->domain.loaded())
        return fail("no script generation is loaded");
    return impl_->dispatcher.entityActiveChanged(entity, active);
}

std::size_t ScriptDomain::instanceCount() const noexcept {
    return impl_->instances.size();
}

void ScriptDomain::reserve(std::size_t scripts) {
    if (!impl_->domain.loaded())
        return;
    impl_->instances.reserve(scripts);
    // ScriptCore's own code, collection sizing only: a failure costs growth, not
    // correctness, so it is logged rather than returned.
    if (auto reserved = impl_->dispatcher.reserve(scripts); !reserved)
        spdlog::warn("{}", reserved.error().message);
}

} // namespace scripthost
