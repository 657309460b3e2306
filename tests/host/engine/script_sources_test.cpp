// collectScriptSources: the C# files of a project, as the watcher sees them, with a clear
// error for every folder that cannot give any.
#include "../../support/test_support.hpp"
#include "host/engine/script_sources.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;

TEST_CASE("collectScriptSources: every script source of every folder, absolute, sorted, once") {
    TempDir dir("script-sources");
    writeFile(dir / "a/Player.cs", "");
    writeFile(dir / "a/sub/Enemy.CS", "");
    writeFile(dir / "a/obj/Generated.cs", "");   // build output: never a source
    writeFile(dir / "a/.git/Hook.cs", "");       // hidden folder
    writeFile(dir / "a/notes.txt", "");
    writeFile(dir / "b/Zone.cs", "");

    const fs::path cwd = fs::current_path();
    fs::current_path(dir.path());
    auto found = collectScriptSources({"b", "a", dir / "a"}); // relative, and "a" twice
    fs::current_path(cwd);
    REQUIRE(found);
    const std::vector<fs::path> expected{dir / "a/Player.cs", dir / "a/sub/Enemy.CS",
                                         dir / "b/Zone.cs"};
    CHECK(*found == expected);
    for (const fs::path& p : *found)
        CHECK(p.is_absolute());
}

TEST_CASE("collectScriptSources: no folder, a missing one, a file, or one without sources is an "
          "error naming it") {
    TempDir dir("script-sources-bad");
    writeFile(dir / "file.cs", "");
    writeFile(dir / "empty/readme.md", "");
    writeFile(dir / "good/A.cs", "");

    CHECK(collectScriptSources({}).error().message == "no script folder given");
    CHECK(collectScriptSources({dir / "good", dir / "missing"}).error().message ==
          "script folder " + (dir / "missing").string() + " does not exist");
    CHECK(collectScriptSources({dir / "file.cs"}).error().message ==
          (dir / "file.cs").string() + " is not a folder");
    CHECK(collectScriptSources({dir / "empty"}).error().message ==
          "no .cs files under " + (dir / "empty").string());
}
