// Precompiled assemblies (plugin .dll files): what their .meta says, the Editor folder rule, and
// what an assembly definition references of them.
#include "compiler_test_support.hpp"
#include "layout_test_support.hpp"
#include "precompiled_assemblies.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;
namespace fs = std::filesystem;

namespace {

using Names = std::vector<std::string>;

/// The importer settings Unity writes beside a plugin, Auto Reference on or off.
std::string pluginMeta(bool explicitlyReferenced, const std::string& lineEnd = "\n") {
    return "fileFormatVersion: 2" + lineEnd + "guid: 0a1b2c3d4e5f60718293a4b5c6d7e8f9" + lineEnd +
           "PluginImporter:" + lineEnd + "  externalObjects: {}" + lineEnd +
           "  serializedVersion: 2" + lineEnd + "  defineConstraints: []" + lineEnd +
           "  isPreloaded: 0" + lineEnd + "  isOverridable: 0" + lineEnd +
           "  isExplicitlyReferenced: " + (explicitlyReferenced ? "1" : "0") + lineEnd +
           "  validateReferences: 1" + lineEnd + "  platformData:" + lineEnd;
}

PrecompiledAssembly plugin(const std::string& name, bool autoReferenced = true) {
    return {name, "/p/Plugins/" + name + ".dll", autoReferenced};
}

AssemblyDefinition overriding(std::vector<std::string> listed) {
    AssemblyDefinition definition;
    definition.file = "/p/Game/Game.asmdef";
    definition.name = "Game";
    definition.overrideReferences = true;
    definition.precompiledReferences = std::move(listed);
    return definition;
}

} // namespace

TEST_CASE("precompiled assembly: named after its file, auto-referenced unless its .meta says "
          "isExplicitlyReferenced: 1") {
    TempDir dir("precompiled-meta");
    const fs::path tween = dir / "Tween.dll";
    writeFile(tween, "not read here");
    PluginFile found = readPluginFile(tween);
    CHECK(found.assembly.name == "Tween");
    CHECK(found.assembly.file == tween);
    CHECK(found.assembly.autoReferenced); // no .meta: Unity's default
    CHECK(found.settings == PluginImportSettings{});
    CHECK(found.warnings.empty());

    writeFile(dir / "Tween.dll.meta", pluginMeta(true));
    CHECK_FALSE(readPluginFile(tween).assembly.autoReferenced);
    writeFile(dir / "Tween.dll.meta", pluginMeta(true, "\r\n")); // written on Windows
    CHECK_FALSE(readPluginFile(tween).assembly.autoReferenced);
    writeFile(dir / "Tween.dll.meta", pluginMeta(false));
    CHECK(readPluginFile(tween).assembly.autoReferenced);

    // A .meta that is not YAML: Unity's defaults, and the parser's word naming the file.
    writeFile(dir / "Tween.dll.meta", "PluginImporter: [\n");
    found = readPluginFile(tween);
    CHECK(found.assembly.autoReferenced);
    REQUIRE(found.warnings.size() == 1);
    CHECK(found.warnings[0].starts_with((dir / "Tween.dll.meta").string() + ":2:1: not YAML"));
}

TEST_CASE("precompiled assembly: left out for the editor only, for players only, or by its "
          "define constraints") {
    PluginFile tween;
    tween.assembly = plugin("Tween");
    CHECK_FALSE(pluginLeftOut(tween, {}));

    tween.settings.platforms = {{"Editor", "Editor", true, {}}, {"Standalone", "Win64", false, {}}};
    auto leftOut = pluginLeftOut(tween, {});
    REQUIRE(leftOut);
    CHECK(leftOut->editorOnly);
    CHECK(leftOut->reason == "for the Editor only");
    CHECK(leftOut->assembly == tween.assembly);

    tween.settings.platforms = {{"Editor", "Editor", false, {}}, {"Standalone", "Win64", true, {}}};
    leftOut = pluginLeftOut(tween, {});
    REQUIRE(leftOut);
    CHECK_FALSE(leftOut->editorOnly);
    CHECK(leftOut->reason == "not for the Editor (scripts run here as in Unity's play mode): its "
                             ".meta enables it for Win64");

    tween.settings.platforms = {{"", "Any", true, {}}};
    tween.settings.defineConstraints = {"TWEEN_ENABLED", "!NO_TWEEN"};
    leftOut = pluginLeftOut(tween, {});
    REQUIRE(leftOut);
    CHECK_FALSE(leftOut->editorOnly);
    CHECK(leftOut->reason ==
          "its defineConstraints \"TWEEN_ENABLED\" do not hold with no symbol defined");
    CHECK_FALSE(pluginLeftOut(tween, {"TWEEN_ENABLED"}));
    leftOut = pluginLeftOut(tween, {"TWEEN_ENABLED", "NO_TWEEN"});
    REQUIRE(leftOut);
    CHECK(leftOut->reason == "its defineConstraints \"!NO_TWEEN\" do not hold with the symbols "
                             "TWEEN_ENABLED, NO_TWEEN");
}

