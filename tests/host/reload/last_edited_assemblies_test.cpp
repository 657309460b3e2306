// lastEditedAssemblies: the assemblies whose sources were saved last, from the files' real
// modification times in a temp folder (set with last_write_time, as a checkout long ago and
// edits since would have left them).
#include "../../support/test_support.hpp"
#include "last_edited_assemblies.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

using Names = std::set<std::string>;

/// A layout of assemblies named as given, each with two sources in a temp folder, every
/// source modified an hour before `now`.
struct Project {
    TempDir dir{"last-edited"};
    compiler::AssemblyLayout layout;
    fs::file_time_type now = fs::file_time_type::clock::now();

    explicit Project(const std::vector<std::string>& names) {
        for (const std::string& name : names) {
            compiler::ScriptAssembly assembly;
            assembly.name = name;
            for (const char* file : {"A.cs", "B.cs"}) {
                const fs::path source = dir / (name + "/" + file);
                writeFile(source, "class C {}");
                fs::last_write_time(source, now - 1h);
                assembly.sources.push_back(source);
            }
            layout.assemblies.push_back(std::move(assembly));
        }
    }
    /// Marks `name`'s second source as saved `ago` before now.
    void saved(const std::string& name, fs::file_time_type::duration ago) {
        fs::last_write_time(dir / (name + "/B.cs"), now - ago);
    }
};

} // namespace

TEST_CASE("lastEditedAssemblies: nothing is singled out when every source is about as old, as "
          "after a checkout") {
    Project project({"Core", "LeafA", "LeafB", "LeafC"});
    CHECK(lastEditedAssemblies(project.layout, {}, 3, 10s).empty());
    project.saved("LeafB", 1h - 5s); // 5 s after the rest: within one checkout's time
    CHECK(lastEditedAssemblies(project.layout, {}, 3, 10s).empty());
}

TEST_CASE("lastEditedAssemblies: the assembly of the source saved last, when it was saved well "
          "after the rest") {
    Project project({"Core", "LeafA", "LeafB", "LeafC"});
    project.saved("LeafB", 2min);
    CHECK(lastEditedAssemblies(project.layout, {}, 3, 10s) == Names{"LeafB"});
    project.saved("Core", 1min); // then the core, later still
    CHECK(lastEditedAssemblies(project.layout, {}, 3, 10s) == Names{"Core", "LeafB"});
}

TEST_CASE("lastEditedAssemblies: edits close to each other are taken together, up to `most`, "
          "and never every assembly") {
    Project project({"Core", "LeafA", "LeafB", "LeafC"});
    project.saved("LeafA", 3s); // three edits seconds apart, long after the checkout
    project.saved("LeafB", 2s);
    project.saved("LeafC", 1s);
    CHECK(lastEditedAssemblies(project.layout, {}, 3, 10s) == Names{"LeafA", "LeafB", "LeafC"});
    // At most two: the two newest are not apart from the third, so none is singled out.
    CHECK(lastEditedAssemblies(project.layout, {}, 2, 10s).empty());
    project.saved("Core", 4s); // every assembly edited lately: the one saved first is left
    CHECK(lastEditedAssemblies(project.layout, {}, 4, 10s).empty());
    project.saved("Core", 30min);
    CHECK(lastEditedAssemblies(project.layout, {}, 4, 10s) == Names{"LeafA", "LeafB", "LeafC"});
}

TEST_CASE("lastEditedAssemblies: sources the host writes itself and sources gone from disk say "
          "nothing of an edit") {
    Project project({"NativeScripts", "Core", "LeafA"});
    project.saved("NativeScripts", 0s); // the host wrote its proxies as it started
    project.saved("LeafA", 5min);
    const std::set<fs::path> generated{project.dir / "NativeScripts/A.cs",
                                       project.dir / "NativeScripts/B.cs"};
    CHECK(lastEditedAssemblies(project.layout, generated, 3, 10s) == Names{"LeafA"});
    CHECK(lastEditedAssemblies(project.layout, {}, 3, 10s) == Names{"LeafA", "NativeScripts"});
    fs::remove(project.dir / "LeafA/A.cs"); // deleted: B.cs alone times LeafA
    CHECK(lastEditedAssemblies(project.layout, generated, 3, 10s) == Names{"LeafA"});
    fs::remove(project.dir / "LeafA/B.cs"); // LeafA has no source left to time
    CHECK(lastEditedAssemblies(project.layout, generated, 3, 10s).empty());
}
