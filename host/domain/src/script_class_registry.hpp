#pragma once
// ScriptClassRegistry: the script classes of one generation's scripts assembly.

#include "host/domain/script_domain.hpp"
#include "script_core_classes.hpp"
#include "scripthost/game/error.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mono/metadata/class.h>
#include <mono/metadata/image.h>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::mono {

/// One script class with what creating and marshaling its instances needs. Lives as long
/// as its generation's registry (instances and carry plans point at it).
struct ScriptClassEntry {
    MonoClass* klass = nullptr;
    ScriptClassInfo info;
    std::vector<MonoClassField*> fieldHandles;  ///< parallel to info.fields
    std::vector<MonoClassField*> staticHandles; ///< parallel to info.preservedStatics
    MonoMethod* ctor = nullptr;                 ///< the parameterless constructor, if any
    /// Found on first use (or by the JIT warm-up): a reload creates every instance in one
    /// frame. A cache, so it may be filled through a const entry.
    mutable MonoVTable* vtable = nullptr;
    /// Whether the JIT warm-up has compiled this class's code (a domain made ahead warms the
    /// classes of the assemblies it loads ahead; the reload's warm stage skips them). Set by
    /// the thread that warmed it: the main thread or the warm-up worker (jit_warm_up.cpp).
    mutable std::atomic<bool> warmed = false;

    /// Finds the vtable construction needs in `domain`; false if the class cannot load
    /// or has no parameterless constructor.
    bool prepareConstruction(MonoDomain* domain) const;
    /// The index in info.fields of the [SerializeField] field `field` (most derived wins).
    [[nodiscard]] Result<std::size_t> fieldIndex(std::string_view field) const;
};

/// The scripts assemblies of a generation (in dependency order) and their names.
struct ScriptImages {
    std::vector<MonoImage*> images;
    std::vector<std::string> names; ///< assembly names, for messages
};

/// Every concrete class deriving from UEngine.UMonoScriptComponent in the scripts
/// assemblies, sorted by full name, with their [SerializeField] fields (base classes first),
/// their [PreserveStatic] statics and which messages they override. Plain pointers into
/// the domain: clear() before it unloads. Main thread only.
class ScriptClassRegistry {
public:
    /// Finds the script classes of every one of `scripts`. One full class name in two of
    /// them is an error naming both: a script is found by its class name.
    [[nodiscard]] static Result<ScriptClassRegistry> discover(const ScriptImages& scripts,
                                                              const ScriptCoreClasses& core);

    /// discover() in parts, for assemblies loaded at different times (a domain made ahead
    /// loads the ones a reload will reuse first): add() finds the script classes of one
    /// assembly, index() sorts every class found so far, checks that no full name is in two
    /// assemblies and makes find()'s indexes. Entries keep their addresses throughout.
    void add(MonoImage* image, const ScriptCoreClasses& core, std::string_view assemblyName);
    [[nodiscard]] Result<void> index();

    /// The classes as plain data, sorted by name: copies, made on the first call after
    /// index() (a reload's load stage does not need them; 2,000 copies take ~1 ms).
    [[nodiscard]] const std::vector<ScriptClassInfo>& infos() const;
    /// The classes with [PreserveStatic] statics, sorted by name (what a swap carries).
    [[nodiscard]] const std::vector<const ScriptClassEntry*>&
    withPreservedStatics() const noexcept {
        return withStatics_;
    }
    /// Every class, sorted by name.
    [[nodiscard]] const std::vector<std::unique_ptr<ScriptClassEntry>>& entries() const noexcept {
        return entries_;
    }
    /// The class with this full (or, when unambiguous, short) name, or nullptr.
    [[nodiscard]] const ScriptClassEntry* find(std::string_view name) const noexcept;
    /// Why `name` is not a usable script class of `scripts`.
    [[nodiscard]] std::string explainMissing(std::string_view name, const ScriptImages& scripts,
                                             MonoClass* scriptBase) const;
    /// Forgets every class (before the domain unloads).
    void clear() noexcept;

private:
    std::vector<std::unique_ptr<ScriptClassEntry>> entries_;
    mutable std::vector<ScriptClassInfo> infos_; // copies for the public view, once asked for
    mutable bool infosMade_ = false;
    std::vector<const ScriptClassEntry*> withStatics_;
    /// find()'s indexes: by full name, and by short name (the class after the last '.' or
    /// '+') with how many classes have it. A reload looks classes up for every script slot:
    /// a scan of every class for each was quadratic (2,000 classes).
    /// The keys are views of the entries' names (entries keep their addresses).
    std::map<std::string_view, const ScriptClassEntry*> byName_;
    std::map<std::string_view, std::pair<const ScriptClassEntry*, int>> byShortName_;
};

} // namespace scripthost::mono
