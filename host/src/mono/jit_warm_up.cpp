// ScriptDomain::warmUp: JIT-compiling a generation before it is swapped in.
#include "host/script_domain.hpp"
#include "mono/script_domain_impl.hpp"

#include <iterator>
#include <mono/metadata/attrdefs.h>
#include <spdlog/spdlog.h>
#include <string_view>

namespace scripthost {

namespace {

// The dispatcher's steps after its thunks: its per-script loops, then its Warm method.
constexpr std::size_t kCompileLoopsStep = mono::ManagedDispatcher::kThunkCount;
constexpr std::size_t kRunWarmStep = kCompileLoopsStep + 1;
constexpr std::size_t kDispatcherSteps = kRunWarmStep + 1;

void warmDispatcher(mono::ManagedDispatcher& dispatcher, std::size_t step) {
    if (step < mono::ManagedDispatcher::kThunkCount) {
        dispatcher.makeThunk(step);
    } else if (step == kCompileLoopsStep) {
        dispatcher.compileLoops();
    } else if (auto warmed = dispatcher.runWarm(); !warmed) {
        spdlog::warn("{}", warmed.error().message); // ScriptCore's own code: never expected
    }
}

// A script class: its vtable, its constructor and the messages the dispatcher calls.
void warmClass(MonoDomain* domain, const mono::ScriptClassEntry& entry) {
    if (entry.ctor != nullptr)
        (void)entry.prepareConstruction(domain);
    for (const char* name : {".ctor", "Initialize", "Update", "FixedUpdate", "OnAfterReload"}) {
        void* iter = nullptr;
        while (MonoMethod* method = mono_class_get_methods(entry.klass, &iter)) {
            if (std::string_view(mono_method_get_name(method)) == name)
                mono_compile_method(method);
        }
    }
}

// ScriptCore's classes a reload's swap runs in this generation (carrying coroutines and
// delegates in) and at its end (carrying them out): compiled now, so neither swap pays their
// JIT. One step per class.
constexpr const char* kCarryClasses[] = {"CoroutineCarry", "DelegateCarry", "CodeFingerprint",
                                         "GameLoopSynchronizationContext"};
constexpr std::size_t kCarrySteps = std::size(kCarryClasses);

void warmCarryClass(MonoImage* core, const char* name) {
    MonoClass* klass = mono_class_from_name(core, "UEngine.Internal", name);
    if (klass == nullptr)
        return;
    void* iter = nullptr;
    while (MonoMethod* method = mono_class_get_methods(klass, &iter)) {
        if ((mono_method_get_flags(method, nullptr) & MONO_METHOD_ATTR_ABSTRACT) == 0)
            mono_compile_method(method);
    }
}

} // namespace

bool ScriptDomain::warmUp(std::chrono::microseconds slice) {
    Impl& m = *impl_;
    if (!m.domain.loaded())
        return true;
    m.domain.enter();
    const auto start = std::chrono::steady_clock::now();
    // The work in small steps, so a slice can stop between any two of them.
    const auto& classes = m.classes.entries();
    const std::size_t total = kDispatcherSteps + kCarrySteps + classes.size();
    while (m.warmStep < total) {
        if (m.warmStep < kDispatcherSteps) {
            warmDispatcher(m.dispatcher, m.warmStep);
        } else if (m.warmStep < kDispatcherSteps + kCarrySteps) {
            warmCarryClass(m.coreImage, kCarryClasses[m.warmStep - kDispatcherSteps]);
        } else {
            warmClass(m.domain.get(), *classes[m.warmStep - kDispatcherSteps - kCarrySteps]);
        }
        ++m.warmStep;
        if (std::chrono::steady_clock::now() - start >= slice)
            break;
    }
    return m.warmStep >= total;
}

} // namespace scripthost
