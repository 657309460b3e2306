// DomainRegistry: each live domain's assemblies (what the preload hook resolves by name inside
// that domain) and object bridge, forgotten when the domain is released.
#include "../support/mono_test_support.hpp"
#include "runtime/domain_registry.hpp"
#include "runtime/generation_domain.hpp"
#include "runtime/runtime_state.hpp"

#include <mono/metadata/assembly.h>
#include <mono/metadata/image.h>

using namespace scripthost;
using namespace scripthost::testing;

TEST_CASE("DomainRegistry: a domain's assemblies are found by name in it, and in no other") {
    auto files = startBareRuntime();
    mono::DomainRegistry& registry = mono::runtimeState().domains;
    auto first = mono::GenerationDomain::create(11);
    REQUIRE_MESSAGE(first, first.error().message);
    auto core = first->load(files.scriptCore, /*isScriptCore=*/true);
    auto scripts = first->load(files.scripts, /*isScriptCore=*/false);
    REQUIRE(core);
    REQUIRE(scripts);
    auto second = mono::GenerationDomain::create(12);
    REQUIRE_MESSAGE(second, second.error().message);

    MonoAssembly* found = registry.findAssembly(first->get(), "HostTestScripts");
    REQUIRE(found != nullptr);
    CHECK(mono_assembly_get_image(found) == *scripts);
    CHECK(registry.scriptsImage(first->get(), "HostTestScripts") == *scripts);
    CHECK(registry.scriptCoreImage(first->get()) == *core);
    CHECK(registry.findAssembly(first->get(), "NoSuchAssembly") == nullptr);
    CHECK(registry.findAssembly(second->get(), "HostTestScripts") == nullptr);
    CHECK(registry.scriptCoreImage(second->get()) == nullptr);

    // The bridge is only kept and handed back (never used here), so any address will do.
    int marker = 0;
    auto* bridge = reinterpret_cast<mono::ObjectBridge*>(&marker);
    registry.registerBridge(first->get(), bridge);
    CHECK(registry.bridgeOf(first->get()) == bridge);
    CHECK(registry.bridgeOf(second->get()) == nullptr);

    // Releasing the domain forgets it.
    MonoDomain* dying = first->release();
    CHECK(registry.findAssembly(dying, "HostTestScripts") == nullptr);
    CHECK(registry.bridgeOf(dying) == nullptr);
    CHECK(mono::GenerationDomain::unloadNow(dying, "generation 11"));
}
