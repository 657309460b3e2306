// readAssemblyLayout and AssemblyLayout's queries, over real temp folders.
#include "compiler_bridge/assembly_layout.hpp"
#include "compiler_test_support.hpp"
#include "layout_test_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using namespace scripthost::testing::layout;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;
namespace fs = std::filesystem;

TEST_CASE("assembly layout: definitions, the default assembly and dependency order") {
    Project p;
    const AssemblyLayout layout = layoutOf({p.root});
    // Core first; of Game and Util (both ready after Core) Game comes first by name; Ui after
    // Game; the default assembly after every auto-referenced one.
    CHECK(names(layout) == Names{"Core", "Game", "Ui", "Util", "Scripts"});
    const ScriptAssembly* core = layout.find("Core");
    REQUIRE(core);
    CHECK(core->definition == p.root / "Core" / "Core.asmdef");
    CHECK(core->sources == Paths{p.root / "Core" / "Math.cs", p.root / "Core" / "Sub" / "Log.cs"});
    CHECK(core->references.empty());
    CHECK_FALSE(core->autoReferenced);
    CHECK(layout.find("Game")->allowUnsafeCode);
    CHECK_FALSE(layout.find("Util")->allowUnsafeCode);
    CHECK(layout.find("Util")->rootNamespace == "My.Util");
    CHECK(layout.find("Game")->rootNamespace.empty());
    CHECK(layout.find("Ui")->references == Names{"Game", "Core"});
    const ScriptAssembly* scripts = layout.find("Scripts");
    REQUIRE(scripts);
    CHECK(scripts->definition.empty());
    CHECK(scripts->sources == Paths{p.root / "Enemies" / "Orc.cs", p.root / "Main.cs"});
    // Every auto-referenced assembly, not Core.
    CHECK(scripts->references == Names{"Game", "Ui", "Util"});
    CHECK(layout.warnings.empty());
    CHECK(layout.skipped.empty());
    CHECK(layout.find("Nope") == nullptr);
}

TEST_CASE("assembly layout: the default assembly's name is an option, and absent without sources") {
    Project p;
    CHECK(layoutOf({p.root}, {.defaultAssembly = "Assembly-CSharp", .defines = {}})
              .find("Assembly-CSharp"));
    fs::remove(p.root / "Main.cs");
    fs::remove_all(p.root / "Enemies");
    CHECK(names(layoutOf({p.root})) == Names{"Core", "Game", "Ui", "Util"});
}

TEST_CASE("assembly layout: assemblyOf and dependentsOf") {
    Project p;
    const AssemblyLayout layout = layoutOf({p.root});
    CHECK(layout.assemblyOf(p.root / "Core" / "Sub" / "Log.cs") == layout.find("Core"));
    CHECK(layout.assemblyOf(p.root / "Core" / "Sub" / ".." / "Math.cs") == layout.find("Core"));
    CHECK(layout.assemblyOf(p.root / "Main.cs") == layout.find("Scripts"));
    CHECK(layout.assemblyOf(p.root / "Core" / "Other.cs") == nullptr);
    // Core: Game, Ui, Util directly, Scripts through them; in dependency order.
    CHECK(layout.dependentsOf("Core") == Names{"Game", "Ui", "Util", "Scripts"});
    CHECK(layout.dependentsOf("Game") == Names{"Ui", "Scripts"});
    CHECK(layout.dependentsOf("Scripts").empty());
    CHECK(layout.dependentsOf("Nope").empty());
}

TEST_CASE("assembly layout: the same files give the same layout") {
    Project p;
    const AssemblyLayout first = layoutOf({p.root});
    for (int i = 0; i < 5; ++i) {
        const AssemblyLayout again = layoutOf({p.root});
        CHECK(again.assemblies == first.assemblies);
        CHECK(again.warnings == first.warnings);
    }
}

TEST_CASE("assembly layout: GUID references resolve through the .meta files") {
    TempDir dir("asm-guid");
    meta(asmdef(dir / "Core", "Core"), "0a1b2c3d4e5f60718293a4b5c6d7e8f9");
    source(dir / "Core" / "A.cs");
    asmdef(dir / "Game", "Game",
           ",\n  \"references\": [\"GUID:0A1B2C3D4E5F60718293A4B5C6D7E8F9\"]");
    source(dir / "Game" / "B.cs");
    const AssemblyLayout layout = layoutOf({dir.path()});
    CHECK(names(layout) == Names{"Core", "Game"});
    CHECK(layout.find("Game")->references == Names{"Core"});
}

