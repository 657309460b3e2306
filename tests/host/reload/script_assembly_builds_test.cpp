// ScriptAssemblyBuilds: what a change builds, with the real mcs (cold) in real temp folders. A
// project without assembly definitions builds one Scripts.dll; with them, a leaf's change builds
// the leaf, a core's change the core and every assembly that references it, and a change whose
// build failed is built again with the next one. The generated sources (the native proxies) are
// an assembly every other references.
#include "../../support/captured_log.hpp"
#include "../support/mono_test_support.hpp"
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/compile_failure.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "script_assembly_builds.hpp"

#include <fmt/format.h>

using namespace scripthost;
using namespace scripthost::testing;
namespace fs = std::filesystem;

namespace {

/// A project of Core and two leaves (A and B reference Core), and the builds of it.
struct Project {
    TempDir dir{"assembly-builds"};
    compiler::BuildQueue queue;
    std::unique_ptr<ScriptAssemblyBuilds> builds;

    explicit Project(bool definitions = true, std::unique_ptr<compiler::Compiler> compiler =
                                                  std::make_unique<compiler::ColdCompiler>())
        : queue(std::move(compiler)) {
        writeFile(dir / "scripts/Core/Health.cs",
                  "namespace Game { public class Health : UEngine.UMonoScriptComponent { public "
                  "int hp = 10; } }");
        writeFile(dir / "scripts/LeafA/A.cs",
                  "namespace Game { public class A : UEngine.UMonoScriptComponent { public Health "
                  "h; } }");
        writeFile(dir / "scripts/LeafB/B.cs",
                  "namespace Game { public class B : UEngine.UMonoScriptComponent { public Health "
                  "h; } }");
        if (definitions) {
            writeFile(dir / "scripts/Core/Core.asmdef", R"({"name": "Core"})");
            writeFile(dir / "scripts/LeafA/LeafA.asmdef",
                      R"({"name": "LeafA", "references": ["Core"], "rootNamespace": "Game"})");
            writeFile(dir / "scripts/LeafB/LeafB.asmdef",
                      R"({"name": "LeafB", "references": ["Core"]})");
        }
        builds = std::make_unique<ScriptAssemblyBuilds>(
            ScriptAssemblyBuildOptions{
                {dir / "scripts"}, {}, {}, SCRIPTHOST_SCRIPTCORE_DLL, std::chrono::seconds(60), {}},
            dir / "build");
    }

    /// Submits a build of `changed` (below scripts/) and waits for it.
    compiler::FinishedBuild build(const std::vector<std::string>& changed,
                                  bool everything = false) {
        std::vector<fs::path> paths;
        for (const std::string& file : changed)
            paths.push_back(dir / "scripts" / file);
        auto submitted = builds->submit(queue, paths, everything);
        REQUIRE_MESSAGE(submitted, (submitted ? "" : submitted.error().message));
        auto finished = queue.waitFor(std::chrono::steady_clock::now() + std::chrono::seconds(120));
        REQUIRE(finished.has_value());
        return std::move(*finished);
    }
};

using Names = std::vector<std::string>;

} // namespace

TEST_CASE("ScriptAssemblyBuilds: without assembly definitions every source is one Scripts.dll") {
    Project project(/*definitions*/ false);
    const compiler::FinishedBuild first = project.build({}, true);
    REQUIRE(first.result.success);
    CHECK_FALSE(first.set.has_value());
    const auto dlls = ScriptAssemblyBuilds::outputs(first);
    REQUIRE(dlls.size() == 1);
    CHECK(dlls[0].filename() == "Scripts.dll");
    CHECK(ScriptAssemblyBuilds::compiled(first).empty());
    auto read = ScriptAssemblyBuilds::read(first);
    REQUIRE(read);
    CHECK(read->size() == 1);
}

