// The JIT warm-up of a domain made ahead: what the generations compiled of corlib and ScriptCore
// is recorded (jit_profile), and a prepared domain compiles it before the swap, so that the new
// code's first frame does not. Real mcs builds, the real runtime.
#include "../support/mono_test_support.hpp"
#include "host/glue/engine_internal_calls.hpp"
#include "jit_class_init.hpp"
#include "runtime/generation_domain.hpp"
#include "runtime/jit_profile.hpp"
#include "runtime/runtime_state.hpp"

#include <fmt/format.h>
#include <mono/jit/jit.h>
#include <mono/metadata/class.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/object.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

std::string rotator(const std::string& step) {
    return "using UEngine;\n"
           "public class Rotator : UMonoScriptComponent {\n"
           "  [SerializeField] int ticks;\n"
           "  public override void Update(float dt) {\n"
           "    ticks += " +
           step +
           ";\n"
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

TEST_CASE("JIT warm-up: a script class's static field initializer does not run in the warm-up "
          "(no watchdog is armed there), but where the class is first used") {
    TempDir dir("warm-cctor");
    // Lazy is beforefieldinit with a static constructor: compiling any of its methods would run
    // it, so the warm-up leaves them to their first call (a constructor, Update), which runs
    // under the watchdog. (A field initializer that never returned held the loop for good.)
    const AssemblyFile scripts = compileScripts(
        dir, "Lazy.dll",
        {{"Lazy.cs", "using UEngine;\n"
                     "public class Flag : UMonoScriptComponent { [PreserveStatic] public static "
                     "int initialized; }\n"
                     "public class Lazy : UMonoScriptComponent {\n"
                     "  static int stamp = Mark();\n"
                     "  static int Mark() { Flag.initialized++; return 1; }\n"
                     "  public int seen;\n"
                     "  public override void Update(float dt) { seen = stamp; }\n"
                     "}\n"}});
    auto host = makeHostFrom(scripts);
    auto domain = ScriptDomain::create(host->takeGenerationNumber(), host->scriptCore(), scripts,
                                       host->world());
    REQUIRE_MESSAGE(domain, (domain ? "" : domain.error().message));
    while (!(*domain)->warmUp(std::chrono::milliseconds(50))) {
    }
    auto initialized = (*domain)->getStatic("Flag", "initialized");
    REQUIRE_MESSAGE(initialized, (initialized ? "" : initialized.error().message));
    CHECK(std::get<std::int64_t>(*initialized) == 0);
    (void)(*domain)->unloadInBackground();

    const ObjectId lazy = spawnScript(*host, "Lazy"); // its constructor: the first use
    host->tick(1.0 / 60);
    CHECK(fieldOf<std::int64_t>(*host, lazy, "seen") == 1);
    auto afterUse = host->domain()->getStatic("Flag", "initialized");
    REQUIRE(afterUse);
    CHECK(std::get<std::int64_t>(*afterUse) == 1);
}

TEST_CASE("JIT warm-up: without a slice it runs to its end in one call, and many classes are "
          "shared with the warm-up worker, which runs no static initializer either") {
    TempDir dir("warm-whole");
    // 100 classes (the worker takes a share from 64), each with a static field initializer that
    // compiling its Update could run: neither thread may.
    std::vector<std::pair<std::string, std::string>> sources{
        {"Flag.cs", "public class Flag : UEngine.UMonoScriptComponent { [UEngine.PreserveStatic] "
                    "public static int initialized; }"}};
    for (int i = 0; i < 100; ++i)
        sources.emplace_back(
            fmt::format("S{}.cs", i),
            fmt::format("public class S{} : UEngine.UMonoScriptComponent {{ static int stamp = "
                        "Mark(); static int Mark() {{ Flag.initialized++; return 1; }} public "
                        "int n; public override void Update(float dt) {{ n += stamp; }} }}",
                        i));
    const AssemblyFile scripts = compileScripts(dir, "Many.dll", sources);
    auto host = makeHostFrom(scripts);
    auto domain = ScriptDomain::create(host->takeGenerationNumber(), host->scriptCore(), scripts,
                                       host->world());
    REQUIRE_MESSAGE(domain, (domain ? "" : domain.error().message));
    CHECK((*domain)->warmUp());
    auto initialized = (*domain)->getStatic("Flag", "initialized");
    REQUIRE_MESSAGE(initialized, (initialized ? "" : initialized.error().message));
    CHECK(std::get<std::int64_t>(*initialized) == 0);
    (void)(*domain)->unloadInBackground();
}
