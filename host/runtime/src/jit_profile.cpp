#include "runtime/jit_profile.hpp"

#include "runtime/runtime_state.hpp"

#include <cstring>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/class.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/profiler.h>

// Mono's profiler API leaves this type to the embedder (a handle's own data): none here.
struct _MonoProfiler {};

namespace scripthost::mono {

namespace {

constexpr const char* kScriptCoreName = "ScriptCore";

MonoProfiler g_profiler;

// By name, not through the DomainRegistry: JIT events come from any thread, the registry is
// the main thread's.
bool isScriptCore(MonoImage* image) {
    const char* name = mono_image_get_name(image);
    return name != nullptr && std::strcmp(name, kScriptCoreName) == 0;
}

} // namespace

void JitProfile::install() {
    MonoProfilerHandle handle = mono_profiler_create(&g_profiler);
    mono_profiler_set_jit_done_callback(
        handle, [](MonoProfiler*, MonoMethod* method, MonoJitInfo*) { onCompiled(method); });
}

void JitProfile::onCompiled(MonoMethod* method) {
    // Only plain methods of corlib and ScriptCore compiled in a generation's domain: no
    // wrappers (no token), no generic instances (the method its token names is another one),
    // nothing of the scripts (a new image every generation).
    RuntimeState& runtime = runtimeState();
    if (mono_domain_get() == runtime.root)
        return;
    const std::uint32_t token = mono_method_get_token(method);
    if (token == 0)
        return;
    MonoImage* image = mono_class_get_image(mono_method_get_class(method));
    const bool core = image != mono_get_corlib();
    if (core && !isScriptCore(image))
        return;
    if (mono_get_method(image, token, nullptr) != method)
        return;
    JitProfile& profile = runtime.jitProfile;
    profile.compilations_.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(profile.mutex_);
    if (profile.order_.size() >= kLimit)
        return;
    if (profile.seen_.insert(Entry{core, token}).second)
        profile.order_.push_back(Entry{core, token});
}

std::vector<JitProfile::Entry> JitProfile::entries() const {
    std::lock_guard lock(mutex_);
    return order_;
}

MonoMethod* JitProfile::resolve(const Entry& entry, MonoImage* scriptCore) {
    MonoImage* image = entry.scriptCore ? scriptCore : mono_get_corlib();
    return image == nullptr ? nullptr : mono_get_method(image, entry.token, nullptr);
}

} // namespace scripthost::mono
