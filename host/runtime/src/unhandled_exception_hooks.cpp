#include "runtime/unhandled_exception_hooks.hpp"

#include "runtime/checked_call.hpp"
#include "runtime/unhandled_exception_reporter.hpp"

#include <cstdint>
#include <cstring>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/class.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/object.h>
#include <mono/metadata/profiler.h>
#include <mutex>
#include <unordered_map>

// Mono's profiler API leaves this struct to its user; the host keeps no state in it.
struct _MonoProfiler {
    int unused = 0;
};

namespace scripthost::mono {

namespace {

// Per app domain, ScriptCore's UnhandledExceptions.Report. Registered and forgotten by the
// main thread, read by the pool and finalizer threads the hooks run on.
struct Reporters {
    std::mutex mutex;
    std::unordered_map<MonoDomain*, MonoMethod*> byDomain;

    MonoMethod* find(MonoDomain* domain) {
        std::lock_guard lock(mutex);
        auto it = byDomain.find(domain);
        return it == byDomain.end() ? nullptr : it->second;
    }
};

Reporters& reporters() {
    static auto* instance = new Reporters(); // never destroyed: pool threads outlive main
    return *instance;
}

bool isPoolEntry(MonoMethod* method) noexcept {
    MonoClass* klass = mono_method_get_class(method);
    return std::strcmp(mono_method_get_name(method), "PerformWaitCallback") == 0 &&
           std::strcmp(mono_class_get_name(klass), "_ThreadPoolWaitCallback") == 0 &&
           std::strcmp(mono_class_get_namespace(klass), "System.Threading") == 0;
}

bool isFinalizerOverride(MonoMethod* method) noexcept {
    return std::strcmp(mono_method_get_name(method), "Finalize") == 0 &&
           (mono_method_get_flags(method, nullptr) & MONO_METHOD_ATTR_VIRTUAL) != 0;
}

// Decides, when a method is compiled (and for each frame an exception unwinds), whether
// leaving it by an exception raises onExceptionLeave. Only two kinds of methods do.
MonoProfilerCallInstrumentationFlags instrumentation(MonoProfiler* /*profiler*/,
                                                     MonoMethod* method) {
    const bool corlib = mono_class_get_image(mono_method_get_class(method)) == mono_get_corlib();
    if (corlib ? isPoolEntry(method) : isFinalizerOverride(method)) {
        return MONO_PROFILER_CALL_INSTRUMENTATION_EXCEPTION_LEAVE;
    }
    return MONO_PROFILER_CALL_INSTRUMENTATION_NONE;
}

// The exception a Finalize on this thread last reported: a C# destructor calls
// base.Finalize() in a finally, so one exception leaves each Finalize of the chain. Reset
// for every object finalized; the exception is pinned while its frames unwind.
thread_local MonoObject* t_finalizerException = nullptr;

void onFinalizingObject(MonoProfiler* /*profiler*/, MonoObject* /*object*/) {
    t_finalizerException = nullptr;
}

// Not script faults: the watchdog's and a domain unload's aborts, and unloaded domains.
bool isRuntimeControl(MonoObject* exception) noexcept {
    MonoClass* klass = mono_object_get_class(exception);
    const char* name = mono_class_get_name(klass);
    return mono_class_get_image(klass) == mono_get_corlib() &&
           (std::strcmp(name, "ThreadAbortException") == 0 ||
            std::strcmp(name, "AppDomainUnloadedException") == 0);
}

void report(UnhandledExceptionKind kind, MonoObject* exception) {
    // Runs in the exception's domain: the pool and the finalizer thread enter it first.
    if (MonoMethod* managed = reporters().find(mono_domain_get())) {
        auto kindNumber = static_cast<std::int32_t>(kind);
        void* args[] = {exception, &kindNumber};
        MonoObject* thrown = nullptr;
        mono_runtime_invoke(managed, nullptr, args, &thrown);
        if (thrown == nullptr) {
            return;
        }
    }
    reportUnhandledException(kind, {}, exception); // no script known
}

// `method` (the pool's entry or a Finalize) is being left by `exception`: nothing on its
// thread catches it. Runs on that thread during unwinding, after the method's finally
// blocks; calling managed code here is what those finally blocks do too.
void onExceptionLeave(MonoProfiler* /*profiler*/, MonoMethod* method, MonoObject* exception) {
    if (exception == nullptr || isRuntimeControl(exception)) {
        return;
    }
    if (mono_class_get_image(mono_method_get_class(method)) == mono_get_corlib()) {
        report(UnhandledExceptionKind::ThreadPool, exception);
        return;
    }
    if (exception == t_finalizerException) {
        return; // the same exception leaving the next Finalize of the chain
    }
    t_finalizerException = exception;
    report(UnhandledExceptionKind::Finalizer, exception);
}

} // namespace

void installUnhandledExceptionHooks() {
    static _MonoProfiler profiler;
    MonoProfilerHandle handle = mono_profiler_create(&profiler);
    mono_profiler_set_call_instrumentation_filter_callback(handle, &instrumentation);
    mono_profiler_set_method_exception_leave_callback(handle, &onExceptionLeave);
    mono_profiler_set_gc_finalizing_object_callback(handle, &onFinalizingObject);
}

Result<void> installUnhandledExceptionReporting(MonoDomain* domain, MonoImage* scriptCore) {
    MonoClass* klass = mono_class_from_name(scriptCore, "UEngine.Internal", "UnhandledExceptions");
    MonoMethod* install = klass ? mono_class_get_method_from_name(klass, "Install", 0) : nullptr;
    MonoMethod* reportMethod =
        klass ? mono_class_get_method_from_name(klass, "Report", 2) : nullptr;
    if (install == nullptr || reportMethod == nullptr) {
        return fail("ScriptCore has no UEngine.Internal.UnhandledExceptions with Install() and "
                    "Report(object, int) (is ScriptCore.dll from another version?)");
    }
    // A runtime invoke of its own, not the dispatcher's entry point: that would make the
    // dispatcher's thunk and pay the new domain's first JIT (~6 ms) here, in the load stage on
    // the main thread, instead of on the warm-up's thread (docs/MONO.md section 19).
    auto installed = invokeChecked(domain, install, nullptr,
                                   "installing the unhandled-exception handlers threw: ");
    if (!installed) {
        return std::unexpected(installed.error());
    }
    std::lock_guard lock(reporters().mutex);
    reporters().byDomain[domain] = reportMethod;
    return {};
}

void forgetUnhandledExceptionReporting(MonoDomain* domain) noexcept {
    std::lock_guard lock(reporters().mutex);
    reporters().byDomain.erase(domain);
}

} // namespace scripthost::mono
