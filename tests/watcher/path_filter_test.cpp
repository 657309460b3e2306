#include "watcher/path_filter.hpp"

#include <doctest/doctest.h>

using scripthost::watcher::PathFilter;

TEST_SUITE("PathFilter") {
    TEST_CASE("default .cs filter with bin/ obj/ .git/ ignored") {
        const PathFilter filter({".cs"}, {"bin/", "obj/", ".git/"});
        CHECK(filter.acceptsFile("Player.cs"));
        CHECK(filter.acceptsFile("Scripts/AI/Enemy.cs"));
        CHECK(filter.acceptsFile("Upper.CS")); // extension match is case-insensitive
        CHECK_FALSE(filter.acceptsFile("notes.txt"));
        CHECK_FALSE(filter.acceptsFile("Player.cs.tmp"));
        CHECK_FALSE(filter.acceptsFile(".cs")); // no stem: not a C# file
        CHECK_FALSE(filter.acceptsFile("bin/x.cs"));
        CHECK_FALSE(filter.acceptsFile("Game/obj/Debug/Gen.cs")); // at any depth
        CHECK_FALSE(filter.acceptsFile(".git/hooks/x.cs"));
        CHECK_FALSE(filter.acceptsDirectory("bin"));
        CHECK_FALSE(filter.acceptsDirectory("Game/obj"));
        CHECK(filter.acceptsDirectory("Game/binary"));
        CHECK(filter.acceptsFile("bin.cs")); // "bin/" only matches folders
    }

    TEST_CASE("the script sources' filter takes sources, assembly definitions and plugins") {
        const PathFilter filter = PathFilter::scriptSources();
        CHECK(filter.acceptsFile("AI/Enemy.cs"));
        CHECK(filter.acceptsFile("AI/AI.asmdef"));
        CHECK(filter.acceptsFile("Plugins/Tween.dll"));
        CHECK(filter.acceptsFile("Plugins/Tween.dll.meta"));
        CHECK_FALSE(filter.acceptsFile("Plugins/Tween.xml"));
        CHECK_FALSE(filter.acceptsFile("bin/Game/Game.dll"));
        CHECK_FALSE(filter.acceptsDirectory("obj"));
    }

    TEST_CASE("editor artefacts are never reported unless asked") {
        const PathFilter filter({".cs"}, {});
        CHECK_FALSE(filter.acceptsFile(".#Player.cs")); // emacs lock link
        CHECK_FALSE(filter.acceptsFile("#Player.cs#")); // emacs autosave
        CHECK_FALSE(filter.acceptsFile("Player.cs~"));  // backup
        CHECK_FALSE(filter.acceptsFile("4913"));        // vim's write probe: no extension
        const PathFilter keepAll({".cs"}, {}, /*ignoreEditorArtifacts=*/false);
        CHECK(keepAll.acceptsFile(".#Player.cs"));
    }

    TEST_CASE("patterns without slash match any component, inner slash anchors at the root") {
        const PathFilter filter({"cs", ".csx"}, {"*.g.cs", "Generated/*/", "Temp"});
        CHECK(filter.acceptsFile("Script.csx")); // "cs" and ".cs" are equivalent forms
        CHECK_FALSE(filter.acceptsFile("Ui/Form.g.cs"));
        CHECK(filter.acceptsFile("Ui/Form.cs"));
        CHECK_FALSE(filter.acceptsFile("Temp"));
        CHECK_FALSE(filter.acceptsFile("Temp/a.cs"));
        CHECK_FALSE(filter.acceptsFile("Generated/Net/a.cs"));
        CHECK(filter.acceptsFile("Generated/a.cs"));           // the file itself is not a folder
        CHECK(filter.acceptsFile("Other/Generated/Net/a.cs")); // anchored: only at the root
        CHECK_FALSE(filter.acceptsDirectory("Generated/Net"));
    }

    TEST_CASE("an empty extension list accepts every file") {
        const PathFilter filter({}, {"obj/"});
        CHECK(filter.acceptsFile("README"));
        CHECK(filter.acceptsFile("a/b.json"));
        CHECK_FALSE(filter.acceptsFile("obj/a"));
    }
}
