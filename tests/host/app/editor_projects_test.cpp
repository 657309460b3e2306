// Editor projects: one .csproj per script assembly with its sources, its references and
// ScriptCore, and a .sln naming them all, from a layout read off real temp folders; written only
// when their text changed, and found again by their mark.
#include "../../support/test_support.hpp"
#include "editor_projects.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <regex>
#include <set>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;

namespace {

const ProjectFile& fileAt(const std::vector<ProjectFile>& files, const std::string& path) {
    auto it = std::ranges::find_if(files, [&](const ProjectFile& f) { return f.path == path; });
    REQUIRE_MESSAGE(it != files.end(), path);
    return *it;
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Core (unsafe, root namespace Game.Core), Leaf (references Core, its folder named with
/// MSBuild's special characters) and loose scripts of the default assembly, under
/// `dir`/scripts.
compiler::AssemblyLayout threeAssemblies(const TempDir& dir) {
    writeFile(dir / "scripts/Core/Core.asmdef",
              R"({"name": "Core", "allowUnsafeCode": true, "rootNamespace": "Game.Core"})");
    writeFile(dir / "scripts/Core/Health.cs", "public class Health {}");
    writeFile(dir / "scripts/a&b;c/Leaf.asmdef", R"({"name": "Leaf", "references": ["Core"]})");
    writeFile(dir / "scripts/a&b;c/Player.cs", "public class Player {}");
    writeFile(dir / "scripts/Main.cs", "public class Main {}");
    auto layout = compiler::readAssemblyLayout({dir / "scripts"});
    REQUIRE_MESSAGE(layout, (layout ? "" : layout.error().message));
    return std::move(*layout);
}

} // namespace

TEST_CASE("editorProjects: one project per assembly with exactly its sources, a project "
          "reference per assembly it references, ScriptCore, and unsafe code and the root "
          "namespace as its definition says") {
    TempDir dir("editor-projects");
    const auto files =
        editorProjects(threeAssemblies(dir), dir.path(), "Game", "/opt/sh/ScriptCore.dll");
    REQUIRE(files.size() == 4);

    const std::string core = fileAt(files, "Core.csproj").text;
    CHECK(has(core, "<Compile Include=\"scripts/Core/Health.cs\" />"));
    CHECK_FALSE(has(core, "Player.cs"));
    CHECK_FALSE(has(core, "<ProjectReference"));
    CHECK(has(core, "<AllowUnsafeBlocks>true</AllowUnsafeBlocks>"));
    CHECK(has(core, "<AssemblyName>Core</AssemblyName>"));
    CHECK(has(core, "<RootNamespace>Game.Core</RootNamespace>"));
    CHECK(has(core, "<LangVersion>7.2</LangVersion>"));
    CHECK(has(core, "<HintPath>/opt/sh/ScriptCore.dll</HintPath>"));
    // Several projects in one folder: each restores and builds into a folder of its own.
    CHECK(has(core, "<BaseIntermediateOutputPath>obj/Core/</BaseIntermediateOutputPath>"));

    const std::string leaf = fileAt(files, "Leaf.csproj").text;
    CHECK_MESSAGE(has(leaf, "<Compile Include=\"scripts/a&amp;b%3Bc/Player.cs\" />"), leaf);
    CHECK(has(leaf, "<ProjectReference Include=\"Core.csproj\" />"));
    CHECK(has(leaf, "<AllowUnsafeBlocks>false</AllowUnsafeBlocks>"));
    CHECK(has(leaf, "<RootNamespace>Leaf</RootNamespace>")); // none given: its name

    const std::string scripts = fileAt(files, "Scripts.csproj").text;
    CHECK(has(scripts, "<Compile Include=\"scripts/Main.cs\" />"));
    CHECK(has(scripts, "<ProjectReference Include=\"Core.csproj\" />"));
    CHECK(has(scripts, "<ProjectReference Include=\"Leaf.csproj\" />"));
}

TEST_CASE("editorProjects: a plugin .dll is a reference of each project built against it, by its "
          "path from the project folder") {
    TempDir dir("editor-projects-plugins");
    // Any managed assembly's bytes make a plugin.
    const std::string managed = readFile(SCRIPTHOST_SCRIPTCORE_DLL);
    writeFile(dir / "scripts/Plugins/Tween.dll", managed);
    writeFile(dir / "scripts/Plugins/Json.dll", managed);
    writeFile(dir / "scripts/Plugins/Json.dll.meta",
              "PluginImporter:\n  isExplicitlyReferenced: 1\n");
    // Core sees Json alone; Leaf sees Tween, and Json through Core (mcs is given both).
    writeFile(dir / "scripts/Core/Core.asmdef",
              R"({"name": "Core", "overrideReferences": true,
                  "precompiledReferences": ["Json.dll"]})");
    writeFile(dir / "scripts/Core/Health.cs", "public class Health {}");
    writeFile(dir / "scripts/Leaf/Leaf.asmdef", R"({"name": "Leaf", "references": ["Core"]})");
    writeFile(dir / "scripts/Leaf/Player.cs", "public class Player {}");
    auto layout = compiler::readAssemblyLayout({dir / "scripts"});
    REQUIRE_MESSAGE(layout, (layout ? "" : layout.error().message));
    const auto files = editorProjects(*layout, dir.path(), "Game", "/opt/sh/ScriptCore.dll");
    const std::string tween = "<Reference Include=\"Tween\">\n"
                              "      <HintPath>scripts/Plugins/Tween.dll</HintPath>";
    const std::string json = "<Reference Include=\"Json\">\n"
                             "      <HintPath>scripts/Plugins/Json.dll</HintPath>";
    const std::string core = fileAt(files, "Core.csproj").text;
    CHECK_MESSAGE(has(core, json), core);
    CHECK_FALSE(has(core, "Tween"));
    const std::string leaf = fileAt(files, "Leaf.csproj").text;
    CHECK_MESSAGE(has(leaf, tween), leaf);
    CHECK(has(leaf, json));
}

TEST_CASE("editorProjects: the solution names every project once, each with a GUID of its own "
          "that a rewrite keeps") {
    TempDir dir("editor-solution");
    const compiler::AssemblyLayout layout = threeAssemblies(dir);
    const std::string sln =
        fileAt(editorProjects(layout, dir.path(), "Game", "/sc.dll"), "Game.sln").text;
    const std::regex project(
        R"re(Project\("\{[0-9A-F-]+\}"\) = "(\w+)", "(\w+)\.csproj", "(\{[0-9A-F-]{36}\})")re");
    std::set<std::string> names, guids;
    for (auto it = std::sregex_iterator(sln.begin(), sln.end(), project);
         it != std::sregex_iterator(); ++it) {
        CHECK((*it)[1] == (*it)[2]);
        names.insert((*it)[1]);
        guids.insert((*it)[3]);
    }
    CHECK(names == std::set<std::string>{"Core", "Leaf", "Scripts"});
    CHECK(guids.size() == 3);
    for (const std::string& guid : guids)
        CHECK(has(sln, guid + ".Debug|Any CPU.ActiveCfg"));
    CHECK(sln == fileAt(editorProjects(layout, dir.path(), "Game", "/sc.dll"), "Game.sln").text);
}

TEST_CASE("writeEditorProjects: writes what changed only, removes the project of an assembly "
          "that is gone, and its solution is found by its mark (one someone else wrote is not)") {
    TempDir dir("editor-write");
    const compiler::AssemblyLayout layout = threeAssemblies(dir);
    CHECK(generatedSolutionIn(dir.path()).empty());
    writeFile(dir / "Theirs.sln", "Microsoft Visual Studio Solution File, Format Version 12.00\n");
    CHECK(generatedSolutionIn(dir.path()).empty());

    auto first = writeEditorProjects(layout, dir.path(), "Game", "/sc.dll");
    REQUIRE(first);
    CHECK(*first == 4);
    CHECK(generatedSolutionIn(dir.path()) == "Game");
    auto again = writeEditorProjects(layout, dir.path(), "Game", "/sc.dll");
    REQUIRE(again);
    CHECK(*again == 0);

    writeFile(dir / "scripts/Core/Armor.cs", "public class Armor {}");
    auto grown = compiler::readAssemblyLayout({dir / "scripts"});
    REQUIRE(grown);
    auto written = writeEditorProjects(*grown, dir.path(), "Game", "/sc.dll");
    REQUIRE(written);
    CHECK(*written == 1); // Core.csproj only
    CHECK(has(readFile(dir / "Core.csproj"), "scripts/Core/Armor.cs"));

    // Leaf's definition removed: its sources join the default assembly, its project goes; a
    // project someone else wrote stays.
    writeFile(dir / "Tool.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\" />\n");
    fs::remove(dir / "scripts/a&b;c/Leaf.asmdef");
    auto shrunk = compiler::readAssemblyLayout({dir / "scripts"});
    REQUIRE(shrunk);
    REQUIRE(writeEditorProjects(*shrunk, dir.path(), "Game", "/sc.dll"));
    CHECK_FALSE(fs::exists(dir / "Leaf.csproj"));
    CHECK(fs::exists(dir / "Tool.csproj"));
    CHECK(has(readFile(dir / "Scripts.csproj"), "Player.cs"));
    CHECK_FALSE(has(readFile(dir / "Game.sln"), "Leaf.csproj"));
}

TEST_CASE("withGeneratedCopies: a generated source of the build folder is copied into the "
          "projects' obj/ and named there, and copied again only when its text changed") {
    TempDir dir("editor-projects-generated");
    compiler::AssemblyLayout layout = threeAssemblies(dir);
    const fs::path proxies = dir / "build/native-proxies/NativeScripts.g.cs";
    writeFile(proxies, "namespace Native { public class Spinner {} }");
    compiler::ScriptAssembly native;
    native.name = "NativeScripts";
    native.sources = {proxies};
    layout.assemblies.insert(layout.assemblies.begin(), native);
    const fs::path projects = dir / "project";
    fs::create_directories(projects);

    auto copied = withGeneratedCopies(layout, projects, {proxies});
    REQUIRE_MESSAGE(copied, (copied ? "" : copied.error().message));
    const fs::path copy = projects / "obj/NativeScripts/NativeScripts.g.cs";
    CHECK(copied->assemblies[0].sources == std::vector<fs::path>{copy});
    CHECK(readFile(copy) == "namespace Native { public class Spinner {} }");
    CHECK(copied->assemblies[1].sources == layout.assemblies[1].sources); // the others as they are
    const std::string project =
        fileAt(editorProjects(*copied, projects, "Game", dir / "ScriptCore.dll"),
               "NativeScripts.csproj")
            .text;
    CHECK(has(project, R"(<Compile Include="obj/NativeScripts/NativeScripts.g.cs" />)"));

    const auto written = fs::last_write_time(copy);
    REQUIRE(withGeneratedCopies(layout, projects, {proxies}));
    CHECK(fs::last_write_time(copy) == written); // the same text: not touched
    writeFile(proxies, "namespace Native { public class Spinner { public int turns; } }");
    REQUIRE(withGeneratedCopies(layout, projects, {proxies}));
    CHECK(readFile(copy) == "namespace Native { public class Spinner { public int turns; } }");
}
