#include "project_template.hpp"

#include "junit_report.hpp"

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

/// A path as MSBuild text inside XML: MSBuild's special characters as %XX, then XML's.
std::string msbuildXmlText(const std::string& path) {
    std::string escaped;
    for (const char c : path) {
        if (c == '%' || c == '$' || c == '@' || c == ';' || c == '\'' || c == '*' || c == '?')
            escaped += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        else
            escaped += c;
    }
    return escapeXml(escaped, false);
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

// (A delimiter: the text holds `)"`.)
constexpr std::string_view kProjectFile = R"xml(<Project Sdk="Microsoft.NET.Sdk">
  <!--
    For editors only (OmniSharp, C# Dev Kit): completion, documentation and diagnostics.
    scripthost builds the scripts itself with mcs (C# 7.2) when it runs them; nothing here
    is built or run by it.
  -->
  <PropertyGroup>
    <TargetFramework>net472</TargetFramework>
    <LangVersion>7.2</LangVersion>
    <RootNamespace>{{NAMESPACE}}</RootNamespace>
    <AssemblyName>{{NAMESPACE}}</AssemblyName>
    <OutputType>Library</OutputType>
    <EnableDefaultCompileItems>false</EnableDefaultCompileItems>
    <GenerateAssemblyInfo>false</GenerateAssemblyInfo>
  </PropertyGroup>
  <!-- Mono's own framework assemblies, the ones mcs compiles against: no download needed. -->
  <PropertyGroup Condition="Exists('/usr/lib/mono/4.5/mscorlib.dll')">
    <FrameworkPathOverride>/usr/lib/mono/4.5</FrameworkPathOverride>
    <AutomaticallyUseReferenceAssemblyPackages>false</AutomaticallyUseReferenceAssemblyPackages>
  </PropertyGroup>
  <ItemGroup>
    <Compile Include="scripts/**/*.cs" Exclude="scripts/**/bin/**;scripts/**/obj/**" />
    <!-- The engine API the host compiles scripts against; its docs are ScriptCore.xml beside it. -->
    <Reference Include="ScriptCore">
      <HintPath>{{SCRIPTCORE}}</HintPath>
      <Private>false</Private>
    </Reference>
  </ItemGroup>
</Project>
)xml";

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

std::vector<ProjectFile> projectTemplate(const std::string& projectNamespace,
                                         const std::filesystem::path& scriptCore) {
    const std::string className(kExampleScriptClass);
    auto text = [&](std::string_view source) {
        return fill(std::string(source), {{"NAMESPACE", projectNamespace},
                                          {"CLASS", className},
                                          {"ENTITY", std::string(kExampleEntity)},
                                          {"SCRIPTCORE", msbuildXmlText(scriptCore.string())},
                                          {"PORT", std::to_string(kDebuggerPort)}});
    };
    return {
        {std::filesystem::path("scripts") / (className + ".cs"), text(kExampleScript)},
        {"scene.json", text(kScene)},
        {"scripthost.toml", text(kConfig)},
        {projectNamespace + ".csproj", text(kProjectFile)},
        {std::filesystem::path(".vscode") / "launch.json", text(kLaunch)},
        {std::filesystem::path(".vscode") / "extensions.json", text(kExtensions)},
        {".gitignore", text(kGitIgnore)},
    };
}

} // namespace scripthost
