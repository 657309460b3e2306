// The script-source rule: one table of root-relative paths and what they are.

#include "support/script_source_cases.hpp"
#include "watcher/path_filter.hpp"
#include "watcher/script_source_rule.hpp"

#include <doctest/doctest.h>
#include <string_view>

using namespace scripthost::watcher;
using scripthost::watcher::test::scriptSourceCases;

TEST_SUITE("script source rule") {
    TEST_CASE("the table of paths") {
        for (const auto& c : scriptSourceCases) {
            INFO(c.path, ": ", c.why);
            CHECK(isScriptSource(c.path) == c.isSource);
            CHECK(PathFilter::scriptSources().acceptsFile(c.path) == c.isSource);
        }
    }

    TEST_CASE("paths that are not below the root are never sources") {
        CHECK_FALSE(isScriptSource(""));
        CHECK_FALSE(isScriptSource("."));
        CHECK_FALSE(isScriptSource("/abs/Player.cs"));
        CHECK_FALSE(isScriptSource("../Player.cs"));
        CHECK_FALSE(isScriptSource("Game/../../Player.cs"));
        CHECK(isScriptSource("./Game/Player.cs")); // "." components are ignored
    }

    TEST_CASE("folders worth descending into") {
        for (const std::string_view folder : {"", ".", "Game", "Game/AI", "binary", "Bin"}) {
            INFO(folder);
            CHECK(isScriptFolder(folder));
            CHECK(PathFilter::scriptSources().acceptsDirectory(folder));
        }
        for (const std::string_view folder : {"bin", "obj", "Game/obj", "Game/bin/Debug", ".git",
                                              ".vscode", "Game/.cache", "/abs", ".."}) {
            INFO(folder);
            CHECK_FALSE(isScriptFolder(folder));
            CHECK_FALSE(PathFilter::scriptSources().acceptsDirectory(folder));
        }
    }

    TEST_CASE("editor temporary files") {
        for (const std::string_view name :
             {".#x.cs", "#x.cs#", "x.cs~", ".x.cs.swp", "x.swn", "4913", "5036", "5159"}) {
            INFO(name);
            CHECK(isEditorTempFile(name));
        }
        for (const std::string_view name :
             {"x.cs", "#", "x.swift", "4912", "4914", "1234", "x.sw", "x#"}) {
            INFO(name);
            CHECK_FALSE(isEditorTempFile(name));
        }
    }
}

TEST_CASE("assembly definition files are watched under the script folder rules, and are not "
          "script sources") {
    CHECK(isAssemblyDefinitionFile("Core/Core.asmdef"));
    CHECK(isAssemblyDefinitionFile("Core/Core.ASMDEF"));
    CHECK(isAssemblyDefinitionFile("Ext/Ext.asmref"));
    CHECK(isAssemblyDefinitionFile("Core/Core.asmdef.meta"));
    CHECK_FALSE(isAssemblyDefinitionFile("Core/Core.cs.meta"));
    CHECK_FALSE(isAssemblyDefinitionFile("Core/Core.asmdef~"));   // an editor's backup
    CHECK_FALSE(isAssemblyDefinitionFile("obj/Core.asmdef"));     // build output
    CHECK_FALSE(isAssemblyDefinitionFile(".hidden/Core.asmdef")); // hidden folder
    CHECK_FALSE(isAssemblyDefinitionFile("../Core.asmdef"));      // not below the root
    CHECK_FALSE(isScriptSource("Core/Core.asmdef"));
}

TEST_CASE("precompiled assemblies (plugin .dll files) and their .meta are watched under the "
          "script folder rules, and are neither sources nor definitions") {
    CHECK(isPrecompiledAssemblyFile("Plugins/Newtonsoft.Json.dll"));
    CHECK(isPrecompiledAssemblyFile("Plugins/Tween.DLL"));
    CHECK(isPrecompiledAssemblyFile("Plugins/Tween.dll.meta"));
    CHECK(isPrecompiledAssemblyFile("Tween.dll"));
    CHECK_FALSE(isPrecompiledAssemblyFile("Plugins/Tween.dll.mdb")); // symbols: read with it
    CHECK_FALSE(isPrecompiledAssemblyFile("Plugins/libnative.so"));  // not managed
    CHECK_FALSE(isPrecompiledAssemblyFile("bin/Game/Game.dll"));     // an editor's build output
    CHECK_FALSE(isPrecompiledAssemblyFile("obj/Game/Game.dll"));     // and its intermediates
    CHECK_FALSE(isPrecompiledAssemblyFile(".cache/Tween.dll"));      // hidden folder
    CHECK_FALSE(isPrecompiledAssemblyFile("Plugins/.dll"));          // hidden, no name
    CHECK_FALSE(isPrecompiledAssemblyFile("Plugins/Tween.dll~"));    // an editor's backup
    CHECK_FALSE(isPrecompiledAssemblyFile("../Plugins/Tween.dll"));  // not below the root
    CHECK_FALSE(isScriptSource("Plugins/Tween.dll"));
    CHECK_FALSE(isAssemblyDefinitionFile("Plugins/Tween.dll"));
}