TEST_CASE("assembly layout: a missing GUID is a missing reference naming the file") {
    TempDir dir("asm-guid-missing");
    meta(asmdef(dir / "Core", "Core"), "0a1b2c3d4e5f60718293a4b5c6d7e8f9");
    const fs::path game = asmdef(
        dir / "Game", "Game", ",\n  \"references\": [\"GUID:ffffffffffffffffffffffffffffffff\"]");
    source(dir / "Game" / "B.cs");
    CHECK(errorOf({dir.path()}) == game.string() +
                                       ": missing reference: GUID:ffffffffffffffffffffffffffffffff "
                                       "(no .asmdef.meta has this guid)");
}

TEST_CASE("assembly layout: an .asmref's folder joins the assembly it names") {
    TempDir dir("asm-asmref");
    meta(asmdef(dir / "Core", "Core"), "0a1b2c3d4e5f60718293a4b5c6d7e8f9");
    source(dir / "Core" / "A.cs");
    writeFile(dir / "Extra" / "Extra.asmref", R"({"reference": "Core"})");
    source(dir / "Extra" / "B.cs");
    writeFile(dir / "More" / "More.asmref",
              R"({"reference": "GUID:0a1b2c3d4e5f60718293a4b5c6d7e8f9"})");
    source(dir / "More" / "Deep" / "C.cs");
    const AssemblyLayout layout = layoutOf({dir.path()});
    CHECK(names(layout) == Names{"Core"});
    const ScriptAssembly& core = layout.assemblies.front();
    CHECK(core.sources ==
          Paths{dir / "Core" / "A.cs", dir / "Extra" / "B.cs", dir / "More" / "Deep" / "C.cs"});
    CHECK(core.asmrefs == Paths{dir / "Extra" / "Extra.asmref", dir / "More" / "More.asmref"});
}

TEST_CASE("assembly layout: nested definitions, the nearest one wins") {
    TempDir dir("asm-nested");
    asmdef(dir / "Game", "Game");
    source(dir / "Game" / "A.cs");
    source(dir / "Game" / "Plain" / "B.cs");
    asmdef(dir / "Game" / "Ai", "Game.Ai", ",\n  \"references\": [\"Game\"]");
    source(dir / "Game" / "Ai" / "C.cs");
    source(dir / "Game" / "Ai" / "Deeper" / "D.cs");
    const AssemblyLayout layout = layoutOf({dir.path()});
    CHECK(names(layout) == Names{"Game", "Game.Ai"});
    CHECK(layout.find("Game")->sources ==
          Paths{dir / "Game" / "A.cs", dir / "Game" / "Plain" / "B.cs"});
    CHECK(layout.find("Game.Ai")->sources ==
          Paths{dir / "Game" / "Ai" / "C.cs", dir / "Game" / "Ai" / "Deeper" / "D.cs"});
}

TEST_CASE("assembly layout: Editor folders are skipped outside definitions, kept inside") {
    TempDir dir("asm-editor");
    source(dir / "Main.cs");
    source(dir / "Editor" / "Tool.cs");
    source(dir / "Deep" / "Editor" / "Sub" / "Tool2.cs");
    source(dir / "Editors" / "NotEditor.cs"); // only a folder named exactly Editor
    asmdef(dir / "Game", "Game");
    source(dir / "Game" / "Editor" / "GameTool.cs");     // part of Game, as in Unity
    asmdef(dir / "Deep" / "Editor" / "Own", "OwnTools"); // its own definition wins
    source(dir / "Deep" / "Editor" / "Own" / "Own.cs");
    const AssemblyLayout layout = layoutOf({dir.path()});
    CHECK(layout.find("Scripts")->sources ==
          Paths{dir / "Editors" / "NotEditor.cs", dir / "Main.cs"});
    CHECK(layout.find("Game")->sources == Paths{dir / "Game" / "Editor" / "GameTool.cs"});
    CHECK(layout.find("OwnTools")->sources == Paths{dir / "Deep" / "Editor" / "Own" / "Own.cs"});
    CHECK(layout.skipped ==
          Paths{dir / "Deep" / "Editor" / "Sub" / "Tool2.cs", dir / "Editor" / "Tool.cs"});
}

TEST_CASE("assembly layout: a root named Editor is not an Editor folder") {
    TempDir dir("asm-editor-root");
    source(dir / "Editor" / "Main.cs");
    const AssemblyLayout layout = layoutOf({dir / "Editor"});
    CHECK(names(layout) == Names{"Scripts"});
    CHECK(layout.skipped.empty());
}

