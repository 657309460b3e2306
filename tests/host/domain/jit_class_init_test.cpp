// Which methods can run a static constructor while they are compiled (jit_class_init): the IL
// scan behind what the JIT warm-up may compile off the main thread. Real mcs builds, the real
// runtime.
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
public class G { public static int T = Init(); static int Init() { Log.Add("G"); return 5; } public int g; public int Own() { return g; } }
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
          "beforefieldinit class, or for the compiled method's own beforefieldinit class, which "
          "is what the scan flags") {
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
    CHECK(mono::compilingMayRunStaticConstructor(methodOf(*image, "G", "Own")));

    // The fact the scan stands on: compiling (not running) each method, only the flagged one
    // ran a static constructor (A's). The others run theirs when their code first runs.
    for (const char* name : {"Call", "New", "Inlined", "Precise", "NoConstructor", "Corlib"})
        REQUIRE(mono_compile_method(methodOf(*image, "M", name)) != nullptr);
    CHECK(logged(domain->get(), *image) == "");
    REQUIRE(mono_compile_method(methodOf(*image, "M", "Direct")) != nullptr);
    CHECK(logged(domain->get(), *image) == "A;");
    // A method of a beforefieldinit class: its own class is initialized once it is compiled,
    // whether or not it reads a static field.
    REQUIRE(mono_compile_method(methodOf(*image, "G", "Own")) != nullptr);
    CHECK(logged(domain->get(), *image) == "A;G;");
}
