#pragma once
// Where a project keeps what the host writes about it between runs: the state file a
// supervised restart resumes from, and Mono's crash reports.
//
// - A project with a config file (scripthost.toml): `.scripthost/` beside that file (what
//   `scripthost new` writes ignores it in git).
// - Otherwise `$XDG_STATE_HOME/scripthost/<first script folder's name>-<hash>/`
//   ($XDG_STATE_HOME defaults to ~/.local/state), the hash taken over every script folder's
//   absolute path, so two projects never share one and the same folders always find theirs.

#include <filesystem>
#include <vector>

namespace scripthost {

struct ProjectStateLocation {
    std::filesystem::path folder;    ///< created on first write
    std::filesystem::path stateFile; ///< folder / "state.json"

    /// `configFolder`: the folder of the config file that was read, or empty when none was.
    [[nodiscard]] static ProjectStateLocation
    of(const std::filesystem::path& configFolder,
       const std::vector<std::filesystem::path>& scriptDirs);
};

} // namespace scripthost