TEST_CASE("assembly layout: an editor-only assembly and its .asmref folders are skipped") {
    TempDir dir("asm-editor-only");
    asmdef(dir / "Core", "Core");
    source(dir / "Core" / "A.cs");
    asmdef(
        dir / "Tools", "Tools",
        ",\n  \"includePlatforms\": [\"Editor\"], \"references\": [\"Core\", \"UnityEditor.UI\"],\n"
        "  \"overrideReferences\": true");
    source(dir / "Tools" / "T.cs");
    writeFile(dir / "MoreTools" / "MoreTools.asmref", R"({"reference": "Tools"})");
    source(dir / "MoreTools" / "U.cs");
    const AssemblyLayout layout = layoutOf({dir.path()});
    // Its reference to a Unity package assembly is not checked, nor are its fields: it is not
    // built.
    CHECK(names(layout) == Names{"Core"});
    CHECK(layout.warnings.empty());
    CHECK(layout.skipped == Paths{dir / "MoreTools" / "U.cs", dir / "Tools" / "T.cs"});
}

TEST_CASE("assembly layout: an assembly whose defineConstraints do not hold is left out, as a "
          "test assembly is without UNITY_INCLUDE_TESTS") {
    TempDir dir("asm-constraints");
    asmdef(dir / "Core", "Core");
    source(dir / "Core" / "A.cs");
    // A Unity play-mode test assembly, as Unity writes it.
    asmdef(dir / "Tests", "Game.Tests",
           ",\n  \"references\": [\"Core\", \"UnityEngine.TestRunner\"],\n"
           "  \"overrideReferences\": true, \"precompiledReferences\": [\"nunit.framework.dll\"],\n"
           "  \"defineConstraints\": [\"UNITY_INCLUDE_TESTS\"]");
    source(dir / "Tests" / "CoreTests.cs");
    writeFile(dir / "MoreTests" / "MoreTests.asmref", R"({"reference": "Game.Tests"})");
    source(dir / "MoreTests" / "More.cs");
    asmdef(dir / "Desktop", "Desktop", ",\n  \"defineConstraints\": [\"!UNITY_WEBGL\"]");
    asmdef(dir / "Odd", "Odd", ",\n  \"defineConstraints\": [\"A && B\"]");
    source(dir / "Odd" / "O.cs");
    source(dir / "Desktop" / "D.cs");
    asmdef(dir / "Game", "Game", ",\n  \"references\": [\"Core\", \"Game.Tests\"]");
    source(dir / "Game" / "G.cs");
    source(dir / "Loose.cs");

    const AssemblyLayout layout = layoutOf({dir.path()});
    // Its references to Unity's test runner and to nunit.framework.dll (not in the folders) are
    // not checked, nor are its fields: it is not built.
    CHECK(names(layout) == Names{"Core", "Desktop", "Game", "Scripts"});
    CHECK(layout.skipped == Paths{dir / "MoreTests" / "More.cs", dir / "Odd" / "O.cs",
                                  dir / "Tests" / "CoreTests.cs"});
    CHECK(layout.find("Game")->references == Names{"Core"}); // valid, left out: not built
    CHECK(layout.find("Scripts")->references == Names{"Core", "Desktop", "Game"});
    const Names expected{
        (dir / "Game" / "Game.asmdef").string() + ": Game references Game.Tests (" +
            (dir / "Tests" / "Game.Tests.asmdef").string() +
            "), which its defineConstraints leave out",
        (dir / "Odd" / "Odd.asmdef").string() +
            ": assembly Odd is not built: its defineConstraints \"A && B\" (cannot be "
            "evaluated) do not hold with no symbol defined",
        (dir / "Tests" / "Game.Tests.asmdef").string() +
            ": assembly Game.Tests is not built: its defineConstraints \"UNITY_INCLUDE_TESTS\" do "
            "not hold with no symbol defined"};
    CHECK(layout.warnings == expected);

    // With the symbol defined, it is built like any other (its references checked too).
    asmdef(dir / "Tests", "Game.Tests",
           ",\n  \"references\": [\"Core\"], \"defineConstraints\": [\"UNITY_INCLUDE_TESTS\"]");
    AssemblyLayoutOptions withTests;
    withTests.defines = {"UNITY_INCLUDE_TESTS", "UNITY_WEBGL"};
    const AssemblyLayout built = layoutOf({dir.path()}, withTests);
    CHECK(names(built) == Names{"Core", "Game.Tests", "Game", "Scripts"});
    CHECK(built.find("Game.Tests")->sources ==
          Paths{dir / "MoreTests" / "More.cs", dir / "Tests" / "CoreTests.cs"});
    CHECK(built.find("Game")->references == Names{"Core", "Game.Tests"});
    CHECK(built.warnings.size() == 2);
    CHECK(built.warnings.front() ==
          (dir / "Desktop" / "Desktop.asmdef").string() +
              ": assembly Desktop is not built: its defineConstraints \"!UNITY_WEBGL\" do not "
              "hold with the symbols UNITY_INCLUDE_TESTS, UNITY_WEBGL");
}

