// ScriptDomain::preload: assemblies by folder, loaded into a domain made ahead. A reload after
// an edit in one assembly rebuilds it and the assemblies that reference it, and reuses the
// others byte for byte; those can be loaded, checked, their classes found and JIT-compiled in
// the idle time before the save, so the reload pays only for what it built (docs/MONO.md §3).
#include "host/domain/script_domain.hpp"
#include "runtime/checked_call.hpp"
#include "script_domain_impl.hpp"

#include <algorithm>

namespace scripthost {

namespace {

using Clock = std::chrono::steady_clock;

/// Makes `domain` current for a scope, then the caller's domain again: a domain made ahead is
/// worked on between the running generation's frames.
class EnteredDomain {
public:
    explicit EnteredDomain(const mono::GenerationDomain& domain) : caller_(mono_domain_get()) {
        domain.enter();
    }
    ~EnteredDomain() {
        if (caller_ != nullptr)
            mono::enterDomain(caller_);
    }
    EnteredDomain(const EnteredDomain&) = delete;
    EnteredDomain& operator=(const EnteredDomain&) = delete;

private:
    MonoDomain* caller_;
};

} // namespace

void ScriptDomain::preload(std::vector<AssemblyFile> reused) {
    Impl& m = *impl_;
    if (m.scriptsComplete)
        return; // a reload has taken the domain: too late
    for (AssemblyFile& file : reused)
        m.preloadQueue.push_back(std::move(file));
}

Result<bool> ScriptDomain::preloadStep(std::chrono::microseconds slice,
                                       const ScriptDomain* running) {
    Impl& m = *impl_;
    if (m.scriptsComplete || !m.domain.loaded())
        return true;
    const auto deadline = Clock::now() + slice;
    EnteredDomain entered(m.domain);
    // Each assembly is one step: its load, its check and its classes (~1 ms for 100 classes).
    while (!m.preloadQueue.empty()) {
        AssemblyFile file = std::move(m.preloadQueue.front());
        m.preloadQueue.erase(m.preloadQueue.begin());
        auto image = m.loadScriptAssembly(file);
        if (!image) {
            m.preloadQueue.clear();
            return std::unexpected(image.error());
        }
        m.classes.add(*image, m.core, file.name);
        m.preloaded.push_back(std::move(file));
        m.preloadedImages.push_back(*image);
        if (Clock::now() >= deadline)
            return false;
    }
    // The classes' JIT after ScriptCore's (its background part): the two would compete for
    // the JIT's locks, and the first frames of the running generation need the other core.
    if (m.backgroundWarm.valid() && !m.backgroundWarmDone())
        return false;
    if (!m.warmClassesUntil(deadline))
        return false;
    // The carry plans the reload's load stage would make for these classes (~1.4 us each):
    // made against `running`, they are the reload's as long as it replaces that generation
    // (CarryPlans forgets plans made against another).
    const auto& classes = m.classes.entries();
    for (; running != nullptr && m.plannedAhead < classes.size(); ++m.plannedAhead) {
        if (Clock::now() >= deadline)
            return false;
        (void)carryPlan(*running, classes[m.plannedAhead]->info.name);
    }
    return true;
}

bool ScriptDomain::fits(std::span<const AssemblyFile> scripts) const {
    return std::ranges::all_of(impl_->preloaded, [&](const AssemblyFile& ahead) {
        return std::ranges::any_of(scripts, [&](const AssemblyFile& file) {
            return file.name == ahead.name && file.image == ahead.image;
        });
    });
}

std::vector<std::string> ScriptDomain::preloadedAssemblies() const {
    std::vector<std::string> names;
    for (const AssemblyFile& file : impl_->preloaded)
        names.push_back(file.name);
    return names;
}

} // namespace scripthost
