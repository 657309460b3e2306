#include "managed_dispatcher.hpp"

#include "runtime/mono_text.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <mono/jit/jit.h>
#include <mono/metadata/debug-helpers.h>

namespace scripthost::mono {

namespace {

// The outcome of a call whose object result is not used.
Result<void> ignoreResult(Result<MonoObject*> called) {
    if (!called)
        return std::unexpected(std::move(called.error()));
    return {};
}

} // namespace

Result<ManagedDispatcher> ManagedDispatcher::bind(MonoDomain* domain, MonoClass* runtime) {
    MonoMethod* call = mono_class_get_method_from_name(runtime, "Call", 9);
    if (call == nullptr)
        return fail("ScriptCore's dispatcher has no Call(9 args)");
    ManagedDispatcher d;
    d.domain_ = domain;
    d.runtime_ = runtime;
    d.call_ = decltype(d.call_)(call);
    return d;
}

Result<void> ManagedDispatcher::attach(MonoObject* instance, ObjectId script, ObjectId entity,
                                       bool runInitialize, std::int32_t messages) {
    return ignoreResult(call(Op::Attach, "attaching a script failed: ",
                             {.arg = instance,
                              .a = script.packed(),
                              .b = entity.packed(),
                              .i = runInitialize ? 1 : 0,
                              .j = messages}));
}

Result<void> ManagedDispatcher::detach(ObjectId script) {
    return ignoreResult(call(Op::Detach, "detaching a script failed: ", {.a = script.packed()}));
}

Result<void> ManagedDispatcher::setEnabled(ObjectId script, bool enabled) {
    return ignoreResult(call(Op::SetEnabled, "", {.a = script.packed(), .i = enabled ? 1 : 0}));
}

Result<void> ManagedDispatcher::entityActiveChanged(ObjectId entity, bool active) {
    return ignoreResult(call(Op::EntityActiveChanged,
                             "telling the scripts their entity's "
                             "activation failed: ",
                             {.a = entity.packed(), .i = active ? 1 : 0}));
}

Result<void> ManagedDispatcher::runUpdate(float deltaTime, double time, std::int64_t frame) {
    return ignoreResult(call(Op::RunUpdate, "the Update dispatcher failed: ",
                             {.a = static_cast<std::uint64_t>(frame), .f = deltaTime, .d = time}));
}

Result<void> ManagedDispatcher::runFixedUpdate(float fixedDeltaTime, double time,
                                               std::int64_t frame) {
    return ignoreResult(
        call(Op::RunFixedUpdate, "the FixedUpdate dispatcher failed: ",
             {.a = static_cast<std::uint64_t>(frame), .f = fixedDeltaTime, .d = time}));
}

Result<int> ManagedDispatcher::countScheduled(ScriptPhase phase) {
    std::uint64_t count = 0;
    if (auto called = call(Op::CountScheduled, "counting the scheduled scripts failed: ",
                           {.i = static_cast<std::int32_t>(phase)}, &count);
        !called)
        return std::unexpected(std::move(called.error()));
    return static_cast<int>(count);
}

Result<ManagedDispatcher::AfterReloadOutcome> ManagedDispatcher::runAfterReload() {
    std::uint64_t failed = 0;
    auto thrown = call(Op::RunAfterReload, "the OnAfterReload dispatcher failed: ", {}, &failed);
    if (!thrown)
        return std::unexpected(thrown.error());
    return AfterReloadOutcome{ObjectId::unpack(failed), *thrown};
}

Result<MonoObject*> ManagedDispatcher::runClassConstructor(MonoReflectionType* type,
                                                           std::string_view failure) {
    return call(Op::RunClassConstructor, failure, {.arg = reinterpret_cast<MonoObject*>(type)});
}

Result<void> ManagedDispatcher::reserve(std::size_t scripts) {
    return ignoreResult(
        call(Op::Reserve, "reserving room for scripts failed: ",
             {.i = static_cast<std::int32_t>(std::min<std::size_t>(scripts, INT32_MAX))}));
}

Result<MonoObject*> ManagedDispatcher::exportCoroutines(std::string_view failure) {
    return call(Op::ExportCoroutines, failure, {});
}

Result<std::string> ManagedDispatcher::describeCoroutines() {
    return describe("DescribeCoroutines", "listing the coroutines failed: ");
}

Result<std::string> ManagedDispatcher::describeInFlightAwaits() {
    // Through Call (ScriptCore's own code, no script code): the warm-up runs it in every
    // generation. DescribeCoroutines stays a runtime invoke: it can run a script's ToString.
    auto text = call(Op::DescribeInFlightAwaits, "listing the awaits in flight failed: ", {});
    if (!text)
        return std::unexpected(text.error());
    return toUtf8(reinterpret_cast<MonoString*>(*text));
}

Result<std::string> ManagedDispatcher::describe(const char* method, const char* failure) {
    MonoMethod* found = runtime_ ? mono_class_get_method_from_name(runtime_, method, 0) : nullptr;
    if (found == nullptr)
        return fail(fmt::format("ScriptCore's dispatcher has no {}()", method));
    auto text = invokeChecked(domain_, found, nullptr, failure);
    if (!text)
        return std::unexpected(text.error());
    return toUtf8(reinterpret_cast<MonoString*>(*text));
}

void ManagedDispatcher::makeThunk(std::size_t /*index*/) {
    (void)call_.get();
}

void ManagedDispatcher::compileLoops() {
    for (const char* name :
         {"Call", "Attach", "Detach", "RunUpdate", "RunFixedUpdate", "RunAfterReload"}) {
        void* iter = nullptr;
        while (MonoMethod* method = runtime_ ? mono_class_get_methods(runtime_, &iter) : nullptr) {
            if (std::string_view(mono_method_get_name(method)) == name)
                mono_compile_method(method);
        }
    }
}

Result<void> ManagedDispatcher::runWarm(int part) {
    return ignoreResult(call(Op::Warm, "warming the dispatcher failed: ", {.i = part}));
}

} // namespace scripthost::mono
