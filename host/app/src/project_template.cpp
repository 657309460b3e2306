#include "project_template.hpp"

#include <cctype>
#include <fmt/format.h>
#include <utility>

namespace scripthost {

namespace {

/// `text` with every `{{KEY}}` of `values` replaced by its value.
std::string fill(std::string text,
                 std::initializer_list<std::pair<std::string_view, std::string>> values) {
    for (const auto& [key, value] : values) {
        const std::string marker = "{{" + std::string(key) + "}}";
        for (auto at = text.find(marker); at != std::string::npos;
             at = text.find(marker, at + value.size()))
            text.replace(at, marker.size(), value);
    }
    return text;
}

constexpr std::string_view kExampleScript = R"(using UEngine;

namespace {{NAMESPACE}}
{
    /// <summary>
    /// An example script: turns its entity and logs now and then. Edit it while
    /// `scripthost run` is running and save: the new code goes live between two frames and
    /// every [SerializeField] keeps its value.
    /// </summary>
    public class {{CLASS}} : UMonoScriptComponent
    {
        [SerializeField("Degrees per second")] float speed = 90f;
        [SerializeField] int frames;

        public override void Initialize()
        {
            Debug.Log("Hello from " + gameObject.name + "!");
        }

        public override void Update(float deltaTime)
        {
            frames++;
            transform.Rotate(Vector3.up, speed * deltaTime);
            if (frames % 60 == 0)
                Debug.Log(gameObject.name + " ran " + frames + " frames, facing " + transform.forward);
        }
    }
}
)";

constexpr std::string_view kScene = R"({
  "format": "scripthost-scene",
  "version": 1,
  "entities": [
    {
      "name": "{{ENTITY}}",
      "transform": { "position": [0, 0, 0] },
      "scripts": [
        { "class": "{{NAMESPACE}}.{{CLASS}}", "fields": { "speed": 90.0 } }
      ]
    }
  ]
}
)";

constexpr std::string_view kConfig =
    R"(# Settings for `scripthost run` and `scripthost smoke` in this folder (flags win).
# Relative paths are relative to this file's folder, wherever scripthost starts.
[run]
scripts = ["scripts"]
scene = "scene.json"
# headless = true            # no terminal view
# fps = 60                   # 0: unpaced
# state = "world.json"       # load on start, save on stop and every 30 s
# game = "path/to/module.so" # a native game module

# `scripthost smoke` in this folder: the CI check (frames, then reloads that must keep every value).
[smoke]
scripts = ["scripts"]
scene = "scene.json"
)";

// The example's assembly definition: the scripts folder is one assembly named after the project
// (its editor project, editor_projects.cpp, has that name too).
constexpr std::string_view kAssemblyDefinition = R"({
  "name": "{{NAMESPACE}}",
  "references": []
}
)";

constexpr std::string_view kLaunch = R"({
  "version": "0.2.0",
  "configurations": [
    {
      "name": "Attach to scripthost",
      "type": "mono",
      "request": "attach",
      "address": "127.0.0.1",
      "port": {{PORT}}
    }
  ]
}
)";

constexpr std::string_view kExtensions = R"({
  "recommendations": ["ms-dotnettools.csharp", "ms-vscode.mono-debug"]
}
)";

constexpr std::string_view kGitIgnore = R"(# what editors build from the .csproj
bin/
obj/
# what scripthost keeps between runs: the state a restart resumes from, crash reports
.scripthost/
mono_crash.*.json
)";

} // namespace

std::string namespaceFromFolderName(std::string_view folderName) {
    std::string name;
    bool wordStart = true;
    for (const char c : folderName) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x80 && std::isalnum(byte)) {
            name += wordStart ? static_cast<char>(std::toupper(byte)) : c;
            wordStart = false;
        } else {
            wordStart = true; // separators and non-ASCII bytes start a new word
        }
    }
    if (name.empty())
        return "Game";
    // Every word starts upper case, so no name is a C# keyword (they are all lower case).
    if (std::isdigit(static_cast<unsigned char>(name.front())))
        name.insert(0, "_");
    return name;
}

std::vector<ProjectFile> projectTemplate(const std::string& projectNamespace) {
    const std::string className(kExampleScriptClass);
    auto text = [&](std::string_view source) {
        return fill(std::string(source), {{"NAMESPACE", projectNamespace},
                                          {"CLASS", className},
                                          {"ENTITY", std::string(kExampleEntity)},
                                          {"PORT", std::to_string(kDebuggerPort)}});
    };
    return {
        {std::filesystem::path("scripts") / (className + ".cs"), text(kExampleScript)},
        {"scene.json", text(kScene)},
        {"scripthost.toml", text(kConfig)},
        {std::filesystem::path("scripts") / (projectNamespace + ".asmdef"),
         text(kAssemblyDefinition)},
        {std::filesystem::path(".vscode") / "launch.json", text(kLaunch)},
        {std::filesystem::path(".vscode") / "extensions.json", text(kExtensions)},
        {".gitignore", text(kGitIgnore)},
    };
}

} // namespace scripthost
