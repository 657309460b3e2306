#pragma once
// An assembly set build: the script assemblies of a layout (assembly_layout.hpp) that need
// building, in dependency order, one compile each against the new or the reused outputs of the
// assemblies they reference. The rules: compiler-bridge/README.md, "Assemblies by folder".

#include "compiler_bridge/assembly_layout.hpp"
#include "compiler_bridge/compiler.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::compiler {

/// Builds some assemblies of a layout and reuses the last good output of the others.
struct AssemblySetRequest {
    AssemblyLayout layout;
    /// The assemblies to rebuild (assembliesChanged's answer; any order): always built. Also
    /// rebuilt: every assembly without a usable `previous` output, and every assembly that
    /// references a rebuilt one, directly or not (assembliesToBuild), unless what it sees of
    /// those is unchanged (reuseWhenInterfaceKept).
    std::vector<std::string> rebuild;
    /// The last good .dll of each assembly, by name: the others reference it, at this very path
    /// (the compile server prepares a build whose arguments are the last one's: a reused output
    /// must keep its path; OutputGenerations::prune takes the paths to keep).
    std::map<std::string, std::filesystem::path> previous;
    std::vector<std::filesystem::path> references; ///< every assembly's, e.g. ScriptCore.dll
    /// An assembly to be rebuilt only because it references a rebuilt one is reused after all
    /// when each rebuilt assembly it references, directly or not, kept its interface (the
    /// compiler's interfaceOf the new and the previous .dll are equal: an edit of method
    /// bodies). Off: such assemblies are always rebuilt.
    bool reuseWhenInterfaceKept = true;
    std::vector<std::string> defines;
    bool debugSymbols = true;                 ///< a .mdb beside each .dll
    std::chrono::milliseconds timeout{60000}; ///< each assembly's build, not the set's
    /// Where this build writes: `<outputFolder>/<Name>.dll` (and `.mdb`) per rebuilt assembly.
    /// A fresh folder per set (OutputGenerations::nextFolder), never one a loaded assembly is in.
    std::filesystem::path outputFolder;
};

/// What became of one assembly of the layout in a set build.
enum class AssemblyOutcome {
    Reused,   ///< not rebuilt: `previous` is its output
    Built,    ///< rebuilt: the new .dll in the output folder
    Failed,   ///< its build failed; the set stopped here
    NotBuilt, ///< to be rebuilt, but an earlier one failed or the set was stopped first
};

/// One assembly of a set build.
struct AssemblyBuild {
    std::string name;
    AssemblyOutcome outcome = AssemblyOutcome::NotBuilt;
    std::filesystem::path output;          ///< its .dll when Reused or Built, else empty
    std::optional<CompileRequest> request; ///< Built and Failed: the compile it was
    std::optional<CompileResult> result;   ///< Built and Failed; its `duration` is its time
    /// Built: what other assemblies see of it is what they saw of its previous build (asked
    /// only when assemblies that reference it would be rebuilt otherwise).
    bool interfaceKept = false;
    /// Reused although it references a rebuilt assembly: each one kept its interface.
    bool reusedWithNewReferences = false;
};

/// What a set build did.
struct AssemblySetResult {
    /// Every assembly is Built or Reused: `assemblies` is the set to load.
    bool success = false;
    std::string failedAssembly; ///< the assembly whose build failed (its result says why)
    std::string error;          ///< a request that cannot be built (unknown name, no folder)
    bool stopped = false;       ///< stopRequested said stop before an assembly's build
    /// Every assembly of the layout, in its (dependency) order, also when the set failed.
    std::vector<AssemblyBuild> assemblies;
    std::chrono::milliseconds duration{0}; ///< the whole set

    /// The assembly called `name`, or null.
    [[nodiscard]] const AssemblyBuild* find(std::string_view name) const;
    /// The assembly whose build failed, or null.
    [[nodiscard]] const AssemblyBuild* failed() const;
    /// The last assembly compiled (the failed one when one failed), or null when none was.
    [[nodiscard]] const AssemblyBuild* lastCompiled() const;
    /// Each Built or Reused assembly's .dll, by name: on success, the next request's
    /// `previous`. (After a failure nothing of this set is to be loaded: the next request
    /// rebuilds what this one was to rebuild, with the changes since.)
    [[nodiscard]] std::map<std::string, std::filesystem::path> outputs() const;
};

/// The assemblies `request` compiles, in dependency order: those named in `rebuild`, those
/// without a `previous` .dll on disk, and every assembly that references one of them, directly
/// or not (at most: see reuseWhenInterfaceKept). Names the layout does not have are left out
/// (buildAssemblySet reports them).
[[nodiscard]] std::vector<std::string> assembliesToBuild(const AssemblySetRequest& request);

/// The compile of one assembly of the set: its sources, the request's references, the
/// precompiled assemblies it or any assembly it references sees, plus the .dll of every assembly
/// it references, directly or not (mcs needs a base class's assembly too: CS0012), in layout
/// order, from `outputs` (name → .dll of what is built or reused so far). `-unsafe` when the
/// assembly allows it. (buildAssemblySet then sets `prepareNext` on its first compile only.)
[[nodiscard]] CompileRequest
assemblyCompileRequest(const AssemblySetRequest& request, const ScriptAssembly& assembly,
                       const std::map<std::string, std::filesystem::path>& outputs);

/// Builds the set: each assembly of assembliesToBuild in order, one `compiler.compile` each,
/// stopping at the first failure. `stopRequested` is asked before each compile (a BuildQueue
/// passes "a newer submission came"); when it says true, the rest is NotBuilt and `stopped` set.
/// Never throws.
[[nodiscard]] AssemblySetResult buildAssemblySet(Compiler& compiler,
                                                 const AssemblySetRequest& request,
                                                 const std::function<bool()>& stopRequested = {});
/// The same with a `second` compiler (may be null) that builds, on a thread of its own, an
/// assembly whose references are all built while `compiler` builds another: the leaves of a
/// core's edit two at a time. The first compile is always `compiler`'s (it prepares the next
/// set's); after a failure or a stop no compile starts, and one already running ends.
[[nodiscard]] AssemblySetResult buildAssemblySet(Compiler& compiler, Compiler* second,
                                                 const AssemblySetRequest& request,
                                                 const std::function<bool()>& stopRequested = {});

} // namespace scripthost::compiler
