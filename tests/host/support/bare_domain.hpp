#pragma once
// BareDomainWorld: what a test that makes ScriptDomains itself (no ScriptHost) needs around
// them: the runtime started with the engine's internal calls, ScriptCore, a World that ids in
// script fields refer to, and that world bound as the scripts' context.
#include "mono_test_support.hpp"

#include <memory>

namespace scripthost::testing {

struct BareDomainWorld {
    BareRuntime bare = startBareRuntime();
    World world;
    ScriptContext context;
    std::unique_ptr<ScriptContextBinding> binding;

    BareDomainWorld() {
        context.world = &world;
        binding = std::make_unique<ScriptContextBinding>(context);
    }

    /// Generation `generation` of `scripts` (the test scripts by default); fails the test if
    /// it cannot be made.
    std::unique_ptr<ScriptDomain> domain(std::uint32_t generation,
                                         const AssemblyFile* scripts = nullptr) {
        auto made =
            ScriptDomain::create(generation, bare.scriptCore, scripts ? *scripts : bare.scripts,
                                 world);
        REQUIRE_MESSAGE(made, (made ? "" : made.error().message));
        return std::move(*made);
    }

    /// A new entity carrying one script slot of `className`; the slot's id.
    ObjectId slot(const std::string& className) {
        const ObjectId entity = world.createEntity(className + "Entity");
        auto added = world.addScript(entity, className);
        REQUIRE(added);
        return *added;
    }
    ObjectId entityOf(ObjectId slot) { return world.script(slot)->entity; }
};

} // namespace scripthost::testing
