#include "mono/managed_dispatcher.hpp"

#include "mono/mono_text.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <mono/jit/jit.h>
#include <mono/metadata/debug-helpers.h>

namespace scripthost::mono {

Result<ManagedDispatcher> ManagedDispatcher::bind(MonoDomain* domain, MonoClass* runtime) {
    struct Wanted {
        const char* name;
        int params;
        MonoMethod* found = nullptr;
    };
    std::array<Wanted, kThunkCount> wanted{{{"Attach", 5},
                                            {"Detach", 1},
                                            {"SetEnabled", 2},
                                            {"RunUpdate", 3},
                                            {"RunFixedUpdate", 3},
                                            {"CountScheduled", 1},
                                            {"RunAfterReload", 1},
                                            {"RunClassConstructor", 1},
                                            {"Reserve", 1}}};
    for (Wanted& w : wanted) {
        w.found = mono_class_get_method_from_name(runtime, w.name, w.params);
        if (w.found == nullptr) {
            return fail(
                fmt::format("ScriptCore's dispatcher has no {}({} args)", w.name, w.params));
        }
    }
    ManagedDispatcher d;
    d.domain_ = domain;
    d.runtime_ = runtime;
    d.attach_ = decltype(d.attach_)(wanted[0].found);
    d.detach_ = decltype(d.detach_)(wanted[1].found);
    d.setEnabled_ = decltype(d.setEnabled_)(wanted[2].found);
    d.runUpdate_ = decltype(d.runUpdate_)(wanted[3].found);
    d.runFixedUpdate_ = decltype(d.runFixedUpdate_)(wanted[4].found);
    d.countScheduled_ = decltype(d.countScheduled_)(wanted[5].found);
    d.afterReload_ = decltype(d.afterReload_)(wanted[6].found);
    d.classConstructor_ = decltype(d.classConstructor_)(wanted[7].found);
    d.reserve_ = decltype(d.reserve_)(wanted[8].found);
    return d;
}

Result<void> ManagedDispatcher::attach(MonoObject* instance, ObjectId script, ObjectId entity,
                                       bool runInitialize, std::int32_t messages) {
    return callChecked(domain_, attach_, "attaching a script failed: ", instance, script.packed(),
                       entity.packed(), runInitialize ? 1 : 0, messages);
}

Result<void> ManagedDispatcher::detach(ObjectId script) {
    return callChecked(domain_, detach_, "detaching a script failed: ", script.packed());
}

Result<void> ManagedDispatcher::setEnabled(ObjectId script, bool enabled) {
    return callChecked(domain_, setEnabled_, "", script.packed(), enabled ? 1 : 0);
}

Result<void> ManagedDispatcher::runUpdate(float deltaTime, double time, std::int64_t frame) {
    return callChecked(domain_, runUpdate_, "the Update dispatcher failed: ", deltaTime, time,
                       frame);
}

Result<void> ManagedDispatcher::runFixedUpdate(float fixedDeltaTime, double time,
                                               std::int64_t frame) {
    return callChecked(domain_, runFixedUpdate_,
                       "the FixedUpdate dispatcher failed: ", fixedDeltaTime, time, frame);
}

Result<int> ManagedDispatcher::countScheduled(ScriptPhase phase) {
    return callChecked(domain_, countScheduled_,
                       "counting the scheduled scripts failed: ", static_cast<std::int32_t>(phase));
}

Result<ManagedDispatcher::AfterReloadOutcome> ManagedDispatcher::runAfterReload() {
    std::uint64_t failed = 0;
    auto thrown =
        callChecked(domain_, afterReload_, "the OnAfterReload dispatcher failed: ", &failed);
    if (!thrown)
        return std::unexpected(thrown.error());
    return AfterReloadOutcome{ObjectId::unpack(failed), *thrown};
}

Result<MonoObject*> ManagedDispatcher::runClassConstructor(MonoReflectionType* type,
                                                           std::string_view failure) {
    return callChecked(domain_, classConstructor_, failure, reinterpret_cast<MonoObject*>(type));
}

Result<void> ManagedDispatcher::reserve(std::size_t scripts) {
    return callChecked(domain_, reserve_, "reserving room for scripts failed: ",
                       static_cast<std::int32_t>(std::min<std::size_t>(scripts, INT32_MAX)));
}

Result<std::string> ManagedDispatcher::describeCoroutines() {
    return describe("DescribeCoroutines", "listing the coroutines failed: ");
}

Result<std::string> ManagedDispatcher::describeInFlightAwaits() {
    return describe("DescribeInFlightAwaits", "listing the awaits in flight failed: ");
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

void ManagedDispatcher::makeThunk(std::size_t index) {
    switch (index) {
    case 0:
        (void)attach_.get();
        break;
    case 1:
        (void)detach_.get();
        break;
    case 2:
        (void)setEnabled_.get();
        break;
    case 3:
        (void)runUpdate_.get();
        break;
    case 4:
        (void)runFixedUpdate_.get();
        break;
    case 5:
        (void)countScheduled_.get();
        break;
    case 6:
        (void)afterReload_.get();
        break;
    case 7:
        (void)classConstructor_.get();
        break;
    default:
        (void)reserve_.get();
        break;
    }
}

void ManagedDispatcher::compileLoops() {
    for (const char* name : {"Attach", "Detach", "RunUpdate", "RunFixedUpdate", "RunAfterReload"}) {
        void* iter = nullptr;
        while (MonoMethod* method = runtime_ ? mono_class_get_methods(runtime_, &iter) : nullptr) {
            if (std::string_view(mono_method_get_name(method)) == name)
                mono_compile_method(method);
        }
    }
}

Result<void> ManagedDispatcher::runWarm(int part) {
    MonoMethod* warm = runtime_ ? mono_class_get_method_from_name(runtime_, "Warm", 1) : nullptr;
    if (warm == nullptr)
        return {};
    void* args[] = {&part};
    auto ran = invokeChecked(domain_, warm, nullptr, args, "warming the dispatcher failed: ");
    if (!ran)
        return std::unexpected(ran.error());
    return {};
}

} // namespace scripthost::mono
