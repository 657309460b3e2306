// ScriptDomain::warmUp: JIT-compiling a generation before it is swapped in.
#include "carry/coroutine_carry.hpp"
#include "host/domain/script_domain.hpp"
#include "jit_class_init.hpp"
#include "runtime/runtime_state.hpp"
#include "script_domain_impl.hpp"

#include <spdlog/spdlog.h>
#include <string_view>

namespace scripthost {

namespace {

// The dispatcher's steps after its thunks: its per-script loops, then the parts of its Warm
// method (each a few ms of JIT: a slice can stop between any two).
constexpr std::size_t kCompileLoopsStep = mono::ManagedDispatcher::kThunkCount;
constexpr std::size_t kRunWarmStep = kCompileLoopsStep + 1;
constexpr std::size_t kDispatcherSteps = kRunWarmStep + mono::ManagedDispatcher::kWarmParts;

void warmDispatcher(mono::ManagedDispatcher& dispatcher, std::size_t step) {
    if (step < mono::ManagedDispatcher::kThunkCount) {
        dispatcher.makeThunk(step);
    } else if (step == kCompileLoopsStep) {
        dispatcher.compileLoops();
    } else if (auto warmed = dispatcher.runWarm(static_cast<int>(step - kRunWarmStep)); !warmed) {
        spdlog::warn("{}", warmed.error().message); // ScriptCore's own code: never expected
    }
}

// A script class: its vtable, its constructor and the messages the dispatcher calls. Once: a
// class of an assembly loaded ahead (script_domain_preload.cpp) is warm before its reload.
// Not a method whose compiling may run a static constructor (a static field of a
// beforefieldinit class, docs/MONO.md §21): that is script code, which here would run with no
// watchdog armed (a field initializer that never returns held the loop for good); its first
// call compiles it, inside the scope that call runs in (a constructor, Update…).
void warmClass(MonoDomain* domain, const mono::ScriptClassEntry& entry) {
    if (entry.warmed.exchange(true))
        return;
    if (entry.ctor != nullptr)
        (void)entry.prepareConstruction(domain);
    for (const char* name : {".ctor", "Initialize", "Update", "FixedUpdate", "OnAfterReload"}) {
        void* iter = nullptr;
        while (MonoMethod* method = mono_class_get_methods(entry.klass, &iter)) {
            if (std::string_view(mono_method_get_name(method)) == name &&
                !mono::compilingMayRunStaticConstructor(method))
                mono_compile_method(method);
        }
    }
}

// Fewer classes than this are warmed on the calling thread alone: the hand-off to the worker
// would cost more than it saves.
constexpr std::size_t kSharedWarmAtLeast = 64;

// What a reload's swap calls in this generation when it replaces it (ScriptDomain::
// carryCoroutines, inFlightAwaits): called once now, when there is nothing to carry, so its
// code and runtime-invoke wrappers are compiled and that swap does not pay for them. Two
// steps (`part` 0 and 1) of a few ms each.
constexpr std::size_t kCarrySteps = 2;
void warmCarryCalls(ScriptDomain::Impl& m, std::size_t part) {
    if (part == 0) {
        if (auto exported = mono::prepareExport(m.dispatcher); !exported)
            spdlog::warn("{}", exported.error().message); // ScriptCore's own code
    } else if (auto awaits = m.dispatcher.describeInFlightAwaits(); !awaits) {
        spdlog::warn("{}", awaits.error().message);
    }
}

// Steps below this run on a thread of their own: ScriptCore's dispatcher and carry code, no
// script code (compiling a script class can run its static constructor, which must run on the
// main thread). The first of them is the new domain's first JIT: ~6 ms on the 2-core machine,
// in one piece (ScriptRuntime's class and its collections' generic code), which no slice
// could split.
constexpr std::size_t kBackgroundSteps = kDispatcherSteps + kCarrySteps;

// What the generations before had compiled of corlib and ScriptCore (JitProfile): the new
// code's first frames would compile it again. Skipped: a method whose compiling could run a
// static constructor of ScriptCore's (its code may expect the main thread).
void warmProfiled(ScriptDomain::Impl& m) {
    for (const mono::JitProfile::Entry& entry : mono::runtimeState().jitProfile.entries()) {
        MonoMethod* method = mono::JitProfile::resolve(entry, m.coreImage);
        if (method != nullptr && !mono::compilingMayRunStaticConstructor(method))
            mono_compile_method(method);
    }
}

// On the warm-up worker (attached to the root domain, so the generation's threads do not
// count it), entering the new domain for the work only.
void warmInBackground(ScriptDomain::Impl& m, bool profiled) {
    m.domain.enter();
    for (std::size_t step = 0; step < kBackgroundSteps; ++step) {
        if (step < kDispatcherSteps)
            warmDispatcher(m.dispatcher, step);
        else
            warmCarryCalls(m, step - kDispatcherSteps);
    }
    if (profiled)
        warmProfiled(m);
}

} // namespace

void ScriptDomain::Impl::startBackgroundWarm(bool profiled) {
    if (!backgroundWarm.valid()) {
        backgroundWarm = mono::runtimeState().warmUpWorker.submit(
            [this, profiled] { warmInBackground(*this, profiled); });
    }
}

bool ScriptDomain::Impl::warmClassesUntil(std::chrono::steady_clock::time_point deadline) {
    // Many classes (a core's edit, assemblies loaded ahead): the warm-up worker takes a share.
    // Each class is warmed by one thread; the worker runs no script code either (warmClass
    // skips what could run a static constructor).
    if (!sharedWarmHelper.valid()) {
        sharedWarm.clear();
        for (const auto& entry : classes.entries()) {
            if (!entry->warmed)
                sharedWarm.push_back(entry.get());
        }
        sharedWarmNext = 0;
        if (sharedWarm.size() >= kSharedWarmAtLeast) {
            sharedWarmHelper = mono::runtimeState().warmUpWorker.submit([this] {
                domain.enter();
                for (std::size_t i; (i = sharedWarmNext++) < sharedWarm.size();)
                    warmClass(domain.get(), *sharedWarm[i]);
            });
        }
    }
    if (sharedWarmHelper.valid()) {
        for (std::size_t i; std::chrono::steady_clock::now() < deadline &&
                            (i = sharedWarmNext++) < sharedWarm.size();)
            warmClass(domain.get(), *sharedWarm[i]);
        if (sharedWarmNext < sharedWarm.size())
            return false;
        if (deadline == std::chrono::steady_clock::time_point::max())
            sharedWarmHelper.wait();
        else if (sharedWarmHelper.wait_until(deadline) != std::future_status::ready)
            return false;
        sharedWarmHelper = {}; // (warmClass throws nothing)
    }
    for (const auto& entry : classes.entries()) { // those found since (or too few to share)
        if (entry->warmed)
            continue;
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        warmClass(domain.get(), *entry);
    }
    return true; // (a deadline already past warms none: the caller's slice was used up)
}

bool ScriptDomain::waitForBackgroundWarm(std::chrono::steady_clock::time_point until) {
    Impl& m = *impl_;
    return !m.backgroundWarm.valid() ||
           m.backgroundWarm.wait_until(until) == std::future_status::ready;
}

bool ScriptDomain::warmUp(std::chrono::microseconds slice) {
    Impl& m = *impl_;
    if (!m.domain.loaded())
        return true;
    if (m.warmStep < kBackgroundSteps) {
        m.startBackgroundWarm(false);
        // With no limit (runToEnd) it is waited for; otherwise the main thread goes on and
        // looks again next time (waitForBackgroundWarm sleeps in the loop's idle time).
        if (slice != std::chrono::microseconds::max() && !m.backgroundWarmDone())
            return false;
        m.joinBackgroundWarm();
        m.warmStep = kBackgroundSteps;
    }
    // ScriptCore's part ran on the worker; then the script classes, on this thread and, when
    // there are many, on the worker too. (No slice: no deadline, as microseconds::max() added
    // to a time point in nanoseconds overflows.)
    m.domain.enter();
    return m.warmClassesUntil(slice == std::chrono::microseconds::max()
                                  ? std::chrono::steady_clock::time_point::max()
                                  : std::chrono::steady_clock::now() + slice);
}

} // namespace scripthost