TEST_CASE("ScriptAssemblyBuilds: a plugin .dll makes a project of loose scripts a set: the plugin "
          "is built against, loaded first and always loaded ahead, and a new one rebuilds the "
          "scripts") {
    Project project(/*definitions*/ false);
    const auto plugin = [&](int step) {
        compileScripts(project.dir, "tween.dll",
                       {{"Ease.cs", "namespace Tween { public static class Ease { public static "
                                    "int Step(int x) { return x + " +
                                        std::to_string(step) + "; } } }"}});
        writeFile(project.dir / "scripts/Plugins/Tween.dll", readFile(project.dir / "tween.dll"));
    };
    plugin(1);
    writeFile(project.dir / "scripts/Core/Health.cs",
              "namespace Game { public class Health : UEngine.UMonoScriptComponent { public int "
              "hp = Tween.Ease.Step(9); } }");
    const compiler::FinishedBuild first = project.build({}, true);
    REQUIRE_MESSAGE(first.result.success, compiler::failureText(first.result));
    REQUIRE(first.set.has_value());
    CHECK(ScriptAssemblyBuilds::compiled(first) == Names{"Scripts"});
    const fs::path tween = fs::absolute(project.dir / "scripts/Plugins/Tween.dll");
    const auto dlls = ScriptAssemblyBuilds::outputs(first);
    REQUIRE(dlls.size() == 2);
    CHECK(dlls[0] == tween);
    CHECK(dlls[1].filename() == "Scripts.dll");
    auto read = ScriptAssemblyBuilds::read(first);
    REQUIRE(read);
    REQUIRE(read->size() == 2);
    CHECK((*read)[0].name == "Tween.dll");
    project.builds->committed(first);
    // The scripts are where edits go; the plugin is loaded ahead of the next reload.
    CHECK(project.builds->likelyReused() == std::vector<fs::path>{tween});

    plugin(2);
    const compiler::FinishedBuild rebuilt = project.build({"Plugins/Tween.dll"});
    REQUIRE(rebuilt.result.success);
    CHECK(ScriptAssemblyBuilds::compiled(rebuilt) == Names{"Scripts"});
    CHECK(ScriptAssemblyBuilds::outputs(rebuilt)[1] != dlls[1]);
}

TEST_CASE("ScriptAssemblyBuilds: a leaf's change builds the leaf, a core's change builds the core "
          "and every assembly that references it, in dependency order") {
    Project project;
    const compiler::FinishedBuild first = project.build({}, true);
    REQUIRE(first.result.success);
    REQUIRE(first.set.has_value());
    CHECK(ScriptAssemblyBuilds::compiled(first) == Names{"Core", "LeafA", "LeafB"});
    const auto dlls = ScriptAssemblyBuilds::outputs(first);
    REQUIRE(dlls.size() == 3);
    CHECK(dlls[0].filename() == "Core.dll");
    project.builds->committed(first);

    writeFile(project.dir / "scripts/LeafA/A.cs",
              "namespace Game { public class A : UEngine.UMonoScriptComponent { public Health h; "
              "public int more; } }");
    const compiler::FinishedBuild leaf = project.build({"LeafA/A.cs"});
    REQUIRE(leaf.result.success);
    CHECK(ScriptAssemblyBuilds::compiled(leaf) == Names{"LeafA"});
    // Core is reused where it is: the leaf was built against that very file.
    CHECK(ScriptAssemblyBuilds::outputs(leaf)[0] == dlls[0]);
    project.builds->committed(leaf);

    const compiler::FinishedBuild core = project.build({"Core/Health.cs"});
    REQUIRE(core.result.success);
    CHECK(ScriptAssemblyBuilds::compiled(core) == Names{"Core", "LeafA", "LeafB"});
    CHECK(ScriptAssemblyBuilds::outputs(core)[0] != dlls[0]);
}

TEST_CASE("ScriptAssemblyBuilds: a change whose build failed is built again with the next change, "
          "and a definition's error names its file") {
    Project project;
    const compiler::FinishedBuild first = project.build({}, true);
    REQUIRE(first.result.success);
    project.builds->committed(first);

    writeFile(project.dir / "scripts/Core/Health.cs", "namespace Game { public class Health {");
    const compiler::FinishedBuild broken = project.build({"Core/Health.cs"});
    CHECK_FALSE(broken.result.success);
    REQUIRE(broken.set.has_value());
    CHECK(broken.set->result.failedAssembly == "Core");

    // The fix touches only LeafB, but Core's change has not run yet: Core and its dependents.
    writeFile(project.dir / "scripts/Core/Health.cs",
              "namespace Game { public class Health : UEngine.UMonoScriptComponent { public int "
              "hp = 20; } }");
    const compiler::FinishedBuild fixed = project.build({"LeafB/B.cs"});
    REQUIRE(fixed.result.success);
    CHECK(ScriptAssemblyBuilds::compiled(fixed) == Names{"Core", "LeafA", "LeafB"});

    writeFile(project.dir / "scripts/LeafB/LeafB.asmdef",
              R"({"name": "LeafB", "references": ["Nowhere"]})");
    std::vector<fs::path> changed{project.dir / "scripts/LeafB/LeafB.asmdef"};
    auto refused = project.builds->submit(project.queue, changed, false);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("LeafB.asmdef") != std::string::npos);
    CHECK(refused.error().message.find("Nowhere") != std::string::npos);
}

