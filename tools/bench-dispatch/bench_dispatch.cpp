// bench_dispatch: what one script Update costs through each calling strategy, and what
// an internal call costs. A benchmark, not a test: it reports, it asserts nothing.
//
//   managed dispatcher   one thunk call per frame; ScriptRuntime iterates the scripts
//   thunk per script     one unmanaged thunk call per script per frame (C++ loop)
//   runtime_invoke       one mono_runtime_invoke per script per frame (the baseline)
//   position get         UTransform.position from C# (a direct read through its cached pointer),
//                        vs reading a managed Vector3; the internal call it falls back to
//                        (same body, as a probe), and that call's breakdown: probes with the
//                        same signature doing the transition only, + the guard, + the lookup,
//                        and a by-value return
//   coroutine            a coroutine doing Mover's work (yield return null each frame), per
//                        coroutine per frame at 10,000 of them, vs the same work in Update
//   native proxy         a native script's method and field through its generated C# proxy
//                        (internal call into C++), vs the same method and property on a C#
//                        object; the scripts are compiled at start with the generated proxy
#include "../bench-common/sample_stats.hpp"
#include "compiler_bridge/cold_compiler.hpp"
#include "domain/object_bridge.hpp"
#include "glue_access.hpp"
#include "host/engine/script_context.hpp"
#include "host/engine/script_host.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "host/modules/native_proxy_source.hpp"
#include "host/runtime/mono_runtime.hpp"
#include "host_game_world.hpp"
#include "runtime/gc_handle.hpp"
#include "runtime/mono_text.hpp"
#include "runtime/runtime_state.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <mono/jit/jit.h>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/class.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/object.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <unistd.h>

using namespace scripthost;
using Clock = std::chrono::steady_clock;
using scripthost::bench::median;