TEST_CASE("precompiled assembly: a managed assembly is a PE image with a CLI header, a native "
          "plugin, a file cut short or not PE at all is not") {
    TempDir dir("precompiled-managed");
    const std::string managed = scripthost::testing::layout::managedAssemblyBytes();
    writeFile(dir / "Managed.dll", managed);
    CHECK(isManagedAssembly(dir / "Managed.dll"));

    // The same image without its CLI header (the 15th data directory of the PE32 optional
    // header, after the "PE\0\0" signature and the 20-byte COFF header): a native library.
    auto u32 = [&](std::size_t at) {
        return static_cast<std::size_t>(static_cast<unsigned char>(managed[at])) |
               static_cast<std::size_t>(static_cast<unsigned char>(managed[at + 1])) << 8 |
               static_cast<std::size_t>(static_cast<unsigned char>(managed[at + 2])) << 16 |
               static_cast<std::size_t>(static_cast<unsigned char>(managed[at + 3])) << 24;
    };
    const std::size_t optional = u32(0x3c) + 4 + 20;
    REQUIRE(managed.substr(optional, 2) == std::string("\x0b\x01", 2)); // PE32, as mcs writes
    const std::size_t cli = optional + 96 + 14 * 8;
    REQUIRE(u32(cli) != 0);
    std::string native = managed;
    native.replace(cli, 8, 8, '\0');
    writeFile(dir / "Native.dll", native);
    CHECK_FALSE(isManagedAssembly(dir / "Native.dll"));

    writeFile(dir / "Short.dll", managed.substr(0, optional + 40)); // cut before its directories
    CHECK_FALSE(isManagedAssembly(dir / "Short.dll"));
    writeFile(dir / "Text.dll", "not an image at all");
    CHECK_FALSE(isManagedAssembly(dir / "Text.dll"));
    writeFile(dir / "Mz.dll", "MZ");
    CHECK_FALSE(isManagedAssembly(dir / "Mz.dll"));
    std::string farPe = managed.substr(0, 64); // its "PE" pointer past the end
    farPe[0x3c] = '\xff';
    farPe[0x3f] = '\x7f';
    writeFile(dir / "Far.dll", farPe);
    CHECK_FALSE(isManagedAssembly(dir / "Far.dll"));
    CHECK_FALSE(isManagedAssembly(dir / "Missing.dll"));
}

TEST_CASE("precompiled assembly: one under a folder named Editor is the editor's") {
    CHECK(inEditorFolder("Editor/Tool.dll"));
    CHECK(inEditorFolder("Plugins/Editor/Tool.dll"));
    CHECK_FALSE(inEditorFolder("Plugins/Tool.dll"));
    CHECK_FALSE(inEditorFolder("Editors/Tool.dll"));
    CHECK_FALSE(inEditorFolder("editor/Tool.dll")); // exact case, as Unity's rule
    CHECK_FALSE(inEditorFolder("Editor.dll"));      // a file, not a folder
}

TEST_CASE("precompiled references: every auto-referenced one, unless the definition overrides "
          "its references") {
    const std::vector<PrecompiledAssembly> found{plugin("Tween"), plugin("Json"),
                                                 plugin("Hidden", false)};
    CHECK(autoReferencedPrecompiled(found) == Names{"Json", "Tween"});

    AssemblyDefinition plain;
    plain.name = "Game";
    plain.precompiledReferences = {"Hidden.dll"}; // without overrideReferences: not used
    PrecompiledReferences refs = precompiledReferencesOf(plain, found);
    CHECK(refs.names == Names{"Json", "Tween"});
    CHECK(refs.missing.empty());

    // Overridden: only what it lists (the explicitly referenced one too), by file name, without
    // case, each once.
    refs = precompiledReferencesOf(overriding({"hidden.DLL", "Tween.dll", "Tween.dll"}), found);
    CHECK(refs.names == Names{"Hidden", "Tween"});
    CHECK(refs.missing.empty());
    refs = precompiledReferencesOf(overriding({}), found);
    CHECK(refs.names.empty());
    refs = precompiledReferencesOf(overriding({"Json.dll", "nunit.framework.dll", "Tween"}), found);
    CHECK(refs.names == Names{"Json"});
    CHECK(refs.missing == Names{"nunit.framework.dll", "Tween"}); // a file name, with .dll
}

