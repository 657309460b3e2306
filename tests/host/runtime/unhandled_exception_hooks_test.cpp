// The unhandled-exception hooks: Mono's profiler sees an exception leave a thread-pool work item
// or a finalizer chain (reported once), installUnhandledExceptionReporting makes ScriptCore's
// UnhandledExceptions name the script (and report a thread's exception), and once forgotten the
// hooks report without a script; a ScriptCore without the class is refused (docs/MONO.md §17).
#include "../support/generation_code_support.hpp"
#include "host/runtime/unhandled_exceptions.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/unhandled_exception_hooks.hpp"

#include <thread>

using namespace scripthost;
using namespace scripthost::testing;
using mono::UnhandledExceptionKind;
using mono::UnhandledExceptionRecord;

namespace {

constexpr const char* kFaults = R"(
using System;
using System.Runtime.CompilerServices;
using System.Threading;
public class Boom : Exception { public Boom(string message) : base(message) {} }
public static class Pooler {
    public static void Queue() {
        ThreadPool.QueueUserWorkItem(_ => { throw new Boom("from the pool"); });
    }
}
public static class Starter {
    public static void Start() { new Thread(() => { throw new Boom("from a thread"); }).Start(); }
}
public class Doomed { ~Doomed() { throw new Boom("from a finalizer"); } }
public class DerivedDoomed : Doomed {
    public static int finalized;
    ~DerivedDoomed() { Interlocked.Increment(ref finalized); }
    [MethodImpl(MethodImplOptions.NoInlining)] static void Drop() { new DerivedDoomed(); }
    // Collects until at least one was finalized (the GC scans stacks conservatively: the
    // first object may look alive); returns how many were.
    public static int Collect() {
        for (int i = 0; i < 100 && Volatile.Read(ref finalized) == 0; ++i) {
            Drop();
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
        return Volatile.Read(ref finalized);
    }
}
)";

/// A generation with ScriptCore (shared) and the faults loaded, its reporting installed.
struct Faults {
    mono::GenerationDomain domain;
    MonoImage* image = nullptr;
};

Faults loadFaults(std::uint32_t generation, const BareRuntime& files, const AssemblyFile& code) {
    auto domain = mono::GenerationDomain::create(generation);
    REQUIRE_MESSAGE(domain, (domain ? "" : domain.error().message));
    auto core = domain->load(files.scriptCore, /*isScriptCore=*/true);
    REQUIRE_MESSAGE(core, (core ? "" : core.error().message));
    auto image = domain->load(code, /*isScriptCore=*/false);
    REQUIRE_MESSAGE(image, (image ? "" : image.error().message));
    auto installed = mono::installUnhandledExceptionReporting(domain->get(), *core);
    REQUIRE_MESSAGE(installed, (installed ? "" : installed.error().message));
    return {std::move(*domain), *image};
}

/// Takes records until there are `count` of them, at most for a minute.
std::vector<UnhandledExceptionRecord> takeAtLeast(std::size_t count) {
    std::vector<UnhandledExceptionRecord> all;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (all.size() < count && std::chrono::steady_clock::now() < deadline) {
        auto taken = takeUnhandledExceptions();
        CHECK(taken.dropped == 0);
        for (auto& r : taken.records)
            all.push_back(std::move(r));
        std::this_thread::sleep_for(std::chrono::milliseconds(5)); // polling, not the sync
    }
    REQUIRE(all.size() >= count);
    return all;
}

} // namespace

TEST_CASE("unhandled exception hooks: a pool work item that throws is reported with its script "
          "and kind, and without a script once the domain's reporting is forgotten") {
    auto files = startBareRuntime();
    TempDir dir("unhandled-hooks");
    const AssemblyFile code = compileScripts(dir, "faults.dll", {{"Faults.cs", kFaults}});
    Faults gen = loadFaults(71, files, code);
    (void)takeUnhandledExceptions();

    callStatic(gen.image, "Pooler", "Queue");
    auto reported = takeAtLeast(1);
    REQUIRE(reported.size() == 1);
    CHECK(reported[0].kind == UnhandledExceptionKind::ThreadPool);
    CHECK(reported[0].scriptClass == "Pooler");
    CHECK(reported[0].exceptionType == "Boom");
    CHECK(reported[0].message == "from the pool");
    CHECK_MESSAGE(reported[0].text.find("Pooler") != std::string::npos, reported[0].text);

    mono::forgetUnhandledExceptionReporting(gen.domain.get());
    callStatic(gen.image, "Pooler", "Queue");
    auto unattributed = takeAtLeast(1);
    REQUIRE(unattributed.size() == 1);
    CHECK(unattributed[0].kind == UnhandledExceptionKind::ThreadPool);
    CHECK(unattributed[0].scriptClass.empty()); // the hook's own report: no script known
    CHECK(unattributed[0].message == "from the pool");
}

TEST_CASE("unhandled exception hooks: a finalizer's exception is reported once through its "
          "destructor chain") {
    auto files = startBareRuntime();
    TempDir dir("unhandled-hooks");
    const AssemblyFile code = compileScripts(dir, "faults.dll", {{"Faults.cs", kFaults}});
    Faults gen = loadFaults(72, files, code);
    (void)takeUnhandledExceptions();

    // Each object's exception leaves ~Doomed, then ~DerivedDoomed: one report per object.
    const int finalized = callStaticInt(gen.image, "DerivedDoomed", "Collect");
    REQUIRE(finalized >= 1);
    auto reported = takeAtLeast(static_cast<std::size_t>(finalized));
    CHECK(reported.size() == static_cast<std::size_t>(finalized));
    for (const UnhandledExceptionRecord& r : reported) {
        CHECK(r.kind == UnhandledExceptionKind::Finalizer);
        CHECK(r.scriptClass == "Doomed");
        CHECK(r.message == "from a finalizer");
    }
}

TEST_CASE("unhandled exception hooks: the reporting installed in a domain reports a thread it "
          "started that throws") {
    auto files = startBareRuntime();
    TempDir dir("unhandled-hooks");
    const AssemblyFile code = compileScripts(dir, "faults.dll", {{"Faults.cs", kFaults}});
    Faults gen = loadFaults(73, files, code);
    (void)takeUnhandledExceptions();

    callStatic(gen.image, "Starter", "Start");
    auto reported = takeAtLeast(1);
    REQUIRE(reported.size() == 1);
    CHECK(reported[0].kind == UnhandledExceptionKind::Thread);
    CHECK(reported[0].scriptClass == "Starter");
    CHECK(reported[0].message == "from a thread");
}

TEST_CASE("unhandled exception hooks: an image without ScriptCore's UnhandledExceptions is "
          "refused with a clear error") {
    (void)startBareRuntime();
    TempDir dir("unhandled-hooks");
    const AssemblyFile code = compileScripts(dir, "faults.dll", {{"Faults.cs", kFaults}});
    GenerationCode gen = loadGeneration(74, code);
    auto installed = mono::installUnhandledExceptionReporting(gen.domain.get(), gen.image);
    REQUIRE_FALSE(installed);
    CHECK(installed.error().message.find(
              "ScriptCore has no UEngine.Internal.UnhandledExceptions") != std::string::npos);
}