TEST_CASE("assembly layout: a runtime assembly may not reference an editor-only one") {
    TempDir dir("asm-editor-ref");
    const fs::path tools =
        asmdef(dir / "Tools", "Tools", ",\n  \"includePlatforms\": [\"Editor\"]");
    const fs::path game = asmdef(dir / "Game", "Game", ",\n  \"references\": [\"Tools\"]");
    source(dir / "Game" / "A.cs");
    CHECK(errorOf({dir.path()}) == game.string() +
                                       ": the runtime assembly Game references the editor-only "
                                       "assembly Tools (" +
                                       tools.string() + ")");
}

TEST_CASE("assembly layout: a definition without sources is not built but may be referenced") {
    TempDir dir("asm-empty");
    const fs::path empty = asmdef(dir / "Empty", "Empty");
    asmdef(dir / "Game", "Game", ",\n  \"references\": [\"Empty\"]");
    source(dir / "Game" / "A.cs");
    source(dir / "Main.cs");
    const AssemblyLayout layout = layoutOf({dir.path()});
    CHECK(names(layout) == Names{"Game", "Scripts"});
    CHECK(layout.find("Game")->references.empty());
    CHECK(layout.find("Scripts")->references == Names{"Game"});
    CHECK(layout.warnings ==
          std::vector<std::string>{empty.string() +
                                   ": assembly Empty has no sources and is not built"});
}

TEST_CASE("assembly layout: unsupported .asmdef fields reach the layout's warnings") {
    TempDir dir("asm-warn");
    const fs::path game = asmdef(dir / "Game", "Game", ",\n  \"versionDefines\": [{}]");
    source(dir / "Game" / "A.cs");
    const AssemblyLayout layout = layoutOf({dir.path()});
    CHECK(layout.warnings == std::vector<std::string>{
                                 game.string() + ": \"versionDefines\" is not supported, ignored"});
}

TEST_CASE("assembly layout: several roots, each source's definition searched up to its root") {
    TempDir dir("asm-roots");
    asmdef(dir / "a", "Shared");
    source(dir / "a" / "scripts" / "A.cs");
    asmdef(dir / "b" / "lib", "Lib");
    source(dir / "b" / "lib" / "L.cs");
    source(dir / "b" / "Loose.cs");
    // The root a/scripts has no definition of its own: Shared, above it, is not read.
    const AssemblyLayout layout = layoutOf({dir / "b", dir / "a" / "scripts" / ""});
    CHECK(names(layout) == Names{"Lib", "Scripts"});
    CHECK(layout.find("Lib")->sources == Paths{dir / "b" / "lib" / "L.cs"});
    CHECK(layout.find("Scripts")->sources ==
          Paths{dir / "a" / "scripts" / "A.cs", dir / "b" / "Loose.cs"});
}

TEST_CASE("assembly layout: a reference cycle of two names both definitions") {
    TempDir dir("asm-cycle2");
    const fs::path a = asmdef(dir / "A", "A", ",\n  \"references\": [\"B\"]");
    const fs::path b = asmdef(dir / "B", "B", ",\n  \"references\": [\"A\"]");
    source(dir / "A" / "A.cs");
    source(dir / "B" / "B.cs");
    CHECK(errorOf({dir.path()}) ==
          "reference cycle: A (" + a.string() + ") -> B (" + b.string() + ") -> A");
}

TEST_CASE("assembly layout: a reference cycle of three, beside an assembly outside it") {
    TempDir dir("asm-cycle3");
    const fs::path a = asmdef(dir / "A", "A", ",\n  \"references\": [\"C\"]");
    const fs::path b = asmdef(dir / "B", "B", ",\n  \"references\": [\"A\"]");
    const fs::path c = asmdef(dir / "C", "C", ",\n  \"references\": [\"B\"]");
    asmdef(dir / "D", "D", ",\n  \"references\": [\"A\"]"); // depends on the cycle, not in it
    source(dir / "A" / "A.cs");
    CHECK(errorOf({dir.path()}) == "reference cycle: A (" + a.string() + ") -> C (" + c.string() +
                                       ") -> B (" + b.string() + ") -> A");
}