TEST_CASE("precompiled references: an entry naming a plugin that is left out is not missing: it "
          "is not referenced, and said why") {
    const std::vector<PrecompiledAssembly> found{plugin("Json")};
    const std::vector<PluginLeftOut> leftOut{{plugin("Tools"), true, "for the Editor only"},
                                             {plugin("Json"), false, "not for the Editor"}};
    const PrecompiledReferences refs =
        precompiledReferencesOf(overriding({"tools.dll", "Json.dll", "Gone.dll"}), found, leftOut);
    CHECK(refs.names == Names{"Json"}); // a used plugin of the name wins over a left-out one
    CHECK(refs.missing == Names{"Gone.dll"});
    CHECK(refs.leftOut == Names{"tools.dll, which is not used: for the Editor only"});
}

TEST_CASE("assembly layout: plugins left out by their .meta are not referenced or loaded, and "
          "Unity's per-platform builds of one plugin are not two of a name") {
    using namespace scripthost::testing::layout;
    TempDir dir("precompiled-layout-meta");
    const fs::path root = dir.path();
    const std::string platformData = "PluginImporter:\n  platformData:\n";
    auto entry = [](const std::string& group, const std::string& name, bool enabled) {
        return "  - first:\n      " + group + ": " + name +
               "\n    second:\n      enabled: " + (enabled ? "1" : "0") + "\n";
    };
    plugin(root / "Plugins" / "Tools.dll"); // Unity's editor tooling, outside an Editor folder
    writeFile(root / "Plugins" / "Tools.dll.meta", platformData + entry("Editor", "Editor", true) +
                                                       entry("Standalone", "Linux64", false));
    plugin(root / "Plugins" / "Win" / "Native.dll"); // one plugin, built per platform
    writeFile(root / "Plugins" / "Win" / "Native.dll.meta",
              platformData + entry("Editor", "Editor", false) + entry("Standalone", "Win64", true));
    plugin(root / "Plugins" / "Linux" / "Native.dll");
    writeFile(root / "Plugins" / "Linux" / "Native.dll.meta",
              platformData + entry("Editor", "Editor", true) +
                  entry("Standalone", "Linux64", true));
    plugin(root / "Plugins" / "Tween.dll");
    writeFile(root / "Plugins" / "Tween.dll.meta",
              "PluginImporter:\n  defineConstraints:\n  - TWEEN_ENABLED\n");
    const fs::path game = asmdef(root / "Game", "Game",
                                 ",\n  \"overrideReferences\": true, \"precompiledReferences\": "
                                 "[\"Tools.dll\", \"Native.dll\"]");
    source(root / "Game" / "Player.cs");
    source(root / "Main.cs");

    const AssemblyLayout layout = layoutOf({root});
    REQUIRE(layout.precompiled.size() == 1);
    CHECK(layout.precompiled[0].file == root / "Plugins" / "Linux" / "Native.dll");
    CHECK(layout.find("Game")->precompiledReferences == Names{"Native"});
    CHECK(layout.find("Scripts")->precompiledReferences == Names{"Native"});
    const Names expected{
        (root / "Plugins" / "Tween.dll").string() +
            ": not used: its defineConstraints \"TWEEN_ENABLED\" do not hold with no symbol "
            "defined",
        (root / "Plugins" / "Win" / "Native.dll").string() +
            ": not used: not for the Editor (scripts run here as in Unity's play mode): its "
            ".meta enables it for Win64",
        game.string() +
            ": precompiled reference Tools.dll, which is not used: for the Editor only"};
    CHECK(layout.warnings == expected); // the editor-only plugin alone says nothing of itself

    AssemblyLayoutOptions tweening;
    tweening.defines = {"TWEEN_ENABLED"};
    const AssemblyLayout defined = layoutOf({root}, tweening);
    REQUIRE(defined.precompiled.size() == 2);
    CHECK(defined.find("Scripts")->precompiledReferences == Names{"Native", "Tween"});
}
