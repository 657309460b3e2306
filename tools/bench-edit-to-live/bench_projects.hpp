#pragma once
// The projects bench_edit_to_live edits: the demo's scripts with a probe, 200 generated
// classes in one assembly, and 2,000 generated classes in 20 assemblies by folder; and the
// probe script whose first Update of each build says which edit it was built from.

#include <filesystem>
#include <stdexcept>
#include <string>

namespace scripthost::bench {

namespace fs = std::filesystem;

constexpr int kGeneratedFiles = 200;     // probe included
constexpr int kAssemblies = 20;          // one core, 19 leaves that reference it
constexpr int kClassesPerAssembly = 100; // one file and one entity each

struct BenchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void writeFile(const fs::path& path, const std::string& text);

/// The probe's source for edit `edit`. `publicMember`: the probe also has a public field named
/// after the edit, so each edit changes what other assemblies see of its assembly (they are
/// built again too).
std::string probeSource(int edit, bool publicMember = false);

/// A scripts folder the bench edits, with what `scripthost run` needs besides it.
struct Project {
    std::string name;
    fs::path root;    ///< scratch folder (the host's working directory)
    fs::path scripts; ///< --scripts
    fs::path staging; ///< beside scripts: the new probe is written here, then renamed
    fs::path scene;   ///< empty: none
    fs::path game;    ///< empty: none
    int files = 0;
    fs::path probeDir; ///< the folder EditProbe.cs is in (empty: scripts)
    /// A source of another assembly saved (and its reload waited for, untimed) before each
    /// edit: edits that go back and forth between two assemblies. Empty: none.
    fs::path interleave = {};
    /// Each edit changes what other assemblies see of the probe's (probeSource's publicMember).
    bool probeChangesInterface = false;

    [[nodiscard]] fs::path probe() const {
        return (probeDir.empty() ? scripts : probeDir) / "EditProbe.cs";
    }
};

/// A copy of the demo's scripts and scene plus the probe (and its entity), with `game`.
Project makeDemoProject(const fs::path& root, const fs::path& demoDir, const fs::path& game);
/// 199 generated classes plus the probe in one folder, no scene.
Project makeGeneratedProject(const fs::path& root);
/// A class of the assemblies project; in a leaf it refers to a class of the core (a
/// reference across assemblies, carried by every reload).
std::string assemblyClassSource(const std::string& assembly, int index, bool leaf);
/// 2,000 files in 20 assemblies by folder (Core/Core.asmdef; Leaf01..Leaf19, each
/// referencing Core), 100 classes each, no scene: one entity per class. The probe is in
/// `probeIn` (a leaf's folder or Core's), so its edits rebuild that assembly, and what
/// references it when they change its interface (`changesInterface`). `assemblies` < 20: only
/// the core and the first leaves (the same project, smaller: what the other leaves cost).
Project makeAssembliesProject(const fs::path& root, const std::string& name,
                              const std::string& probeIn, bool interleaved = false,
                              bool changesInterface = false, int assemblies = kAssemblies);

} // namespace scripthost::bench
