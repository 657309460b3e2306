#pragma once
// ProjectTemplate: the files `scripthost new` writes — an example script and its assembly
// definition, a scene that uses it, scripthost.toml and VS Code settings — as text, written by
// new_project.cpp (with the editor projects, editor_projects.hpp).

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

/// One file of a new project: where it goes (relative to the project folder) and its text.
struct ProjectFile {
    std::filesystem::path path;
    std::string text;
};

/// The example script's class (in the project's namespace) and the entity the scene puts it on.
inline constexpr std::string_view kExampleScriptClass = "Rotator";
inline constexpr std::string_view kExampleEntity = "Player";
/// The port `.vscode/launch.json` attaches to (`scripthost run --debug 55555`).
inline constexpr int kDebuggerPort = 55555;

/// A C# namespace made from a folder name: its letters and digits in PascalCase words
/// ("my-game 2" -> "MyGame2", never a C# keyword), "_" before a leading digit, "Game" when
/// nothing is left.
[[nodiscard]] std::string namespaceFromFolderName(std::string_view folderName);

/// Every file of a new project named `projectNamespace` (also the name of its scripts'
/// assembly definition) but the editor projects, which editor_projects.hpp makes from them.
[[nodiscard]] std::vector<ProjectFile> projectTemplate(const std::string& projectNamespace);

} // namespace scripthost