TEST_CASE("ScriptAssemblyBuilds: what the next reload's domain loads ahead: after a build of "
          "everything, the assemblies others reference, after leaves' builds, the others, and "
          "while a build is in flight, what it reuses") {
    Project project;
    const compiler::FinishedBuild first = project.build({}, true);
    REQUIRE(first.result.success);
    CHECK(project.builds->likelyReused().empty()); // nothing runs yet
    project.builds->committed(first);
    const auto dlls = ScriptAssemblyBuilds::outputs(first); // Core, LeafA, LeafB
    CHECK(project.builds->likelyReused() == std::vector<fs::path>{dlls[0]});

    const compiler::FinishedBuild leaf = project.build({"LeafA/A.cs"});
    REQUIRE(leaf.result.success);
    project.builds->committed(leaf);
    CHECK(project.builds->likelyReused() == std::vector<fs::path>{dlls[0], dlls[2]});

    const compiler::FinishedBuild other = project.build({"LeafB/B.cs"});
    REQUIRE(other.result.success);
    // Not committed yet: what that build reuses (Core and LeafA's new build).
    CHECK(project.builds->likelyReused() ==
          std::vector<fs::path>{dlls[0], ScriptAssemblyBuilds::outputs(leaf)[1]});
    project.builds->committed(other);
    // Both leaves were edited lately: only Core is expected to be reused.
    CHECK(project.builds->likelyReused() == std::vector<fs::path>{dlls[0]});

    const compiler::FinishedBuild core = project.build({"Core/Health.cs"});
    REQUIRE(core.result.success);
    project.builds->committed(core); // built everything again
    CHECK(project.builds->likelyReused() ==
          std::vector<fs::path>{ScriptAssemblyBuilds::outputs(core)[0]});
}

TEST_CASE("ScriptAssemblyBuilds: after the first build, the assembly whose source was saved last "
          "before the host started is expected to be edited again, not loaded ahead") {
    // A checkout an hour ago, then an edit of `edited` two minutes ago: the sources' times say
    // where the work was. Then the first build and its commit; its outputs: Core, LeafA, LeafB.
    Project project;
    auto startAfterSaving = [&](const std::string& edited) {
        const auto now = fs::file_time_type::clock::now();
        for (const char* file : {"Core/Health.cs", "LeafA/A.cs", "LeafB/B.cs"})
            fs::last_write_time(project.dir / "scripts" / file, now - std::chrono::hours(1));
        fs::last_write_time(project.dir / "scripts" / edited, now - std::chrono::minutes(2));
        const compiler::FinishedBuild first = project.build({}, true);
        REQUIRE(first.result.success);
        project.builds->committed(first);
        return ScriptAssemblyBuilds::outputs(first);
    };
    SUBCASE("a leaf: the core and the other leaf are loaded ahead") {
        const auto dlls = startAfterSaving("LeafB/B.cs");
        CHECK(project.builds->likelyReused() == std::vector<fs::path>{dlls[0], dlls[1]});
    }
    SUBCASE("the core: nothing, as every leaf references it") {
        (void)startAfterSaving("Core/Health.cs");
        CHECK(project.builds->likelyReused().empty());
    }
}

