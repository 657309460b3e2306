#pragma once
// The code that made the saved values, kept beside the state file: the running generation's
// scripts assemblies (with their symbols), so that a host restarted after a crash runs that
// code first, whatever is on disk now (a syntax error, a throwing constructor). One assembly or
// several (assemblies by folder), in dependency order.
//
// On disk, beside `<stem>.json`: `<stem>.scripts/set-<N>/<Name>.dll` (and `.dll.mdb`) and
// `<stem>.scripts/assemblies.json` = {"folder": "set-<N>", "assemblies": ["Core.dll", ...]}.
// A save writes a new set folder, then the manifest (renamed into place), then removes the older
// sets: a crash at any point leaves one whole set named by the manifest. Hosts before the
// manifest wrote `<stem>.scripts/Scripts.dll`, which is still read when there is no manifest.

#include "host/model/assembly_file.hpp"
#include "scripthost/game/error.hpp"

#include <filesystem>
#include <vector>

namespace scripthost {

/// `<state file's stem>.scripts` beside the state file.
[[nodiscard]] std::filesystem::path savedScriptsFolder(const std::filesystem::path& stateFile);

/// Writes `scripts` (not empty, dependency order, distinct names) as the state's code.
[[nodiscard]] Result<void> writeSavedScripts(const std::filesystem::path& stateFile,
                                             const std::vector<AssemblyFile>& scripts);

/// The saved code's .dll files in dependency order; empty when none was saved. An error names
/// the manifest when it cannot be read or names a file that is not there.
[[nodiscard]] Result<std::vector<std::filesystem::path>>
savedScriptsFiles(const std::filesystem::path& stateFile);

} // namespace scripthost
