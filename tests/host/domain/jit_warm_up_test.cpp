// The JIT warm-up's two facts about Mono: which methods can run a static constructor while they
// are compiled (jit_class_init), and what a domain made ahead compiles of corlib and ScriptCore
// so that the new code's first frame does not (jit_profile). Real mcs builds, the real runtime.
#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "jit_class_init.hpp"
#include "runtime/generation_domain.hpp"
#include "runtime/jit_profile.hpp"
#include "runtime/runtime_state.hpp"

#include <mono/jit/jit.h>
#include <mono/metadata/class.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/object.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

// Each class records its static constructor's run in Log.Lines; M's methods reach them in
// every way the JIT treats differently.
const std::string kClassInit = R"(
public static class Log { public static string Lines = ""; public static void Add(string s) { Lines += s + ";"; } }
public class A { public static int X = Init(); static int Init() { Log.Add("A"); return 1; } }
public class B { public static int Y = Init(); static int Init() { Log.Add("B"); return 2; } public static int Get() { return 5; } }
public class C { public static int Z = Init(); static int Init() { Log.Add("C"); return 3; } public int f; }
public class D { public static int W = Init(); static int Init() { Log.Add("D"); return 4; } }
public class E { static E() { Log.Add("E"); } public static int V = 7; }
public class F { public static int U; }
public static class H { public static int ReadD() { return D.W; } }
public class M {
    public static int Direct() { return A.X; }
    public static int Call() { return B.Get(); }
    public static object New() { return new C(); }
    public static int Inlined() { return H.ReadD(); }
    public static int Precise() { return E.V; }
    public static int NoConstructor() { return F.U; }
    public static int Corlib() { return string.Empty.Length + System.IntPtr.Size; }
    public static int Switch(int k) { switch (k) { case 0: return 1; case 1: return 2; case 2: return A.X; default: return 0; } }
}
)";

MonoMethod* methodOf(MonoImage* image, const char* klass, const char* name, int params = 0) {
    MonoClass* c = mono_class_from_name(image, "", klass);
    REQUIRE(c != nullptr);
    MonoMethod* m = mono_class_get_method_from_name(c, name, params);
    REQUIRE(m != nullptr);
    return m;
}

std::string logged(MonoDomain* domain, MonoImage* image) {
    MonoClass* log = mono_class_from_name(image, "", "Log");
    MonoClassField* lines = mono_class_get_field_from_name(log, "Lines");
    MonoString* text = nullptr;
    mono_field_static_get_value(mono_class_vtable(domain, log), lines, &text);
    char* utf8 = text ? mono_string_to_utf8(text) : nullptr;
    std::string out = utf8 ? utf8 : "";
    mono_free(utf8);
    return out;
}

} // namespace

TEST_CASE("jit class init: compiling runs a static constructor only for a static field of a "
          "beforefieldinit class, which is what the scan flags") {
    TempDir dir("jit-class-init");
    auto scripts = compileScripts(dir, "ClassInit.dll", {{"ClassInit.cs", kClassInit}});
    ScriptHostOptions options;
    options.registerInternalCalls = glue::registerEngineInternalCalls;
    options.scriptCore = SCRIPTHOST_SCRIPTCORE_DLL;
    auto host = ScriptHost::create(options); // starts the runtime
    REQUIRE(host);
    auto domain = mono::GenerationDomain::create(901);
    REQUIRE(domain);
    auto image = domain->load(scripts, false);
    REQUIRE_MESSAGE(image, (image ? "" : image.error().message));

    CHECK(mono::compilingMayRunStaticConstructor(methodOf(*image, "M", "Direct")));
    CHECK(mono::compilingMayRunStaticConstructor(methodOf(*image, "M", "Switch", 1)));
    CHECK_FALSE(mono::compilingMayRunStaticConstructor(methodOf(*image, "M", "Call")));
    CHECK_FALSE(mono::compilingMayRunStaticConstructor(methodOf(*image, "M", "New")));
    CHECK_FALSE(mono::compilingMayRunStaticConstructor(methodOf(*image, "M", "Inlined")));
    CHECK_FALSE(mono::compilingMayRunStaticConstructor(methodOf(*image, "M", "Precise")));
    CHECK_FALSE(mono::compilingMayRunStaticConstructor(methodOf(*image, "M", "NoConstructor")));
    CHECK_FALSE(mono::compilingMayRunStaticConstructor(methodOf(*image, "M", "Corlib")));

    // The fact the scan stands on: compiling (not running) each method, only the flagged one
    // ran a static constructor (A's). The others run theirs when their code first runs.
    for (const char* name : {"Call", "New", "Inlined", "Precise", "NoConstructor", "Corlib"})
        REQUIRE(mono_compile_method(methodOf(*image, "M", name)) != nullptr);
    CHECK(logged(domain->get(), *image) == "");
    REQUIRE(mono_compile_method(methodOf(*image, "M", "Direct")) != nullptr);
    CHECK(logged(domain->get(), *image) == "A;");
}

