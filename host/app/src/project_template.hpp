#pragma once
// ProjectTemplate: the files `scripthost new` writes — an example script, a scene that uses
// it, scripthost.toml, an editor-only .csproj and VS Code settings — as text, written by
// new_project.cpp.

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

/// Every file of a new project named `projectNamespace` (also the .csproj's name) whose
/// .csproj references `scriptCore` (an absolute path, ScriptCore.xml beside it).
[[nodiscard]] std::vector<ProjectFile> projectTemplate(const std::string& projectNamespace,
                                                       const std::filesystem::path& scriptCore);

} // namespace scripthost