TEST_CASE("ScriptAssemblyBuilds: what the definitions ask for that is not done is a warning, "
          "logged once by the walk that finds it: a test assembly left out by its "
          "defineConstraints") {
    Project project;
    writeFile(project.dir / "scripts/Tests/Game.Tests.asmdef",
              R"({"name": "Game.Tests", "references": ["Core", "UnityEngine.TestRunner"],
                  "defineConstraints": ["UNITY_INCLUDE_TESTS"]})");
    writeFile(project.dir / "scripts/Tests/HealthTests.cs",
              "using NUnit.Framework; public class HealthTests { [Test] public void Full() {} }");
    CapturedLog log;
    const compiler::FinishedBuild first = project.build({}, true);
    REQUIRE_MESSAGE(first.result.success, first.result.log);
    CHECK(ScriptAssemblyBuilds::compiled(first) == Names{"Core", "LeafA", "LeafB"});
    CHECK(log.warnings() == 1);
    const std::string definition = (project.dir / "scripts/Tests/Game.Tests.asmdef").string();
    CHECK(log.text().find(definition + ": assembly Game.Tests is not built: its "
                                       "defineConstraints \"UNITY_INCLUDE_TESTS\" do not hold") !=
          std::string::npos);
    project.builds->committed(first);

    // A file added walks the folders again: the same warning is not said twice.
    writeFile(project.dir / "scripts/LeafA/A2.cs", "namespace Game { class A2 {} }");
    const compiler::FinishedBuild added = project.build({"LeafA/A2.cs"});
    REQUIRE(added.result.success);
    CHECK(log.warnings() == 1);
    project.builds->committed(added);

    // Fixed, then back: said again.
    writeFile(project.dir / "scripts/Tests/Game.Tests.asmdef",
              R"({"name": "Game.Tests", "references": ["Core"]})");
    writeFile(project.dir / "scripts/Tests/HealthTests.cs", "public class HealthTests {}");
    const compiler::FinishedBuild fixedUp = project.build({"Tests/Game.Tests.asmdef"});
    REQUIRE_MESSAGE(fixedUp.result.success, fixedUp.result.log);
    CHECK(ScriptAssemblyBuilds::compiled(fixedUp) == Names{"Game.Tests"});
    project.builds->committed(fixedUp);
    writeFile(project.dir / "scripts/Tests/Game.Tests.asmdef",
              R"({"name": "Game.Tests", "references": ["Core"], "defineConstraints": ["X"]})");
    (void)project.build({"Tests/Game.Tests.asmdef"});
    CHECK(log.warnings() == 2);
}

TEST_CASE("ScriptAssemblyBuilds: a core's edit that keeps its interface builds the core alone, "
          "and then nothing that references the core is loaded ahead without it") {
    Project project(true, std::make_unique<compiler::WarmCompiler>());
    const compiler::FinishedBuild first = project.build({}, true);
    REQUIRE(first.result.success);
    project.builds->committed(first);
    const auto dlls = ScriptAssemblyBuilds::outputs(first); // Core, LeafA, LeafB

    // A field's initial value is constructor code: the interface is kept.
    writeFile(project.dir / "scripts/Core/Health.cs",
              "namespace Game { public class Health : UEngine.UMonoScriptComponent { public int "
              "hp = 20; } }");
    const compiler::FinishedBuild core = project.build({"Core/Health.cs"});
    REQUIRE(core.result.success);
    CHECK(ScriptAssemblyBuilds::compiled(core) == Names{"Core"});
    const auto after = ScriptAssemblyBuilds::outputs(core);
    CHECK(after[0] != dlls[0]);
    CHECK(std::vector(after.begin() + 1, after.end()) == std::vector(dlls.begin() + 1, dlls.end()));
    project.builds->committed(core);
    CHECK(project.builds->likelyReused().empty()); // both leaves need the Core just built
}

TEST_CASE("ScriptAssemblyBuilds: an edit reuses the last walk of the folders, and a file added or "
          "removed is walked again and lands in (or leaves) its assembly") {
    Project project;
    const compiler::FinishedBuild first = project.build({}, true);
    REQUIRE(first.result.success);
    project.builds->committed(first);
    auto sourcesOf = [](const compiler::FinishedBuild& build, std::string_view name) {
        REQUIRE(build.set.has_value());
        const compiler::ScriptAssembly* assembly = build.set->request.layout.find(name);
        REQUIRE(assembly != nullptr);
        std::vector<std::string> files;
        for (const fs::path& source : assembly->sources)
            files.push_back(source.filename().string());
        return files;
    };

    const compiler::FinishedBuild edit = project.build({"LeafB/B.cs"});
    REQUIRE(edit.result.success);
    CHECK(sourcesOf(edit, "LeafB") == Names{"B.cs"});
    project.builds->committed(edit);

    writeFile(project.dir / "scripts/LeafB/More.cs",
              "namespace Game { public class More : UEngine.UMonoScriptComponent { public Health "
              "h; } }");
    const compiler::FinishedBuild added = project.build({"LeafB/More.cs"});
    REQUIRE(added.result.success);
    CHECK(ScriptAssemblyBuilds::compiled(added) == Names{"LeafB"});
    CHECK(sourcesOf(added, "LeafB") == Names{"B.cs", "More.cs"});
    project.builds->committed(added);

    fs::remove(project.dir / "scripts/LeafB/More.cs");
    const compiler::FinishedBuild removed = project.build({"LeafB/More.cs"});
    REQUIRE(removed.result.success);
    CHECK(sourcesOf(removed, "LeafB") == Names{"B.cs"});
}