namespace {

std::string rotator(const std::string& step) {
    return "using UEngine;\n"
           "public class Rotator : UMonoScriptComponent {\n"
           "  [SerializeField] int ticks;\n"
           "  public override void Update(float dt) {\n"
           "    ticks += " + step + ";\n"
           "    transform.Rotate(new Vector3(0f, 1f, 0f), dt * 10f);\n"
           "    if (ticks % 7 == 3) Debug.Log(\"rotated \" + ticks.ToString());\n"
           "  }\n"
           "}\n";
}

// Compilations of corlib and ScriptCore methods during the new generation's first frame.
std::uint64_t firstFrameCompilations(ScriptHost& host, const AssemblyFile& next, bool prepare) {
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    ReloadTransaction reload(host, next);
    if (prepare) {
        auto prepared =
            ScriptDomain::prepare(host.peekGenerationNumber(), host.scriptCore(), host.world());
        REQUIRE_MESSAGE(prepared, prepared.error().message);
        // Its warm-up (the profiled methods included) runs while nothing is reloaded.
        REQUIRE((*prepared)->waitForBackgroundWarm(std::chrono::steady_clock::now() +
                                                    std::chrono::seconds(30)));
        reload.usePreparedDomain(std::move(*prepared));
    }
    const ReloadReport report = reload.runToEnd();
    REQUIRE_MESSAGE(report.success, report.describe());
    REQUIRE(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
    const std::uint64_t before = mono::runtimeState().jitProfile.compilations();
    host.tick(0.016);
    return mono::runtimeState().jitProfile.compilations() - before;
}

} // namespace

TEST_CASE("jit profile: what a generation compiled of ScriptCore and corlib is recorded, and a "
          "prepared domain compiles it before the new code's first frame") {
    TempDir dir("jit-profile");
    auto v1 = compileScripts(dir, "gen1.dll", {{"Rotator.cs", rotator("1")}});
    auto v2 = compileScripts(dir, "gen2.dll", {{"Rotator.cs", rotator("2")}});
    auto v3 = compileScripts(dir, "gen3.dll", {{"Rotator.cs", rotator("3")}});
    auto host = makeHostFrom(v1);
    const ObjectId r = spawnScript(*host, "Rotator");
    for (int i = 0; i < 4; ++i)
        host->tick(0.016);
    REQUIRE(fieldOf<std::int64_t>(*host, r, "ticks") == 4);

    // Recorded: UTransform.Rotate (ScriptCore) and Int32.ToString (corlib); nothing of the
    // scripts, and every entry resolves again, in another domain's ScriptCore too.
    {
        auto other = mono::GenerationDomain::create(902);
        REQUIRE(other);
        auto core = AssemblyFile::read(SCRIPTHOST_SCRIPTCORE_DLL);
        REQUIRE(core);
        auto coreImage = other->load(*core, true);
        REQUIRE(coreImage);
        bool rotate = false, toString = false;
        for (const mono::JitProfile::Entry& entry : mono::runtimeState().jitProfile.entries()) {
            MonoMethod* m = mono::JitProfile::resolve(entry, *coreImage);
            REQUIRE(m != nullptr);
            const std::string name = mono_method_get_name(m);
            const std::string klass = mono_class_get_name(mono_method_get_class(m));
            CHECK(klass != "Rotator");
            rotate = rotate || (entry.scriptCore && klass == "UTransform" && name == "Rotate");
            toString = toString || (!entry.scriptCore && klass == "Int32" && name == "ToString");
        }
        CHECK(rotate);
        CHECK(toString);
    }

    // The first frame in a domain made the usual way compiles Rotate, its internal call and
    // the rest again; in a prepared one, (almost) nothing.
    const std::uint64_t unprepared = firstFrameCompilations(*host, v2, false);
    const std::uint64_t prepared = firstFrameCompilations(*host, v3, true);
    CHECK(fieldOf<std::int64_t>(*host, r, "ticks") == 4 + 2 + 3);
    MESSAGE("first-frame compilations: unprepared " << unprepared << ", prepared " << prepared);
    CHECK(unprepared >= 3);
    CHECK(prepared < unprepared);
    CHECK(prepared * 2 <= unprepared);
}
