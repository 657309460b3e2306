// JitProfile: Mono's JIT events record the plain methods of corlib and ScriptCore a generation's
// domain compiles (once each, by image and token), not what the root domain or the scripts
// compile, and an entry resolves again in another generation's ScriptCore image (docs/MONO.md
// §21).
#include "../support/generation_code_support.hpp"
#include "runtime/jit_profile.hpp"
#include "runtime/runtime_state.hpp"

#include <algorithm>
#include <mono/metadata/loader.h>

using namespace scripthost;
using namespace scripthost::testing;
using Entry = scripthost::mono::JitProfile::Entry;

namespace {

MonoMethod* methodOf(MonoImage* image, const char* space, const char* klass, const char* name,
                     int params) {
    MonoClass* c = mono_class_from_name(image, space, klass);
    REQUIRE_MESSAGE(c != nullptr, klass);
    MonoMethod* m = mono_class_get_method_from_name(c, name, params);
    REQUIRE_MESSAGE(m != nullptr, name);
    return m;
}

std::size_t timesRecorded(const Entry& entry) {
    const auto entries = mono::runtimeState().jitProfile.entries();
    return static_cast<std::size_t>(std::ranges::count(entries, entry));
}

// JIT-compiles `method` in the current domain.
void compile(MonoMethod* method) {
    REQUIRE(mono_compile_method(method) != nullptr);
}

} // namespace

TEST_CASE("JitProfile: a corlib method a generation compiles is recorded once, however many "
          "generations compile it, and resolves to that method") {
    (void)startBareRuntime();
    mono::JitProfile& profile = mono::runtimeState().jitProfile;
    // Large, with a loop: compiled on its own, never inlined; nothing the runtime runs itself.
    MonoMethod* method = methodOf(mono_get_corlib(), "System", "Convert", "ToBase64CharArray", 5);
    const Entry entry{false, mono_method_get_token(method)};
    REQUIRE(timesRecorded(entry) == 0);

    auto first = mono::GenerationDomain::create(51);
    REQUIRE_MESSAGE(first, first.error().message);
    const std::uint64_t before = profile.compilations();
    compile(method);
    CHECK(profile.compilations() > before);
    CHECK(timesRecorded(entry) == 1);
    CHECK(mono::JitProfile::resolve(entry, nullptr) == method);

    auto second = mono::GenerationDomain::create(52); // a new domain compiles it again
    REQUIRE_MESSAGE(second, second.error().message);
    const std::uint64_t again = profile.compilations();
    compile(method);
    CHECK(profile.compilations() > again);
    CHECK(timesRecorded(entry) == 1);
    mono::enterDomain(mono::runtimeState().root);
}

TEST_CASE("JitProfile: what the root domain and the scripts compile is not recorded") {
    (void)startBareRuntime();
    mono::JitProfile& profile = mono::runtimeState().jitProfile;
    TempDir dir("jit-profile");
    const AssemblyFile code =
        compileScripts(dir, "local.dll",
                       {{"Local.cs", "public static class Local {\n"
                                     "    public static int Sum(int[] xs) { int s = 0;\n"
                                     "        for (int i = 0; i < xs.Length; ++i) s += xs[i] * i;\n"
                                     "        return s; }\n"
                                     "}\n"}});

    MonoMethod* inRoot = methodOf(mono_get_corlib(), "System", "Convert", "FromBase64CharArray", 3);
    const Entry rootEntry{false, mono_method_get_token(inRoot)};
    REQUIRE(timesRecorded(rootEntry) == 0);
    mono::enterDomain(mono::runtimeState().root);
    std::uint64_t before = profile.compilations();
    compile(inRoot);
    CHECK(profile.compilations() == before);
    CHECK(timesRecorded(rootEntry) == 0);

    GenerationCode gen = loadGeneration(53, code);
    before = profile.compilations();
    const std::size_t entries = profile.entries().size();
    compile(methodOf(gen.image, "", "Local", "Sum", 1));
    CHECK(profile.compilations() == before);
    CHECK(profile.entries().size() == entries);

    compile(inRoot); // the same corlib method in a generation's domain: recorded
    CHECK(profile.compilations() > before);
    CHECK(timesRecorded(rootEntry) == 1);
}

TEST_CASE("JitProfile: a ScriptCore method is recorded as ScriptCore's and resolves in another "
          "generation's own ScriptCore image") {
    auto files = startBareRuntime();
    auto first = mono::GenerationDomain::create(54);
    REQUIRE_MESSAGE(first, first.error().message);
    auto shared = first->load(files.scriptCore, /*isScriptCore=*/true);
    REQUIRE_MESSAGE(shared, (shared ? "" : shared.error().message));
    MonoMethod* method = methodOf(*shared, "UEngine", "Debug", "LogWarning", 1);
    const Entry entry{true, mono_method_get_token(method)};
    REQUIRE(timesRecorded(entry) == 0);
    compile(method);
    CHECK(timesRecorded(entry) == 1);
    CHECK(timesRecorded(Entry{false, entry.token}) == 0); // not taken for corlib's
    CHECK(mono::JitProfile::resolve(entry, *shared) == method);

    // ScriptCore's bytes loaded as a generation's own image (as when ScriptCore changed).
    auto second = mono::GenerationDomain::create(55);
    REQUIRE_MESSAGE(second, second.error().message);
    auto own = second->load(files.scriptCore, /*isScriptCore=*/false);
    REQUIRE_MESSAGE(own, (own ? "" : own.error().message));
    REQUIRE(*own != *shared);
    MonoMethod* resolved = mono::JitProfile::resolve(entry, *own);
    REQUIRE(resolved != nullptr);
    CHECK(resolved != method);
    CHECK(std::string(mono_method_get_name(resolved)) == "LogWarning");
    CHECK(std::string(mono_class_get_name(mono_method_get_class(resolved))) == "Debug");
    CHECK(mono_class_get_image(mono_method_get_class(resolved)) == *own);
    mono::enterDomain(mono::runtimeState().root);
}
