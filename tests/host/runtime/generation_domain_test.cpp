// GenerationDomain: one generation's app domain — a name no other domain had, assemblies
// loaded from memory under names of their own, released then unloaded, or unloaded when still
// held at destruction.
#include "../support/mono_test_support.hpp"
#include "runtime/domain_presence.hpp"
#include "runtime/generation_domain.hpp"
#include "runtime/runtime_state.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/image.h>

using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("GenerationDomain: every domain gets a name of its own, even for one generation") {
    auto files = startBareRuntime();
    const std::size_t before = mono::runtimeState().liveDomains;
    {
        auto first = mono::GenerationDomain::create(7);
        auto second = mono::GenerationDomain::create(7);
        REQUIRE_MESSAGE(first, first.error().message);
        REQUIRE_MESSAGE(second, second.error().message);
        const std::string a = mono_domain_get_friendly_name(first->get());
        const std::string b = mono_domain_get_friendly_name(second->get());
        CHECK(a.rfind("scripthost-gen7-", 0) == 0);
        CHECK(b.rfind("scripthost-gen7-", 0) == 0);
        CHECK(a != b);
        CHECK(mono::runtimeState().liveDomains == before + 2);
        mono::enterDomain(mono::runtimeState().root);
    } // both still held: unloaded by their destructors
    CHECK(mono::runtimeState().liveDomains == before);
    CHECK(ScriptDomain::waitForUnloads(std::chrono::seconds(30)));
}

TEST_CASE("GenerationDomain: loads the scripts from memory, then is released and unloaded") {
    auto files = startBareRuntime();
    auto domain = mono::GenerationDomain::create(8);
    REQUIRE_MESSAGE(domain, domain.error().message);
    auto core = domain->load(files.scriptCore, /*isScriptCore=*/true);
    REQUIRE_MESSAGE(core, core.error().message);
    auto scripts = domain->load(files.scripts, /*isScriptCore=*/false);
    REQUIRE_MESSAGE(scripts, scripts.error().message);
    // Loaded from bytes under "<domain>/<file>": never a path Mono could cache.
    const std::string name = mono_image_get_filename(*scripts);
    CHECK(name.find(mono_domain_get_friendly_name(domain->get())) != std::string::npos);

    AssemblyFile garbage;
    garbage.name = "Garbage.dll";
    garbage.image = {'n', 'o', 't', ' ', 'a', ' ', 'P', 'E'};
    CHECK_FALSE(domain->load(garbage, false));

    bool dropped = false;
    MonoDomain* dying = domain->release([&] { dropped = true; });
    CHECK(dropped);
    CHECK(dying != nullptr);
    CHECK_FALSE(domain->loaded());
    CHECK(mono_domain_get() != dying); // released on the root domain
    CHECK(domain->release() == nullptr);
    auto unloaded = mono::GenerationDomain::unloadNow(dying, "generation 8");
    CHECK_MESSAGE(unloaded, (unloaded ? "" : unloaded.error().message));
}
