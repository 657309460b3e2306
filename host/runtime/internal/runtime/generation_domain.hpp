#pragma once
// GenerationDomain: the app domain of one generation of script code.

#include "host/model/assembly_file.hpp"
#include "runtime/checked_call.hpp"
#include "scripthost/game/error.hpp"

#include <cstdint>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/image.h>
#include <string>
#include <vector>

namespace scripthost::mono {

/// Owns one generation's app domain, from creation (under a name no other domain of this
/// process ever had: image names are a process-wide cache, and a reused one can hand
/// back old code) through loading assemblies from memory to the hand-over for unloading.
/// Move-only; a domain still held when it is destroyed is unloaded then. Main thread.
class GenerationDomain {
public:
    GenerationDomain() noexcept = default;
    /// Creates the domain "scripthost-gen<generation>-<serial>" and makes it current.
    [[nodiscard]] static Result<GenerationDomain> create(std::uint32_t generation);

    GenerationDomain(GenerationDomain&& other) noexcept;
    GenerationDomain& operator=(GenerationDomain&& other) noexcept;
    GenerationDomain(const GenerationDomain&) = delete;
    GenerationDomain& operator=(const GenerationDomain&) = delete;
    ~GenerationDomain();

    /// The domain; nullptr once released.
    [[nodiscard]] MonoDomain* get() const noexcept { return domain_; }
    [[nodiscard]] bool loaded() const noexcept { return domain_ != nullptr; }
    /// Makes the domain current on the calling thread.
    void enter() const noexcept { enterDomain(domain_); }

    /// Loads an assembly from `file`'s bytes and symbols as "<domain name>/<file name>",
    /// and records it for the preload hook; returns its image. ScriptCore comes from the
    /// SharedScriptCore instead while its bytes are the ones it holds.
    [[nodiscard]] Result<MonoImage*> load(const AssemblyFile& file, bool isScriptCore);

    /// Switches the thread to the root domain, runs `dropHeld` (the generation frees its
    /// GC handles and forgets every cached pointer into the domain), forgets the domain's
    /// registrations and hands it out for unloading: nothing may touch it but the unload.
    /// nullptr when already released.
    template <typename DropHeld> [[nodiscard]] MonoDomain* release(DropHeld&& dropHeld) {
        if (domain_ == nullptr) {
            return nullptr;
        }
        switchToRoot(); // never unload the current domain
        dropHeld();
        return handOut();
    }
    /// release() for a generation that holds nothing more in the domain.
    [[nodiscard]] MonoDomain* release() noexcept {
        return release([] {});
    }

    /// Unloads a released domain now (after the background unloads in flight: one at a
    /// time), on the calling thread, first stopping the threads it started (bounded: a
    /// thread that will not stop leaves the domain loaded, an error). `label` names it.
    [[nodiscard]] static Result<void> unloadNow(MonoDomain* dying, const std::string& label);
    /// Hands a released domain to the runtime's unloader thread, which stops the threads
    /// it started, then unloads it. Returns the names of those threads (Thread.Name, or
    /// the start method), for the reload report.
    static std::vector<std::string> unloadInBackground(MonoDomain* dying, std::string label);

private:
    explicit GenerationDomain(MonoDomain* domain, std::string name) noexcept;
    static void switchToRoot() noexcept;
    MonoDomain* handOut() noexcept;

    MonoDomain* domain_ = nullptr;
    std::string name_;
};

} // namespace scripthost::mono
