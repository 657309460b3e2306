// ScriptDomain: the per-frame phases and the reload hook, through the managed dispatcher.
#include "host/script_domain.hpp"
#include "host/script_watchdog.hpp"
#include "mono/managed_exception.hpp"
#include "mono/script_domain_impl.hpp"

#include <fmt/format.h>

namespace scripthost {

Result<void> ScriptDomain::runUpdate(float deltaTime, double time, std::int64_t frame) {
    ScriptWatchdog::Scope watched("Update");
    if (!impl_->domain.loaded()) {
        return fail("the script domain is unloaded");
    }
    return impl_->dispatcher.runUpdate(deltaTime, time, frame);
}

Result<void> ScriptDomain::runFixedUpdate(float fixedDeltaTime, double time) {
    ScriptWatchdog::Scope watched("FixedUpdate");
    if (!impl_->domain.loaded()) {
        return fail("the script domain is unloaded");
    }
    return impl_->dispatcher.runFixedUpdate(fixedDeltaTime, time);
}

Result<int> ScriptDomain::scheduledCount(ScriptPhase phase) {
    if (!impl_->domain.loaded()) {
        return 0; // an unloaded generation schedules nothing
    }
    return impl_->dispatcher.countScheduled(phase);
}

Result<void> ScriptDomain::runAfterReload() {
    ScriptWatchdog::Scope watched("OnAfterReload");
    if (!impl_->domain.loaded())
        return fail("the script domain is unloaded");
    auto outcome = impl_->dispatcher.runAfterReload();
    if (!outcome)
        return std::unexpected(outcome.error());
    if (outcome->thrown != nullptr) {
        const mono::ScriptInstance* instance = impl_->instances.find(outcome->failedScript);
        const std::string name = instance ? instance->entry->info.name : "a script";
        return fail(fmt::format("OnAfterReload of {} {} threw: {}", name,
                                outcome->failedScript.toString(),
                                mono::thrownText(outcome->thrown)));
    }
    return {};
}

} // namespace scripthost