namespace {

template <typename F> double timeSeconds(F&& f) {
    const auto start = Clock::now();
    f();
    return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Figure {
    std::string name;
    double value; // ns
    std::string unit;
    std::string baseline;
    double ratio; // value / baseline value
};

// The breakdown probes (Bench.IcallProbe): each does one more part of
// UTransform.Internal_GetPosition's work (host/glue/src/transform_glue.cpp).
void probeEmpty(std::uint64_t, glm::vec3* out) {
    *out = glm::vec3(1.0f);
}
void probeGuard(std::uint64_t, glm::vec3* out) {
    glue::guarded("probe", [&] {
        (void)glue::context();
        *out = glm::vec3(1.0f);
    });
}
void probeLookup(std::uint64_t e, glm::vec3* out) {
    glue::guarded("probe", [&] { *out = glue::requireEntity(e).transform.position; });
}
glm::vec3 probeByValue(std::uint64_t) {
    return glm::vec3(1.0f);
}
// Internal_GetPosition now, UTransform's checked path (raw registration, liveTransform hot
// path): what every position read cost before the direct read.
void probeChecked(std::uint64_t e, glm::vec3* out) {
    if (const Transform* t = glue::liveTransform(e)) {
        *out = t->position;
        return;
    }
    probeLookup(e, out);
}
// Internal_GetPosition before the hot path; registered with mono_add_internal_call.
void previousGetPosition(std::uint64_t e, glm::vec3* out) {
    glue::guarded("UTransform.position", [&] { *out = glue::requireEntity(e).transform.position; });
}

// The native script class the proxy figures call: what a game module would register.
struct NativeProbe : game::NativeScript {
    float speed = 1.0f;
    float add(float x) { return speed += x; }
};

[[noreturn]] void die(const std::string& message) {
    spdlog::error("{}", message);
    std::exit(1);
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"bench_dispatch: per-script Update dispatch cost and internal-call cost"};
    bool quick = false, json = false;
    std::string scriptCore = SCRIPTHOST_SCRIPTCORE_DLL, benchDll = SCRIPTHOST_BENCH_SCRIPTS_DLL;
    app.add_flag("--quick", quick, "Short run (fewer scripts and repetitions)");
    app.add_flag("--json", json, "Print one JSON object instead of a table");
    app.add_option("--scriptcore", scriptCore, "ScriptCore.dll");
    app.add_option("--bench-scripts", benchDll, "BenchScripts.dll");
    CLI11_PARSE(app, argc, argv);
    spdlog::set_level(spdlog::level::warn);

    const int scripts = quick ? 1000 : 10000;
    const int frames = quick ? 20 : 50;
    const int repetitions = quick ? 5 : 11;
    const int icalls = quick ? 200000 : 2000000;

    ScriptHostOptions options;

    options.registerInternalCalls = glue::registerEngineInternalCalls;
    options.scriptCore = scriptCore;
    options.disableAfterFailures = 0;
    auto host = ScriptHost::create(options);
    if (!host)
        die(host.error().message);
    mono_add_internal_call("Bench.IcallProbe::Empty", reinterpret_cast<const void*>(&probeEmpty));
    mono_add_internal_call("Bench.IcallProbe::Guard", reinterpret_cast<const void*>(&probeGuard));
    mono_add_internal_call("Bench.IcallProbe::Lookup", reinterpret_cast<const void*>(&probeLookup));
    mono_add_internal_call("Bench.IcallProbe::ByValue",
                           reinterpret_cast<const void*>(&probeByValue));
    mono_add_internal_call("Bench.IcallProbe::PreviousGetPosition",
                           reinterpret_cast<const void*>(&previousGetPosition));
    mono_dangerous_add_raw_internal_call("Bench.IcallProbe::RawEmpty",
                                         reinterpret_cast<const void*>(&probeEmpty));
    mono_dangerous_add_raw_internal_call("Bench.IcallProbe::RawLookup",
                                         reinterpret_cast<const void*>(&probeLookup));
    mono_dangerous_add_raw_internal_call("Bench.IcallProbe::Checked",
                                         reinterpret_cast<const void*>(&probeChecked));
    // A native script class registered as a game module would (its method's internal call,
    // the bridge), and the scripts compiled with its generated proxy.
    HostGameWorld gameWorld(**host);
    game::detail::callBridge = NativeScripts::callBridge();
    std::vector<game::NativeScriptClassInfo> nativeClasses;
    game::NativeScriptClass<NativeProbe> probeClass("Bench.NativeProbe");
    probeClass.field("speed", &NativeProbe::speed).method<&NativeProbe::add>("Add");
    nativeClasses.push_back(std::move(probeClass).build());
    for (const game::NativeMethodInfo& m : nativeClasses[0].methods)
        MonoRuntime::running()->registerInternalCall("Bench.NativeProbe::Internal_" + m.name,
                                                     m.internalCall);
    (void)(*host)->replaceNativeClasses(std::move(nativeClasses), gameWorld, {});
    const auto work = std::filesystem::temp_directory_path() /
                      fmt::format("bench-dispatch-{}", static_cast<long>(::getpid()));
    std::filesystem::create_directories(work);
    {
        std::ofstream proxy(work / "NativeScripts.g.cs");
        proxy << nativeProxySource((*host)->natives().classes(), "bench_dispatch");
    }
    compiler::CompileRequest request;
    request.sources = {std::filesystem::path(SCRIPTHOST_BENCH_SOURCES) / "BenchScripts.cs",
                       std::filesystem::path(SCRIPTHOST_BENCH_SOURCES) / "NativeProxyBench.cs",
                       work / "NativeScripts.g.cs"};
    request.references = {scriptCore};
    request.output = work / "BenchScripts.dll";
    request.debugSymbols = false;
    if (benchDll == SCRIPTHOST_BENCH_SCRIPTS_DLL) { // not given: build it with the proxy
        const compiler::CompileResult built = compiler::ColdCompiler().compile(request);
        if (!built.success)
            die("cannot compile the bench scripts with the native proxy: " + built.log);
        benchDll = request.output.string();
    }
    auto bench = AssemblyFile::read(benchDll);
    if (!bench)
        die(bench.error().message);
    if (auto r = (*host)->loadScripts(*bench); !r)
        die(r.error().message);
    ScriptHost& h = **host;

    // Strategy 1's scripts live in the host, as in a game.
    std::vector<ObjectId> slots;
    for (int i = 0; i < scripts; ++i) {
        const ObjectId e = h.world().createEntity("E" + std::to_string(i));
        auto s = h.addScript(e, SceneScript{"Bench.Mover", nlohmann::json::object()});
        if (!s)
            die(s.error().message);
        slots.push_back(*s);
    }
    // Strategies 2 and 3 call instances of the same class, created here.
    MonoDomain* domain = mono_domain_get();
    MonoImage* image = mono::runtimeState().domains.scriptsImage(domain, "BenchScripts");
    if (image == nullptr)
        die("BenchScripts image not found");
    MonoClass* mover = mono_class_from_name(image, "Bench", "Mover");
    MonoClass* loops = mono_class_from_name(image, "Bench", "Loops");
    MonoMethod* update = mono_class_get_method_from_name(mover, "Update", 1);
    MonoMethod* ctor = mono_class_get_method_from_name(mover, ".ctor", 0);
    if (!mover || !loops || !update || !ctor)
        die("bench classes not found");
    std::vector<mono::GcHandle> objects;
    for (int i = 0; i < scripts; ++i) {
        MonoObject* o = mono_object_new(domain, mover);
        MonoObject* exc = nullptr;
        mono_runtime_invoke(ctor, o, nullptr, &exc);
        objects.push_back(mono::GcHandle::strong(o));
    }
    using UpdateThunk = void (*)(MonoObject*, float, MonoException**);
    auto thunk = reinterpret_cast<UpdateThunk>(mono_method_get_unmanaged_thunk(update));

    auto perScriptNs = [&](auto&& frame) {
        std::vector<double> samples;
        frame(); // warm-up: JIT
        for (int r = 0; r < repetitions; ++r) {
            const double s = timeSeconds([&] {
                for (int f = 0; f < frames; ++f)
                    frame();
            });
            samples.push_back(s * 1e9 / (double(frames) * scripts));
        }
        return median(samples);
    };
    std::int64_t frameNo = 0;
    ScriptDomain& d = *h.domain();
    ScriptContext context;
    context.world = &h.world();
    context.input = &h.input();
    context.failures = &h.failures();
    context.engine = &h;
    context.natives = &h.natives();
    ScriptContextBinding bind(context);

    const double dispatcher = perScriptNs([&] { (void)d.runUpdate(0.016f, 0.0, ++frameNo); });
    const double perThunk = perScriptNs([&] {
        for (auto& o : objects) {
            MonoException* exc = nullptr;
            thunk(o.target(), 0.016f, &exc);
        }
    });
    const double perInvoke = perScriptNs([&] {
        float dt = 0.016f;
        void* args[] = {&dt};
        for (auto& o : objects) {
            MonoObject* exc = nullptr;
            mono_runtime_invoke(update, o.target(), args, &exc);
        }
    });

    // Internal call: n transform.position reads vs n managed Vector3 reads, both in C#.
    MonoMethod* readPosition = mono_class_get_method_from_name(loops, "ReadPosition", 2);
    MonoMethod* readManaged = mono_class_get_method_from_name(loops, "ReadManagedVector", 2);
    auto perCallNs = [&](MonoMethod* method) {
        std::vector<double> samples;
        MonoString* entity = mono_string_new(domain, "E0");
        for (int r = -1; r < repetitions; ++r) { // r = -1: warm-up (JIT)
            int n = r < 0 ? 1000 : icalls;
            void* args[] = {entity, &n};
            MonoObject* exc = nullptr;
            const double s = timeSeconds([&] { mono_runtime_invoke(method, nullptr, args, &exc); });
            if (exc != nullptr)
                die("an internal-call loop threw");
            if (r >= 0)
                samples.push_back(s * 1e9 / n);
        }
        return median(samples);
    };
    MonoMethod* readProbe = mono_class_get_method_from_name(loops, "ReadProbe", 3);
    MonoMethod* clampMathf = mono_class_get_method_from_name(loops, "ClampMathf", 2);
    MonoMethod* clampInline = mono_class_get_method_from_name(loops, "ClampInline", 2);
    MonoMethod* randomRange = mono_class_get_method_from_name(loops, "RandomRange", 2);
    MonoMethod* randomInline = mono_class_get_method_from_name(loops, "RandomInline", 2);
    MonoMethod* getKey = mono_class_get_method_from_name(loops, "GetKey", 2);
    MonoMethod* getKeyManaged = mono_class_get_method_from_name(loops, "GetKeyManaged", 2);
    if (!readPosition || !readManaged || !readProbe || !clampMathf || !clampInline ||
        !randomRange || !randomInline || !getKey || !getKeyManaged)
        die("Bench.Loops methods not found");
    // Two loops' per-call medians, alternated repetition by repetition, so that a burst of load
    // on the machine (or the CPU's clock settling at the start) hits both figures alike.
    auto alternated = [&](MonoMethod* measured, MonoMethod* baseline) {
        std::vector<double> measuredSamples, baselineSamples;
        (void)perCallNs(measured); // JIT and the clock
        (void)perCallNs(baseline);
        for (int r = 0; r < repetitions; ++r) {
            measuredSamples.push_back(perCallNs(measured));
            baselineSamples.push_back(perCallNs(baseline));
        }
        return std::pair{median(measuredSamples), median(baselineSamples)};
    };
    auto probeNs = [&](int which) {
        std::vector<double> samples;
        MonoString* entity = mono_string_new(domain, "E0");
        for (int r = -1; r < repetitions; ++r) {
            int n = r < 0 ? 1000 : icalls;
            void* args[] = {entity, &n, &which};
            MonoObject* exc = nullptr;
            const double s =
                timeSeconds([&] { mono_runtime_invoke(readProbe, nullptr, args, &exc); });
            if (exc != nullptr)
                die("an internal-call probe threw");
            if (r >= 0)
                samples.push_back(s * 1e9 / n);
        }
        return median(samples);
    };
    const auto [icall, managed] = alternated(readPosition, readManaged);
    // A child of E0: its world position is composed, its local one read directly.
    const ObjectId child = h.world().createEntity("E0 child", {});
    if (!h.world().setParent(child, h.world().findEntity("E0"), false))
        die("cannot parent the child of E0");
    MonoMethod* readChild = mono_class_get_method_from_name(loops, "ReadChildPosition", 2);
    MonoMethod* readChildLocal =
        mono_class_get_method_from_name(loops, "ReadChildLocalPosition", 2);
    if (!readChild || !readChildLocal)
        die("Bench.Loops' child readers not found");
    const double childWorld = perCallNs(readChild);
    const double childLocal = perCallNs(readChildLocal);
    const double previousIcall = probeNs(6);
    const double checkedIcall = probeNs(7);
    const double probeTransition = probeNs(0);
    const double probeGuarded = probeNs(1);
    const double probeLookedUp = probeNs(2);
    const double probeReturn = probeNs(3);
    const double probeRawTransition = probeNs(4);
    const double probeRawLookedUp = probeNs(5);

    // A native script's proxy: its method and its field, against a C# object's.
    const ObjectId nativeEntity = h.world().createEntity("NativeProbe");
    auto nativeSlot = h.addScript(nativeEntity, SceneScript{"Bench.NativeProbe", {}});
    if (!nativeSlot)
        die(nativeSlot.error().message);
    MonoClass* proxyLoops = mono_class_from_name(image, "Bench", "ProxyLoops");
    auto proxyObject =
        mono::runtimeState().domains.bridgeOf(domain)->remoteOf(h.world(), *nativeSlot);
    if (proxyLoops == nullptr || !proxyObject)
        die("the native probe's proxy or Bench.ProxyLoops is missing");
    mono::GcHandle proxy = mono::GcHandle::strong(*proxyObject);
    auto loopNs = [&](const char* method, bool withProxy) {
        MonoMethod* m = mono_class_get_method_from_name(proxyLoops, method, withProxy ? 2 : 1);
        if (m == nullptr)
            die(std::string("Bench.ProxyLoops.") + method + " not found");
        std::vector<double> samples;
        for (int r = -1; r < repetitions; ++r) {
            int n = r < 0 ? 1000 : icalls;
            void* withArgs[] = {proxy.target(), &n};
            void* withoutArgs[] = {&n};
            MonoObject* exc = nullptr;
            const double s = timeSeconds(
                [&] { mono_runtime_invoke(m, nullptr, withProxy ? withArgs : withoutArgs, &exc); });
            if (exc != nullptr) {
                MonoObject* inner = nullptr;
                MonoString* text = mono_object_to_string(exc, &inner);
                die(std::string("Bench.ProxyLoops.") + method +
                    " threw: " + (text != nullptr ? mono::toUtf8(text) : std::string("?")));
            }
            if (r >= 0)
                samples.push_back(s * 1e9 / n);
        }
        return median(samples);
    };
    const double proxyCall = loopNs("CallNative", true);
    const double managedCall = loopNs("CallManaged", false);
    const double proxyGet = loopNs("GetNative", true);
    const double managedGet = loopNs("GetManaged", false);
    std::filesystem::remove_all(work);

    // Coroutines: the frame with 10,000 scripts doing the work in Update, then the frame with
    // 10,000 scripts each running one coroutine that does it (and nothing in Update).
    const int coroutines = 10000;
    auto frameNsPer = [&](const char* className) {
        std::vector<ObjectId> added;
        for (int i = 0; i < coroutines; ++i) {
            const ObjectId e = h.world().createEntity("C" + std::to_string(i));
            auto s = h.addScript(e, SceneScript{className, nlohmann::json::object()});
            if (!s)
                die(s.error().message);
            added.push_back(e);
        }
        std::vector<double> samples;
        (void)d.runUpdate(0.016f, 0.0, ++frameNo); // warm-up: JIT
        for (int r = 0; r < repetitions; ++r) {
            const double s = timeSeconds([&] {
                for (int f = 0; f < frames; ++f)
                    (void)d.runUpdate(0.016f, 0.0, ++frameNo);
            });
            samples.push_back(s * 1e9 / (double(frames) * coroutines));
        }
        for (ObjectId e : added)
            (void)h.destroyEntity(e);
        (void)d.runUpdate(0.016f, 0.0, ++frameNo); // drops the destroyed scripts from the lists
        return median(samples);
    };
    for (ObjectId s : slots)
        (void)h.removeScript(s); // the dispatcher strategies' scripts: out of the way
    (void)d.runUpdate(0.016f, 0.0, ++frameNo);
    const double updateWork = frameNsPer("Bench.Mover");
    const double coroutineWork = frameNsPer("Bench.CoroutineMover");
    if (auto left = d.coroutines(); !left || !left->empty())
        die("the coroutines did not stop with their scripts");
    // The engine API's everyday members against the same work written out in plain C#.
    const auto [mathfClamp, inlineClamp] = alternated(clampMathf, clampInline);
    const auto [randomDraw, inlineDraw] = alternated(randomRange, randomInline);
    h.input().set("key:Space", 1);
    const auto [keyRead, managedKeyRead] = alternated(getKey, getKeyManaged);
    std::vector<Figure> figures = {
        {"update dispatch: managed dispatcher", dispatcher, "ns/script",
         "mono_runtime_invoke per script", dispatcher / perInvoke},
        {"update dispatch: unmanaged thunk per script", perThunk, "ns/script",
         "mono_runtime_invoke per script", perThunk / perInvoke},
        {"update dispatch: mono_runtime_invoke per script", perInvoke, "ns/script",
         "mono_runtime_invoke per script", 1.0},
        {"UTransform.position get (direct read)", icall, "ns/call", "managed Vector3 read",
         managed > 0 ? icall / managed : 0.0},
        {"managed Vector3 read (baseline)", managed, "ns/call", "managed Vector3 read", 1.0},
        {"UTransform.position get, a child (composed, internal call)", childWorld, "ns/call",
         "managed Vector3 read", managed > 0 ? childWorld / managed : 0.0},
        {"UTransform.localPosition get, a child (direct read)", childLocal, "ns/call",
         "managed Vector3 read", managed > 0 ? childLocal / managed : 0.0},
        {"internal call: UTransform.position, checked path", checkedIcall, "ns/call",
         "managed Vector3 read", managed > 0 ? checkedIcall / managed : 0.0},
        {"internal call: UTransform.position, previous path", previousIcall, "ns/call",
         "managed Vector3 read", managed > 0 ? previousIcall / managed : 0.0},
        {"icall probe: transition only (out Vector3)", probeTransition, "ns/call",
         "managed Vector3 read", managed > 0 ? probeTransition / managed : 0.0},
        {"icall probe: + guard (ScriptContext, try/catch)", probeGuarded, "ns/call",
         "managed Vector3 read", managed > 0 ? probeGuarded / managed : 0.0},
        {"icall probe: + lookup (id -> entity), no property", probeLookedUp, "ns/call",
         "managed Vector3 read", managed > 0 ? probeLookedUp / managed : 0.0},
        {"icall probe: transition only, Vector3 returned", probeReturn, "ns/call",
         "managed Vector3 read", managed > 0 ? probeReturn / managed : 0.0},
        {"icall probe: raw registration, transition only", probeRawTransition, "ns/call",
         "managed Vector3 read", managed > 0 ? probeRawTransition / managed : 0.0},
        {"icall probe: raw registration, + guard + lookup", probeRawLookedUp, "ns/call",
         "managed Vector3 read", managed > 0 ? probeRawLookedUp / managed : 0.0},
        {"native script proxy: method call (float Add(float))", proxyCall, "ns/call",
         "C#-to-C# call", managedCall > 0 ? proxyCall / managedCall : 0.0},
        {"C#-to-C# call, not inlined (baseline)", managedCall, "ns/call", "C#-to-C# call", 1.0},
        {"native script proxy: field get (float property)", proxyGet, "ns/call", "C# property get",
         managedGet > 0 ? proxyGet / managedGet : 0.0},
        {"C# property get, not inlined (baseline)", managedGet, "ns/call", "C# property get", 1.0},
        {"coroutine step (10,000 running, yield null)", coroutineWork, "ns/coroutine",
         "the same work in Update", updateWork > 0 ? coroutineWork / updateWork : 0.0},
        {"the same work in Update (10,000 scripts)", updateWork, "ns/script",
         "the same work in Update", 1.0},
        {"Mathf.Clamp", mathfClamp, "ns/call", "the same clamp in plain C#",
         inlineClamp > 0 ? mathfClamp / inlineClamp : 0.0},
        {"the same clamp in plain C# (baseline)", inlineClamp, "ns/call",
         "the same clamp in plain C#", 1.0},
        {"Random.Range(float, float)", randomDraw, "ns/call", "the same xorshift128 in plain C#",
         inlineDraw > 0 ? randomDraw / inlineDraw : 0.0},
        {"the same xorshift128 in plain C# (baseline)", inlineDraw, "ns/call",
         "the same xorshift128 in plain C#", 1.0},
        {"Input.GetKey(KeyCode) (internal call)", keyRead, "ns/call", "a managed Dictionary lookup",
         managedKeyRead > 0 ? keyRead / managedKeyRead : 0.0},
        {"a managed Dictionary lookup (baseline)", managedKeyRead, "ns/call",
         "a managed Dictionary lookup", 1.0},
    };

    if (json) {
        nlohmann::json out{{"benchmark", "dispatch"},
                           {"scripts", scripts},
                           {"frames", frames},
                           {"repetitions", repetitions},
                           {"results", nlohmann::json::array()}};
        for (const Figure& f : figures) {
            out["results"].push_back({{"name", f.name},
                                      {"median_ns", f.value},
                                      {"unit", f.unit},
                                      {"baseline", f.baseline},
                                      {"ratio", f.ratio}});
        }
        std::puts(out.dump(2).c_str());
    } else {
        std::printf("dispatch: %d scripts, %d frames x %d repetitions (medians)\n", scripts, frames,
                    repetitions);
        for (const Figure& f : figures) {
            std::printf("  %-48s %9.1f %-10s x%.2f vs %s\n", f.name.c_str(), f.value,
                        f.unit.c_str(), f.ratio, f.baseline.c_str());
        }
    }
    objects.clear();
    (void)h.shutdown();
    return 0;
}
