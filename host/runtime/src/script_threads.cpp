#include "runtime/script_threads.hpp"

#include "runtime/runtime_state.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <mono/metadata/class.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/threads.h>
#include <string_view>

// Mono's profiler API passes a pointer to a struct the embedder defines; ours holds nothing.
struct _MonoProfiler {};

namespace scripthost::mono {

namespace {

MonoProfiler g_profiler;

// The value of a reference field `name` of `object`, or nullptr.
MonoObject* referenceField(MonoObject* object, const char* name) {
    if (object == nullptr)
        return nullptr;
    MonoClassField* field = nullptr;
    for (MonoClass* klass = mono_object_get_class(object); klass && !field;
         klass = mono_class_get_parent(klass))
        field = mono_class_get_field_from_name(klass, name);
    if (field == nullptr)
        return nullptr;
    MonoObject* value = nullptr;
    mono_field_get_value(object, field, &value);
    return value;
}

// The method a delegate calls (Mono keeps it in Delegate.method as a MonoMethod*).
MonoMethod* delegateMethod(MonoObject* delegate) {
    if (delegate == nullptr)
        return nullptr;
    MonoClassField* field = nullptr;
    for (MonoClass* klass = mono_object_get_class(delegate); klass && !field;
         klass = mono_class_get_parent(klass))
        field = mono_class_get_field_from_name(klass, "method");
    if (field == nullptr)
        return nullptr;
    MonoMethod* method = nullptr;
    mono_field_get_value(delegate, field, &method);
    return method;
}

// "Worker.Run"; a lambda or anonymous method reads as the method it was written in:
// "Faults.Update (lambda)" for mcs's "Faults.<Update>m__0" or
// "Faults/<Update>c__AnonStorey0.<>m__0".
std::string startMethodName(MonoMethod* method) {
    MonoClass* klass = mono_method_get_class(method);
    std::string_view name = mono_method_get_name(method);
    std::string enclosing;
    // Compiler-generated classes (closures) are nested in the class the code was written in.
    while (klass != nullptr && mono_class_get_name(klass)[0] == '<') {
        const std::string_view generated = mono_class_get_name(klass);
        if (enclosing.empty() && generated.find('>') != std::string_view::npos)
            enclosing = std::string(generated.substr(1, generated.find('>') - 1));
        klass = mono_class_get_nesting_type(klass);
    }
    const std::string className = klass ? mono_class_get_name(klass) : "?";
    if (!name.empty() && name.front() == '<') {
        const auto close = name.find('>');
        std::string written(name.substr(1, close == std::string_view::npos ? 0 : close - 1));
        if (written.empty())
            written = enclosing;
        return written.empty() ? className + " (lambda)"
                               : fmt::format("{}.{} (lambda)", className, written);
    }
    return fmt::format("{}.{}", className, name);
}

// Thread.Name, or the start method when the thread has no name.
std::string describeThread(MonoObject* thread) {
    if (thread == nullptr)
        return "(a thread that has ended)";
    if (char* utf8 = mono_thread_get_name_utf8(reinterpret_cast<MonoThread*>(thread))) {
        std::string name = utf8;
        mono_free(utf8);
        if (!name.empty())
            return name;
    }
    // Thread.m_Delegate calls ThreadHelper.ThreadStart, whose _start is the script's delegate.
    MonoObject* helperStart = referenceField(thread, "m_Delegate");
    MonoObject* scriptStart = referenceField(referenceField(helperStart, "m_target"), "_start");
    if (MonoMethod* method = delegateMethod(scriptStart ? scriptStart : helperStart))
        return startMethodName(method);
    return fmt::format("thread {}",
                       mono_thread_get_managed_id(reinterpret_cast<MonoThread*>(thread)));
}

} // namespace

void ScriptThreads::install(MonoDomain* root) {
    {
        std::lock_guard lock(mutex_);
        root_ = root;
    }
    MonoProfilerHandle handle = mono_profiler_create(&g_profiler);
    mono_profiler_set_thread_started_callback(handle, &ScriptThreads::onStarted);
    mono_profiler_set_thread_stopped_callback(handle, &ScriptThreads::onStopped);
}

void ScriptThreads::onStarted(MonoProfiler* /*profiler*/, std::uintptr_t tid) {
    runtimeState().threads.started(tid);
}

void ScriptThreads::onStopped(MonoProfiler* /*profiler*/, std::uintptr_t tid) {
    runtimeState().threads.ended(tid);
}

// On the new thread, attached and in the domain it was started from.
void ScriptThreads::started(std::uintptr_t tid) {
    MonoDomain* domain = mono_domain_get();
    {
        std::lock_guard lock(mutex_);
        if (domain == nullptr || domain == root_)
            return;
    }
    // Outside the lock: the Thread object may be allocated now, and a collection must not
    // wait for a thread blocked on our lock.
    MonoThread* thread = mono_thread_current();
    if (thread == nullptr)
        return;
    GcHandle handle = GcHandle::weak(reinterpret_cast<MonoObject*>(thread));
    std::lock_guard lock(mutex_);
    running_[tid] = Running{domain, std::move(handle), ++startedCount_};
}

void ScriptThreads::ended(std::uintptr_t tid) {
    std::lock_guard lock(mutex_);
    if (running_.erase(tid) != 0)
        ended_.notify_all();
}

std::vector<StartedThread> ScriptThreads::takeRunning(MonoDomain* domain) {
    std::vector<StartedThread> found;
    {
        std::lock_guard lock(mutex_);
        std::vector<std::pair<std::uint64_t, std::uintptr_t>> inOrder;
        for (auto& [tid, running] : running_) {
            if (running.domain == domain)
                inOrder.emplace_back(running.order, tid);
        }
        std::ranges::sort(inOrder);
        for (const auto& [order, tid] : inOrder) {
            Running& running = running_.at(tid);
            found.push_back(StartedThread{tid, {}, GcHandle::weak(running.thread.target())});
            running.domain = nullptr; // being stopped: no longer this domain's
        }
    }
    // Outside the lock: reading a name takes Mono's locks, and a thread that ends now
    // waits for ours in its profiler callback.
    for (StartedThread& t : found)
        t.name = describeThread(t.thread.target());
    return found;
}

ThreadStopOutcome ScriptThreads::stop(const std::vector<StartedThread>& threads,
                                      std::chrono::steady_clock::time_point deadline) {
    for (const StartedThread& t : threads) {
        if (MonoObject* thread = t.thread.target())
            mono_thread_stop(reinterpret_cast<MonoThread*>(thread));
    }
    ThreadStopOutcome outcome;
    std::unique_lock lock(mutex_);
    auto allEnded = [&] {
        return std::ranges::none_of(
            threads, [&](const StartedThread& t) { return running_.contains(t.tid); });
    };
    ended_.wait_until(lock, deadline, allEnded);
    for (const StartedThread& t : threads) {
        if (running_.contains(t.tid)) {
            outcome.running.push_back(t.name);
            ++unstoppable_;
        } else {
            outcome.stopped.push_back(t.name);
        }
    }
    return outcome;
}

std::size_t ScriptThreads::unstoppable() const {
    std::lock_guard lock(mutex_);
    return unstoppable_;
}

} // namespace scripthost::mono
