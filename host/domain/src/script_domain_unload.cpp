// ScriptDomain: unloading a generation, and the process-wide leak checks.
#include "host/domain/script_domain.hpp"
#include "runtime/checked_call.hpp"
#include "runtime/gc_handle.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/unhandled_exception_hooks.hpp"
#include "script_domain_impl.hpp"

#include <fmt/format.h>
#include <mono/metadata/mono-gc.h>
#include <spdlog/spdlog.h>

namespace scripthost {

MonoDomain* ScriptDomain::Impl::release() {
    joinBackgroundWarm();
    stopSharedWarm();
    return domain.release([this] {
        // Free this generation's handles and forget every cached pointer into it.
        mono::forgetUnhandledExceptionReporting(domain.get());
        instances.clear();
        classes.clear();
        dispatcher = {};
        carryPlans.clear();
        coreImage = nullptr;
        scripts = {};
        bridge.reset(); // frees every proxy handle of this generation
        core = {};
    });
}

Result<void> ScriptDomain::Impl::unload() {
    MonoDomain* dying = release();
    if (dying == nullptr) {
        return {};
    }
    return mono::GenerationDomain::unloadNow(dying, fmt::format("generation {}", generation));
}

Result<void> ScriptDomain::unload() {
    return impl_->unload();
}

std::vector<std::string> ScriptDomain::unloadInBackground() {
    if (MonoDomain* dying = impl_->release()) {
        return mono::GenerationDomain::unloadInBackground(
            dying, fmt::format("generation {}", impl_->generation));
    }
    return {};
}

bool ScriptDomain::waitForUnloads(std::chrono::milliseconds timeout) {
    return mono::runtimeState().unloader.waitIdle(std::chrono::steady_clock::now() + timeout);
}

std::vector<std::string> ScriptDomain::takeUnloadFailures() {
    return mono::runtimeState().unloader.takeFailures();
}

void ScriptDomain::collectGarbage() {
    mono_gc_collect(mono_gc_max_generation());
    // Finalizers run on their own thread; wait for them like GC.WaitForPendingFinalizers.
    MonoClass* gc = mono_class_from_name(mono_get_corlib(), "System", "GC");
    MonoMethod* wait =
        gc ? mono_class_get_method_from_name(gc, "WaitForPendingFinalizers", 0) : nullptr;
    if (wait != nullptr) {
        auto waited = mono::invokeChecked(mono_domain_get(), wait, nullptr,
                                          "waiting for pending finalizers failed: ");
        if (!waited)
            spdlog::warn("{}", waited.error().message);
    }
}

std::size_t ScriptDomain::liveGcHandles() noexcept {
    return mono::GcHandle::liveCount();
}

std::size_t ScriptDomain::liveDomains() noexcept {
    const mono::RuntimeState& runtime = mono::runtimeState();
    return runtime.liveDomains.load(std::memory_order_relaxed) + runtime.unloader.pending();
}

} // namespace scripthost
