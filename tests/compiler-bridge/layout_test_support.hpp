#pragma once
// What the assembly layout's tests share: sources, definitions and Unity's .meta files written
// into real temp folders, the layout read from them, and a small project of five assemblies.

#include "compiler_bridge/assembly_layout.hpp"
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_test_support.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <filesystem>
#include <string>
#include <vector>

namespace scripthost::testing::layout {

namespace fs = std::filesystem;
using namespace scripthost::compiler;

using Names = std::vector<std::string>;
using Paths = std::vector<fs::path>;

inline void source(const fs::path& path) {
    writeFile(path, "class " + path.stem().string() + " {}\n");
}

/// The bytes of a managed assembly: a library of one class, built once with the real mcs.
inline const std::string& managedAssemblyBytes() {
    static const std::string bytes = [] {
        TempDir dir("managed-bytes");
        writeFile(dir / "PluginType.cs", "public class PluginType {}\n");
        const compiler::CompileResult built =
            compiler::ColdCompiler().compile(libraryRequest(dir.path(), {dir / "PluginType.cs"}));
        REQUIRE_MESSAGE(built.success, describe(built));
        return readFile(built.output);
    }();
    return bytes;
}

/// A plugin at `file`: a managed assembly's bytes (its name is the file's).
inline void plugin(const fs::path& file) {
    writeFile(file, managedAssemblyBytes());
}

/// `<folder>/<name>.asmdef` with `fields` after the name (JSON, with its leading comma).
inline fs::path asmdef(const fs::path& folder, const std::string& name,
                       const std::string& fields = "") {
    const fs::path file = folder / (name + ".asmdef");
    writeFile(file, "{\n  \"name\": \"" + name + "\"" + fields + "\n}\n");
    return file;
}

/// Unity's .meta beside `definition`, with this GUID.
inline void meta(const fs::path& definition, const std::string& guid) {
    fs::path file = definition;
    file += ".meta";
    writeFile(file, "fileFormatVersion: 2\nguid: " + guid +
                        "\nAssemblyDefinitionImporter:\n"
                        "  externalObjects: {}\n  userData: \n");
}

inline AssemblyLayout layoutOf(const Paths& roots, const AssemblyLayoutOptions& options = {}) {
    auto layout = readAssemblyLayout(roots, options);
    REQUIRE_MESSAGE(layout, (layout ? "" : layout.error().message));
    return std::move(*layout);
}

inline std::string errorOf(const Paths& roots) {
    auto layout = readAssemblyLayout(roots);
    REQUIRE_MESSAGE(!layout, "the layout was read without an error");
    return layout.error().message;
}

inline Names names(const AssemblyLayout& layout) {
    Names out;
    for (const ScriptAssembly& assembly : layout.assemblies) {
        out.push_back(assembly.name);
    }
    return out;
}

inline std::size_t lineCount(const std::string& text) {
    return static_cast<std::size_t>(std::ranges::count(text, '\n')) + 1;
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Core <- Util, Core <- Game <- Ui (Util, Game, Ui auto-referenced; Core not), and loose
/// sources in the root for the default assembly.
struct Project {
    TempDir dir{"asm-layout"};
    fs::path root = dir.path();
    Project() {
        asmdef(root / "Core", "Core", ",\n  \"autoReferenced\": false");
        source(root / "Core" / "Math.cs");
        source(root / "Core" / "Sub" / "Log.cs");
        asmdef(root / "Util", "Util",
               ",\n  \"references\": [\"Core\"], \"rootNamespace\": \"My.Util\"");
        source(root / "Util" / "Strings.cs");
        asmdef(root / "Game", "Game", ",\n  \"references\": [\"Core\"], \"allowUnsafeCode\": true");
        source(root / "Game" / "Player.cs");
        asmdef(root / "Ui", "Ui", ",\n  \"references\": [\"Game\", \"Core\"]");
        source(root / "Ui" / "Hud.cs");
        source(root / "Main.cs");
        source(root / "Enemies" / "Orc.cs");
    }
};

} // namespace scripthost::testing::layout