TEST_CASE("assembly layout: an assembly that references itself is a cycle") {
    TempDir dir("asm-cycle1");
    const fs::path a = asmdef(dir / "A", "A", ",\n  \"references\": [\"A\"]");
    CHECK(errorOf({dir.path()}) == "reference cycle: A (" + a.string() + ") -> A");
}

TEST_CASE("assembly layout: two definitions of one name name both files") {
    TempDir dir("asm-duplicate");
    const fs::path first = asmdef(dir / "One", "Game");
    const fs::path second = dir / "Two" / "Other.asmdef";
    writeFile(second, R"({"name": "Game"})");
    CHECK(errorOf({dir.path()}) ==
          "assembly Game is defined more than once: " + first.string() + " " + second.string());
}

TEST_CASE("assembly layout: a reference to a missing name names the file and the name") {
    TempDir dir("asm-missing");
    const fs::path game =
        asmdef(dir / "Game", "Game", ",\n  \"references\": [\"Unity.TextMeshPro\"]");
    CHECK(errorOf({dir.path()}) ==
          game.string() + ": missing reference: Unity.TextMeshPro (no .asmdef has this name)");
}

TEST_CASE("assembly layout: an .asmref to no definition is an error naming it") {
    TempDir dir("asm-asmref-missing");
    const fs::path asmref = dir / "Extra" / "Extra.asmref";
    writeFile(asmref, R"({"reference": "Nowhere"})");
    source(dir / "Extra" / "A.cs");
    CHECK(errorOf({dir.path()}) ==
          asmref.string() + ": missing reference: Nowhere (no .asmdef has this name)");
}

TEST_CASE("assembly layout: a definition may not take the default assembly's name") {
    TempDir dir("asm-default-name");
    const fs::path scripts = asmdef(dir / "S", "Scripts");
    CHECK(errorOf({dir.path()}) == scripts.string() +
                                       ": the name Scripts is the default assembly's (sources "
                                       "under no definition)");
    CHECK(readAssemblyLayout({dir.path()}, {.defaultAssembly = "Assembly-CSharp", .defines = {}}));
}

TEST_CASE("assembly layout: malformed JSON and two definition files in one folder") {
    TempDir dir("asm-malformed");
    const fs::path bad = dir / "Bad" / "Bad.asmdef";
    // A comma missing: nlohmann stops at the end of the next token, "references" (3:14).
    writeFile(bad, "{\n  \"name\": \"Bad\"\n  \"references\": []\n}\n");
    const fs::path one = asmdef(dir / "Two", "One");
    const fs::path two = dir / "Two" / "Two.asmref";
    writeFile(two, R"({"reference": "One"})");
    const std::string error = errorOf({dir.path()});
    CHECK(lineCount(error) == 2);
    CHECK_MESSAGE(contains(error, bad.string() + ":3:14: malformed JSON: "), error);
    CHECK_MESSAGE(contains(error, "more than one assembly definition file in " +
                                      (dir / "Two").string() + ": " + one.string() + ", " +
                                      two.string()),
                  error);
}

TEST_CASE("assembly layout: every problem is listed, one per line") {
    TempDir dir("asm-many");
    asmdef(dir / "A", "A", ",\n  \"references\": [\"B\", \"Missing\"]");
    asmdef(dir / "B", "B", ",\n  \"references\": [\"A\"]");
    asmdef(dir / "C", "C", ",\n  \"references\": [\"GUID:ffffffffffffffffffffffffffffffff\"]");
    asmdef(dir / "D", "Scripts");
    const std::string error = errorOf({dir.path()});
    CHECK_MESSAGE(lineCount(error) == 4, error);
    CHECK(contains(error, "missing reference: Missing"));
    CHECK(contains(error, "missing reference: GUID:ffffffffffffffffffffffffffffffff"));
    CHECK(contains(error, "reference cycle: A ("));
    CHECK(contains(error, "the name Scripts is the default assembly's"));
}

