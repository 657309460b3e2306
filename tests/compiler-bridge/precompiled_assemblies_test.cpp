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
    PrecompiledAssembly found = readPrecompiledAssembly(tween);
    CHECK(found.name == "Tween");
    CHECK(found.file == tween);
    CHECK(found.autoReferenced); // no .meta: Unity's default

    writeFile(dir / "Tween.dll.meta", pluginMeta(true));
    CHECK_FALSE(readPrecompiledAssembly(tween).autoReferenced);
    writeFile(dir / "Tween.dll.meta", pluginMeta(true, "\r\n")); // written on Windows
    CHECK_FALSE(readPrecompiledAssembly(tween).autoReferenced);
    writeFile(dir / "Tween.dll.meta", pluginMeta(false));
    CHECK(readPrecompiledAssembly(tween).autoReferenced);
    writeFile(dir / "Tween.dll.meta", "isExplicitlyReferenced:   1  \n");
    CHECK(readMetaExplicitlyReferenced(dir / "Tween.dll.meta"));
    CHECK_FALSE(readMetaExplicitlyReferenced(dir / "Missing.dll.meta"));
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
