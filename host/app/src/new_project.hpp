#pragma once
// `scripthost new DIR`: a project folder a user can open in an editor and run with
// `scripthost run` (the files are described in project_template.hpp).

#include "scripthost/game/error.hpp"

#include <filesystem>
#include <vector>

namespace CLI {
class App;
}

namespace scripthost {

struct NewProjectOptions {
    std::filesystem::path folder;     ///< created when missing
    bool force = false;               ///< write into a folder that is not empty
    std::filesystem::path scriptCore; ///< empty: the ScriptCore.dll the host would use
};

/// What `createProject` wrote.
struct CreatedProject {
    std::filesystem::path folder;             ///< absolute
    std::vector<std::filesystem::path> files; ///< relative to `folder`
};

/// Adds the `new` subcommand with its options bound to `options`.
CLI::App* addNewCommand(CLI::App& app, NewProjectOptions& options);

/// Writes the project's files into `options.folder`. Refuses a folder that is not empty
/// (unless `force`), or a missing ScriptCore.dll, before writing anything.
[[nodiscard]] Result<CreatedProject> createProject(const NewProjectOptions& options);

/// `scripthost new`: creates the project and says what it wrote and how to run it; 0 or 1.
int runNewProject(const NewProjectOptions& options);

} // namespace scripthost