TEST_CASE("ScriptAssemblyBuilds: old builds are pruned, but never the folder of a reused output: "
          "after many leaf edits the core is still reused") {
    Project project;
    const compiler::FinishedBuild first = project.build({}, true);
    REQUIRE(first.result.success);
    project.builds->committed(first);
    const fs::path core = ScriptAssemblyBuilds::outputs(first)[0];
    for (int edit = 0; edit < 6; ++edit) { // more than the builds kept besides the running one
        writeFile(project.dir / "scripts/LeafA/A.cs",
                  fmt::format("namespace Game {{ public class A : UEngine.UMonoScriptComponent "
                              "{{ public Health h; public int edit = {}; }} }}",
                              edit));
        const compiler::FinishedBuild leaf = project.build({"LeafA/A.cs"});
        REQUIRE(leaf.result.success);
        CHECK(ScriptAssemblyBuilds::compiled(leaf) == Names{"LeafA"});
        project.builds->prune(); // as a reload does, before the build is committed
        project.builds->committed(leaf);
        REQUIRE(fs::exists(core));
    }
    CHECK(fs::exists(ScriptAssemblyBuilds::outputs(first)[2])); // LeafB's, reused throughout
}

TEST_CASE("ScriptAssemblyBuilds: the generated sources are an assembly every other references, "
          "those built on a script class are the default assembly's, and only a change of "
          "their text rebuilds") {
    TempDir dir("assembly-builds-generated");
    writeFile(dir / "scripts/Core/Core.asmdef", R"({"name": "Core"})");
    writeFile(dir / "scripts/Core/Shape.cs",
              "namespace Game { public abstract class Shape : UEngine.UNativeScript { public "
              "abstract float Area(); } }");
    // A leaf and a loose script both name a proxy: it is in reach of every assembly.
    writeFile(dir / "scripts/Leaf/Leaf.asmdef", R"({"name": "Leaf", "references": ["Core"]})");
    writeFile(dir / "scripts/Leaf/Spinning.cs",
              "namespace Game { public class Spinning : UEngine.UMonoScriptComponent { public "
              "Native.Spinner spinner; } }");
    writeFile(dir / "scripts/Player.cs",
              "namespace Game { public class Player : UEngine.UMonoScriptComponent { public "
              "Native.Spinner spinner; public Native.Square square; } }");
    const fs::path proxies = dir / "generated/NativeScripts.g.cs";
    const fs::path onScripts = dir / "generated/OnScripts.g.cs";
    const std::string spinner =
        "namespace Native { public class Spinner : UEngine.UNativeScript { public int turns; } }";
    const std::string square = "namespace Native { public class Square : Game.Shape { public "
                               "override float Area() { return 1; } } }";
    writeFile(proxies, spinner);
    writeFile(onScripts, square);
    std::vector<compiler::AssemblyLayout> shown;
    compiler::BuildQueue queue{std::make_unique<compiler::ColdCompiler>()};
    ScriptAssemblyBuilds builds(
        ScriptAssemblyBuildOptions{
            {dir / "scripts"},
            {proxies},
            {onScripts},
            SCRIPTHOST_SCRIPTCORE_DLL,
            std::chrono::seconds(60),
            [&](const compiler::AssemblyLayout& layout) { shown.push_back(layout); }},
        dir / "build");
    auto build = [&](bool everything = false) {
        auto submitted = builds.submit(queue, {}, everything);
        REQUIRE_MESSAGE(submitted, (submitted ? "" : submitted.error().message));
        auto finished = queue.waitFor(std::chrono::steady_clock::now() + std::chrono::seconds(120));
        REQUIRE(finished.has_value());
        REQUIRE_MESSAGE(finished->result.success, finished->result.log);
        builds.committed(*finished);
        return ScriptAssemblyBuilds::compiled(*finished);
    };
    CHECK(build(true) == Names{"NativeScripts", "Core", "Leaf", "Scripts"});
    // What editors are shown: the proxies' assembly referenced by every other, the proxies on
    // script classes in the default assembly.
    REQUIRE(shown.size() == 1);
    REQUIRE(shown[0].assemblies.size() == 4);
    CHECK(shown[0].assemblies[0].name == "NativeScripts");
    CHECK(shown[0].assemblies[0].sources == std::vector<fs::path>{proxies});
    for (std::size_t i = 1; i < 4; ++i)
        CHECK(shown[0].assemblies[i].references.front() == "NativeScripts");
    CHECK(std::ranges::count(shown[0].assemblies[3].sources, onScripts) == 1);

    writeFile(proxies, spinner); // written again with the same text: nothing to build
    CHECK(build().empty());
    CHECK(shown.size() == 1); // nor anything new for editors
    writeFile(onScripts, square + " // changed");
    CHECK(build() == Names{"Scripts"});
    writeFile(proxies, spinner + " // changed");
    CHECK(build() == Names{"NativeScripts", "Core", "Leaf", "Scripts"});
    CHECK(shown.size() == 3); // the generated texts changed twice: editors copy them

    // The module's classes of their own are gone: so is their assembly, and what referenced it
    // is rebuilt without it.
    writeFile(dir / "scripts/Leaf/Spinning.cs",
              "namespace Game { public class Spinning : UEngine.UMonoScriptComponent {} }");
    writeFile(dir / "scripts/Player.cs",
              "namespace Game { public class Player : UEngine.UMonoScriptComponent {} }");
    fs::remove(proxies);
    auto submitted =
        builds.submit(queue, {dir / "scripts/Leaf/Spinning.cs", dir / "scripts/Player.cs"}, false);
    REQUIRE_MESSAGE(submitted, (submitted ? "" : submitted.error().message));
    auto finished = queue.waitFor(std::chrono::steady_clock::now() + std::chrono::seconds(120));
    REQUIRE(finished.has_value());
    REQUIRE_MESSAGE(finished->result.success, finished->result.log);
    CHECK(ScriptAssemblyBuilds::compiled(*finished) == Names{"Core", "Leaf", "Scripts"});
    REQUIRE(shown.size() == 4);
    CHECK(shown[3].find("NativeScripts") == nullptr);
}