TEST_CASE("assembly layout: precompiled assemblies are found outside Editor/ and build output, "
          "and each assembly references the auto-referenced ones or those it lists") {
    TempDir dir("asm-precompiled");
    const fs::path root = dir.path();
    plugin(root / "Plugins" / "Tween.dll");
    plugin(root / "Plugins" / "Json.DLL");
    writeFile(root / "Plugins" / "Json.DLL.meta", "PluginImporter:\n  isExplicitlyReferenced: 1\n");
    plugin(root / "Plugins" / "Editor" / "Tool.dll"); // the editor's
    plugin(root / "bin" / "Game" / "Game.dll");       // an editor project's build
    asmdef(root / "Core", "Core",
           ",\n  \"overrideReferences\": true, \"precompiledReferences\": [\"json.dll\"]");
    source(root / "Core" / "Math.cs");
    asmdef(root / "Game", "Game", ",\n  \"references\": [\"Core\"]");
    source(root / "Game" / "Player.cs");
    source(root / "Main.cs");

    const AssemblyLayout layout = layoutOf({root, root / "Plugins"}); // found once
    REQUIRE(layout.precompiled.size() == 2);
    CHECK(layout.precompiled[0] ==
          PrecompiledAssembly{"Json", fs::path(root / "Plugins" / "Json.DLL"), false});
    CHECK(layout.precompiled[1] ==
          PrecompiledAssembly{"Tween", fs::path(root / "Plugins" / "Tween.dll"), true});
    CHECK(layout.findPrecompiled("Tween") == &layout.precompiled[1]);
    CHECK(layout.findPrecompiled("Tool") == nullptr);
    CHECK(layout.find("Core")->precompiledReferences == Names{"Json"});
    CHECK(layout.find("Game")->precompiledReferences == Names{"Tween"});
    CHECK(layout.find("Scripts")->precompiledReferences == Names{"Tween"});
    CHECK(layout.warnings.empty()); // overrideReferences and precompiledReferences are used

    // A native plugin (a Windows library in Unity's Plugins/x86_64/) is not used, with a word.
    writeFile(root / "Plugins" / "x86_64" / "steam_api64.dll", "MZ, and no CLI header");
    const AssemblyLayout withNative = layoutOf({root});
    CHECK(withNative.precompiled == layout.precompiled);
    CHECK(withNative.warnings == Names{(root / "Plugins" / "x86_64" / "steam_api64.dll").string() +
                                       ": not a managed assembly (a native plugin?): not used"});
}

TEST_CASE("assembly layout: a project of loose sources and a plugin references it") {
    TempDir dir("asm-precompiled-loose");
    plugin(dir / "Plugins" / "Tween.dll");
    source(dir / "Main.cs");
    const AssemblyLayout layout = layoutOf({dir.path()});
    CHECK(names(layout) == Names{"Scripts"});
    CHECK(layout.assemblies[0].definition.empty());
    CHECK(layout.assemblies[0].precompiledReferences == Names{"Tween"});
}

TEST_CASE("assembly layout: precompiled assemblies' errors name their files") {
    TempDir dir("asm-precompiled-errors");
    plugin(dir / "A" / "Tween.dll");
    plugin(dir / "B" / "Tween.dll");
    plugin(dir / "Plugins" / "Core.dll");    // named as a definition
    plugin(dir / "Plugins" / "Scripts.dll"); // named as the default assembly
    const fs::path core = asmdef(dir / "Core", "Core",
                                 ",\n  \"overrideReferences\": true, "
                                 "\"precompiledReferences\": [\"Missing.dll\", \"Tween.dll\"]");
    source(dir / "Core" / "Math.cs");
    // Left out by its constraints: what it lists is not checked.
    asmdef(dir / "Tests", "Tests",
           ",\n  \"overrideReferences\": true, \"precompiledReferences\": "
           "[\"nunit.framework.dll\"], \"defineConstraints\": [\"UNITY_INCLUDE_TESTS\"]");
    source(dir / "Tests" / "T.cs");
    const std::string error = errorOf({dir.path()});
    CHECK_MESSAGE(lineCount(error) == 4, error);
    CHECK(contains(error, "precompiled assembly Tween is found more than once: " +
                              (dir / "A" / "Tween.dll").string() + " " +
                              (dir / "B" / "Tween.dll").string()));
    CHECK(contains(error, (dir / "Plugins" / "Core.dll").string() +
                              ": the precompiled assembly Core has the name of Core (" +
                              core.string() + ")"));
    CHECK(contains(error, (dir / "Plugins" / "Scripts.dll").string() +
                              ": the name Scripts is the default assembly's"));
    CHECK(contains(error, core.string() + ": missing precompiled reference: Missing.dll"));
    CHECK_FALSE(contains(error, "nunit"));
}