TEST_CASE("ScriptAssemblyBuilds: without loose scripts the generated sources on script classes "
          "are a default assembly of their own, and a definition that takes the generated "
          "sources' assembly's name is an error naming its file") {
    TempDir dir("assembly-builds-generated-alone");
    writeFile(dir / "scripts/Core/Core.asmdef", R"({"name": "Core"})");
    writeFile(dir / "scripts/Core/Shape.cs",
              "namespace Game { public abstract class Shape : UEngine.UNativeScript { public "
              "abstract float Area(); } }");
    writeFile(dir / "scripts/Tools/Tools.asmdef", R"({"name": "Tools", "autoReferenced": false})");
    writeFile(dir / "scripts/Tools/Ruler.cs", "namespace Game { public class Ruler {} }");
    const fs::path proxies = dir / "generated/NativeScripts.g.cs";
    const fs::path onScripts = dir / "generated/OnScripts.g.cs";
    writeFile(proxies, "namespace Native { public class Spinner : UEngine.UNativeScript {} }");
    writeFile(onScripts, "namespace Native { public class Square : Game.Shape { public override "
                         "float Area() { return 1; } } }");
    compiler::BuildQueue queue{std::make_unique<compiler::ColdCompiler>()};
    ScriptAssemblyBuilds builds(ScriptAssemblyBuildOptions{{dir / "scripts"},
                                                           {proxies},
                                                           {onScripts},
                                                           SCRIPTHOST_SCRIPTCORE_DLL,
                                                           std::chrono::seconds(60),
                                                           {}},
                                dir / "build");
    REQUIRE(builds.submit(queue, {}, true));
    auto finished = queue.waitFor(std::chrono::steady_clock::now() + std::chrono::seconds(120));
    REQUIRE(finished.has_value());
    REQUIRE_MESSAGE(finished->result.success, finished->result.log);
    CHECK(ScriptAssemblyBuilds::compiled(*finished) ==
          Names{"NativeScripts", "Core", "Tools", "Scripts"});
    const compiler::ScriptAssembly* made = finished->set->request.layout.find("Scripts");
    REQUIRE(made != nullptr);
    CHECK(made->sources == std::vector<fs::path>{onScripts});
    CHECK(made->references == Names{"NativeScripts", "Core"}); // what is auto-referenced

    writeFile(dir / "scripts/Native/NativeScripts.asmdef", R"({"name": "NativeScripts"})");
    writeFile(dir / "scripts/Native/A.cs", "namespace Game { public class A {} }");
    auto submitted = builds.submit(queue, {dir / "scripts/Native/NativeScripts.asmdef"}, false);
    REQUIRE_FALSE(submitted);
    CHECK(submitted.error().message.find("NativeScripts.asmdef") != std::string::npos);
    CHECK(submitted.error().message.find("'NativeScripts'") != std::string::npos);
}
