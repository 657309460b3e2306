// buildAssemblySet: the assemblies of a layout built in dependency order against each other's
// new or reused outputs, over real temp folders with the real compile server (and mcs).
#include "compiler_bridge/assembly_set_build.hpp"
#include "compiler_bridge/output_generations.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "compiler_test_support.hpp"

#include <condition_variable>
#include <doctest/doctest.h>
#include <mutex>

using namespace scripthost::compiler;
using namespace scripthost::testing;
namespace fs = std::filesystem;

namespace {

using Names = std::vector<std::string>;
using Paths = std::vector<fs::path>;

/// Core (Core/, Game.CoreThing with a const string `tag`), Leaf (Leaf/, references Core,
/// returns that const) and the default assembly Scripts (Main.cs, uses both) under one root.
struct Project {
    TempDir dir{"assembly-set"};
    fs::path root = dir / "Assets";
    OutputGenerations generations{dir / "build", "unused"};

    Project() {
        writeFile(root / "Core" / "Core.asmdef", R"({ "name": "Core" })");
        writeFile(root / "Leaf" / "Leaf.asmdef", R"({ "name": "Leaf", "references": ["Core"] })");
        core("core-v1");
        leaf("leaf-v1");
        main(1);
    }
    /// `value`: what Value() returns (a change of a method body only).
    void core(const std::string& tag, const std::string& extra = "", int value = 1) const {
        writeFile(root / "Core" / "CoreThing.cs",
                  "namespace Game {\n  public class CoreThing {\n    public const string Tag = \"" +
                      tag + "\";\n    public virtual int Value() { return " +
                      std::to_string(value) + "; }\n" + extra + "  }\n}\n");
    }
    void leaf(const std::string& tag, const std::string& extra = "") const {
        writeFile(root / "Leaf" / "LeafThing.cs",
                  "namespace Game {\n  public class LeafThing : CoreThing {\n"
                  "    public string Tags() { return CoreThing.Tag + \"/" +
                      tag + "\"; }\n" + extra + "  }\n}\n");
    }
    void main(int value) const {
        writeFile(root / "Main.cs", "public class Main {\n  public int Run() { return new "
                                    "Game.LeafThing().Value() + " +
                                        std::to_string(value) + "; }\n}\n");
    }
    [[nodiscard]] AssemblyLayout layout() const {
        auto layout = readAssemblyLayout({root});
        REQUIRE_MESSAGE(layout, (layout ? "" : layout.error().message));
        return std::move(*layout);
    }
    /// A set request into the next gen<N> folder.
    AssemblySetRequest request(Names rebuild, std::map<std::string, fs::path> previous = {}) {
        AssemblySetRequest request;
        request.layout = layout();
        request.rebuild = std::move(rebuild);
        request.previous = std::move(previous);
        request.outputFolder = generations.nextFolder();
        request.timeout = std::chrono::seconds(30);
        return request;
    }
};

/// The UTF-16 bytes mcs stores a string literal as (a const string is copied into every
/// assembly that uses it, so they show which Core an assembly was compiled against).
std::string utf16(const std::string& ascii) {
    std::string bytes;
    for (const char c : ascii) {
        bytes += c;
        bytes += '\0';
    }
    return bytes;
}

Names namesOf(const AssemblySetResult& result) {
    Names names;
    for (const AssemblyBuild& assembly : result.assemblies)
        names.push_back(assembly.name);
    return names;
}

std::vector<AssemblyOutcome> outcomesOf(const AssemblySetResult& result) {
    std::vector<AssemblyOutcome> outcomes;
    for (const AssemblyBuild& assembly : result.assemblies)
        outcomes.push_back(assembly.outcome);
    return outcomes;
}

std::string describe(const AssemblySetResult& result) {
    std::string text = result.error;
    for (const AssemblyBuild& assembly : result.assemblies) {
        if (assembly.result)
            text += "\n" + assembly.name + ": " + scripthost::testing::describe(*assembly.result);
    }
    return text;
}

/// Sets the outputs' times 10 s back: the compile server prepares no import with an assembly
/// written in the last second (it may have been read half-written), and a test's builds come
/// faster than a developer's saves.
void age(const std::map<std::string, fs::path>& outputs) {
    const auto past = fs::file_time_type::clock::now() - std::chrono::seconds(10);
    for (const auto& [name, dll] : outputs) {
        fs::last_write_time(dll, past);
        if (fs::exists(dll.string() + ".mdb"))
            fs::last_write_time(dll.string() + ".mdb", past);
    }
}

/// A compiler that records what it was asked and succeeds without building anything. Its
/// interfaceOf answers from `interfaces` (by .dll; none: it cannot tell).
class RecordingCompiler final : public Compiler {
public:
    std::vector<CompileRequest> requests;
    std::map<fs::path, std::string> interfaces;
    std::optional<std::string> interfaceOf(const fs::path& assembly) override {
        const auto found = interfaces.find(assembly);
        return found == interfaces.end() ? std::nullopt : std::optional(found->second);
    }
    CompileResult compile(const CompileRequest& request) override {
        requests.push_back(request);
        CompileResult result;
        result.success = true;
        result.output = request.output;
        return result;
    }
    Backend backend() const noexcept override { return Backend::Cold; }
};

ScriptAssembly assembly(const std::string& name, Names references = {}) {
    ScriptAssembly a;
    a.name = name;
    a.sources = {"/src/" + name + ".cs"};
    a.references = std::move(references);
    return a;
}

} // namespace

TEST_CASE("assembly set: built from nothing in dependency order, each against the new dlls") {
    Project project;
    WarmCompiler compiler;
    const AssemblySetRequest request = project.request({});
    const AssemblySetResult result = buildAssemblySet(compiler, request);
    REQUIRE_MESSAGE(result.success, describe(result));
    CHECK(result.failedAssembly.empty());
    CHECK(namesOf(result) == Names{"Core", "Leaf", "Scripts"});
    CHECK(outcomesOf(result) == std::vector<AssemblyOutcome>(3, AssemblyOutcome::Built));
    const fs::path gen = request.outputFolder;
    CHECK(result.outputs() == std::map<std::string, fs::path>{{"Core", gen / "Core.dll"},
                                                              {"Leaf", gen / "Leaf.dll"},
                                                              {"Scripts", gen / "Scripts.dll"}});
    // Scripts references Core and Leaf; Leaf's class derives from Core's, so it needs both.
    CHECK(result.find("Core")->request->references.empty());
    CHECK(result.find("Leaf")->request->references == Paths{gen / "Core.dll"});
    CHECK(result.find("Scripts")->request->references == Paths{gen / "Core.dll", gen / "Leaf.dll"});
    for (const AssemblyBuild& built : result.assemblies) {
        CHECK(fs::is_regular_file(built.output));
        CHECK(built.result->symbols == fs::path(built.output.string() + ".mdb"));
        CHECK(built.result->backend == Backend::Warm);
    }
    CHECK(fileContains(gen / "Leaf.dll", utf16("core-v1/leaf-v1")));
    CHECK(result.lastCompiled() == result.find("Scripts"));
}

TEST_CASE("assembly set: a Scripts rebuild reuses Core and Leaf where they are and a repeated "
          "edit uses references imported ahead") {
    Project project;
    WarmCompiler compiler;
    const AssemblySetResult first = buildAssemblySet(compiler, project.request({}));
    REQUIRE_MESSAGE(first.success, describe(first));
    age(first.outputs());
    const fs::path core = first.find("Core")->output;
    const fs::path leaf = first.find("Leaf")->output;

    project.main(2);
    const AssemblySetResult edited =
        buildAssemblySet(compiler, project.request({"Scripts"}, first.outputs()));
    REQUIRE_MESSAGE(edited.success, describe(edited));
    CHECK(outcomesOf(edited) ==
          std::vector{AssemblyOutcome::Reused, AssemblyOutcome::Reused, AssemblyOutcome::Built});
    CHECK(edited.find("Core")->output == core); // the very path: never copied
    CHECK(edited.find("Leaf")->output == leaf);
    CHECK_FALSE(edited.find("Core")->result.has_value());
    CHECK(edited.find("Scripts")->request->references == Paths{core, leaf});
    CHECK(edited.find("Scripts")->output.parent_path() != core.parent_path());

    // The server imports the references of a build like the last one while it waits.
    REQUIRE(compiler.settle());
    project.main(3);
    const AssemblySetResult again =
        buildAssemblySet(compiler, project.request({"Scripts"}, edited.outputs()));
    REQUIRE_MESSAGE(again.success, describe(again));
    CHECK(again.find("Scripts")->result->referencesPrepared);
    CHECK(again.find("Scripts")->request->references == Paths{core, leaf});
    CHECK(again.find("Core")->output == core);
}

TEST_CASE("assembly set: a Leaf rebuild that changes its interface rebuilds Scripts, which "
          "references it, and reuses Core") {
    Project project;
    WarmCompiler compiler;
    const AssemblySetResult first = buildAssemblySet(compiler, project.request({}));
    REQUIRE_MESSAGE(first.success, describe(first));
    age(first.outputs()); // before the server prepares an import with Core, which stays
    project.leaf("leaf-v2", "    public int Added() { return 2; }\n");
    const AssemblySetRequest request = project.request({"Leaf"}, first.outputs());
    const AssemblySetResult result = buildAssemblySet(compiler, request);
    REQUIRE_MESSAGE(result.success, describe(result));
    CHECK(outcomesOf(result) ==
          std::vector{AssemblyOutcome::Reused, AssemblyOutcome::Built, AssemblyOutcome::Built});
    const fs::path core = first.find("Core")->output;
    CHECK(result.find("Scripts")->request->references ==
          Paths{core, request.outputFolder / "Leaf.dll"});
    CHECK(fileContains(request.outputFolder / "Leaf.dll", utf16("core-v1/leaf-v2")));
    CHECK_FALSE(result.find("Leaf")->interfaceKept);
    CHECK_FALSE(result.find("Scripts")->reusedWithNewReferences);
    // Only the first compile is the one the server prepares the next for: Scripts references
    // the Leaf just built, new at every set.
    CHECK(result.find("Leaf")->request->prepareNext);
    CHECK_FALSE(result.find("Scripts")->request->prepareNext);

    REQUIRE(compiler.settle());
    project.leaf("leaf-v3", "    public int AddedToo() { return 3; }\n");
    const AssemblySetRequest next = project.request({"Leaf"}, result.outputs());
    const AssemblySetResult again = buildAssemblySet(compiler, next);
    REQUIRE_MESSAGE(again.success, describe(again));
    CHECK(again.find("Leaf")->result->referencesPrepared);
    CHECK_FALSE(again.find("Scripts")->result->referencesPrepared);
    CHECK(fileContains(next.outputFolder / "Leaf.dll", utf16("core-v1/leaf-v3")));
}

TEST_CASE("assembly set: a Core rebuild rebuilds its dependents against the new Core") {
    Project project;
    WarmCompiler compiler;
    const AssemblySetResult first = buildAssemblySet(compiler, project.request({}));
    REQUIRE_MESSAGE(first.success, describe(first));

    SUBCASE("they take the new Core's constant") {
        project.core("core-v2");
        const AssemblySetRequest request = project.request({"Core"}, first.outputs());
        const AssemblySetResult result = buildAssemblySet(compiler, request);
        REQUIRE_MESSAGE(result.success, describe(result));
        CHECK(outcomesOf(result) == std::vector<AssemblyOutcome>(3, AssemblyOutcome::Built));
        CHECK_FALSE(result.find("Core")->interfaceKept); // a constant is copied into its users
        const fs::path gen = request.outputFolder;
        CHECK(result.find("Leaf")->request->references == Paths{gen / "Core.dll"});
        CHECK(fileContains(gen / "Leaf.dll", utf16("core-v2/leaf-v1")));
        CHECK_FALSE(fileContains(gen / "Leaf.dll", utf16("core-v1")));
    }
    SUBCASE("a member Leaf uses is gone: Leaf fails, against the new Core") {
        project.leaf("leaf-v1", "    public int Twice() { return Value() * 2; }\n");
        const AssemblySetResult withTwice =
            buildAssemblySet(compiler, project.request({"Leaf"}, first.outputs()));
        REQUIRE_MESSAGE(withTwice.success, describe(withTwice));
        // Value(), which Leaf calls, is renamed: Leaf's text is as it was.
        writeFile(project.root / "Core" / "CoreThing.cs",
                  "namespace Game { public class CoreThing { public const string Tag = \"c\"; "
                  "public virtual int Renamed() { return 1; } } }\n");
        const AssemblySetResult result =
            buildAssemblySet(compiler, project.request({"Core"}, withTwice.outputs()));
        CHECK_FALSE(result.success);
        CHECK(result.failedAssembly == "Leaf");
        CHECK(outcomesOf(result) == std::vector{AssemblyOutcome::Built, AssemblyOutcome::Failed,
                                                AssemblyOutcome::NotBuilt});
        REQUIRE(result.failed() != nullptr);
        CHECK(result.failed()->result->errorCount() >= 1);
        CHECK(result.failed()->result->diagnostics[0].file.ends_with("LeafThing.cs"));
    }
}

TEST_CASE("assembly set: a Core edit that keeps its interface reuses Leaf and Scripts as they "
          "were built, without compiling them") {
    Project project;
    WarmCompiler compiler;
    const AssemblySetResult first = buildAssemblySet(compiler, project.request({}));
    REQUIRE_MESSAGE(first.success, describe(first));

    SUBCASE("a method body") {
        project.core("core-v1", "", 2);
    }
    SUBCASE("a private method added") {
        project.core("core-v1", "    int Helper() { return 3; }\n");
    }
    const AssemblySetRequest request = project.request({"Core"}, first.outputs());
    const AssemblySetResult result = buildAssemblySet(compiler, request);
    REQUIRE_MESSAGE(result.success, describe(result));
    CHECK(outcomesOf(result) ==
          std::vector{AssemblyOutcome::Built, AssemblyOutcome::Reused, AssemblyOutcome::Reused});
    CHECK(result.find("Core")->interfaceKept);
    CHECK(result.find("Core")->output == request.outputFolder / "Core.dll");
    for (const char* name : {"Leaf", "Scripts"}) {
        CAPTURE(name);
        CHECK(result.find(name)->reusedWithNewReferences);
        CHECK(result.find(name)->output == first.find(name)->output);
        CHECK_FALSE(result.find(name)->result.has_value()); // not compiled
    }
    CHECK(result.lastCompiled() == result.find("Core"));

    // Turned off, they are rebuilt as before.
    project.core("core-v1", "", 3);
    AssemblySetRequest off = project.request({"Core"}, result.outputs());
    off.reuseWhenInterfaceKept = false;
    const AssemblySetResult all = buildAssemblySet(compiler, off);
    REQUIRE_MESSAGE(all.success, describe(all));
    CHECK(outcomesOf(all) == std::vector<AssemblyOutcome>(3, AssemblyOutcome::Built));
    CHECK_FALSE(all.find("Leaf")->reusedWithNewReferences);
}

TEST_CASE("assembly set: an assembly is reused only when each rebuilt one it references, "
          "directly or not, kept its interface") {
    AssemblySetRequest request;
    // A <- B <- C, and D references A.
    request.layout.assemblies = {assembly("A"), assembly("B", {"A"}), assembly("C", {"B"}),
                                 assembly("D", {"A"})};
    TempDir dir("assembly-set-interfaces");
    request.outputFolder = dir / "gen2";
    for (const char* name : {"A", "B", "C", "D"}) {
        writeFile(dir / "gen1" / (std::string(name) + ".dll"), "dll");
        request.previous[name] = dir / "gen1" / (std::string(name) + ".dll");
    }
    RecordingCompiler compiler;
    auto compiled = [&] {
        Names names;
        for (const CompileRequest& r : compiler.requests)
            names.push_back(r.output.stem().string());
        return names;
    };
    auto interfaces = [&](const std::string& name, const std::string& before,
                          const std::string& now) {
        compiler.interfaces[dir / "gen1" / (name + ".dll")] = before;
        compiler.interfaces[dir / "gen2" / (name + ".dll")] = now;
    };

    SUBCASE("A kept it: B, C and D are reused") {
        interfaces("A", "a1", "a1");
        request.rebuild = {"A"};
        const AssemblySetResult result = buildAssemblySet(compiler, request);
        REQUIRE(result.success);
        CHECK(compiled() == Names{"A"});
        CHECK(result.outputs().at("C") == dir / "gen1" / "C.dll");
        CHECK(result.find("D")->reusedWithNewReferences);
    }
    SUBCASE("A changed it: all are built") {
        interfaces("A", "a1", "a2");
        request.rebuild = {"A"};
        REQUIRE(buildAssemblySet(compiler, request).success);
        CHECK(compiled() == Names{"A", "B", "C", "D"});
    }
    SUBCASE("A kept it, B changed its own: C is built against both, D reused") {
        interfaces("A", "a1", "a1");
        interfaces("B", "b1", "b2");
        request.rebuild = {"A", "B"};
        const AssemblySetResult result = buildAssemblySet(compiler, request);
        REQUIRE(result.success);
        CHECK(compiled() == Names{"A", "B", "C"});
        CHECK(result.find("B")->outcome == AssemblyOutcome::Built); // asked: always built
        CHECK(result.find("D")->outcome == AssemblyOutcome::Reused);
    }
    SUBCASE("B has no output left: built, and C with it (nothing to compare B with)") {
        interfaces("A", "a1", "a1");
        fs::remove(dir / "gen1" / "B.dll");
        request.rebuild = {"A"};
        REQUIRE(buildAssemblySet(compiler, request).success);
        CHECK(compiled() == Names{"A", "B", "C"});
    }
    SUBCASE("the compiler cannot tell: all are built") {
        request.rebuild = {"A"};
        REQUIRE(buildAssemblySet(compiler, request).success);
        CHECK(compiled() == Names{"A", "B", "C", "D"});
    }
}

TEST_CASE("assembly set: a compile error in Core stops the set and names Core") {
    Project project;
    WarmCompiler compiler;
    const AssemblySetResult first = buildAssemblySet(compiler, project.request({}));
    REQUIRE_MESSAGE(first.success, describe(first));
    project.core("core-v2", "    public int Broken() { return notDeclared; }\n");
    const AssemblySetResult result =
        buildAssemblySet(compiler, project.request({"Core"}, first.outputs()));
    CHECK_FALSE(result.success);
    CHECK_FALSE(result.stopped);
    CHECK(result.failedAssembly == "Core");
    CHECK(outcomesOf(result) == std::vector{AssemblyOutcome::Failed, AssemblyOutcome::NotBuilt,
                                            AssemblyOutcome::NotBuilt});
    REQUIRE(result.failed() == result.find("Core"));
    const CompileResult& failure = *result.failed()->result;
    REQUIRE(failure.errorCount() == 1);
    CHECK(failure.diagnostics[0].code == "CS0103");
    CHECK(failure.diagnostics[0].file.ends_with("CoreThing.cs"));
    CHECK(result.lastCompiled() == result.find("Core"));
    CHECK(result.outputs().empty()); // nothing of it is to be loaded
    for (const AssemblyBuild& assembly : result.assemblies)
        CHECK(assembly.output.empty());
}

TEST_CASE("assembly set: allowUnsafeCode lets unsafe code build in that assembly only") {
    Project project;
    const std::string unsafeMember = "    public unsafe int Peek() { int x = 3; int* p = &x; "
                                     "return *p; }\n";
    writeFile(project.root / "Core" / "Core.asmdef",
              R"({ "name": "Core", "allowUnsafeCode": true })");
    project.core("core-v1", unsafeMember);
    project.leaf("leaf-v1", unsafeMember);
    WarmCompiler compiler;
    const AssemblySetResult result = buildAssemblySet(compiler, project.request({}));
    CHECK(result.failedAssembly == "Leaf");
    CHECK(result.find("Core")->outcome == AssemblyOutcome::Built);
    CHECK(result.find("Core")->request->allowUnsafeCode);
    CHECK_FALSE(result.find("Leaf")->request->allowUnsafeCode);
    REQUIRE(result.failed() != nullptr);
    CHECK(result.failed()->result->diagnostics[0].code == "CS0227"); // unsafe needs -unsafe

    project.leaf("leaf-v1");
    const AssemblySetResult fixed = buildAssemblySet(compiler, project.request({}));
    CHECK_MESSAGE(fixed.success, describe(fixed));
}

TEST_CASE("assembly set: a precompiled assembly is referenced by the assemblies that see it, "
          "and not by one that overrides its references without it") {
    Project project;
    WarmCompiler compiler;
    // The plugin: a .dll built elsewhere and copied into the script folders.
    CompileRequest pluginBuild;
    pluginBuild.sources = {project.dir / "plugin-src" / "Ease.cs"};
    writeFile(pluginBuild.sources[0], "namespace Tween {\n  public static class Ease {\n"
                                      "    public static int Twice(int x) { return 2 * x; }\n"
                                      "  }\n}\n");
    pluginBuild.output = project.root / "Plugins" / "Tween.dll";
    pluginBuild.timeout = std::chrono::seconds(30);
    const CompileResult plugin = compiler.compile(pluginBuild);
    REQUIRE_MESSAGE(plugin.success, scripthost::testing::describe(plugin));
    const fs::path tween = project.root / "Plugins" / "Tween.dll";
    project.leaf("leaf-v1", "    public int Eased() { return Tween.Ease.Twice(Value()); }\n");
    writeFile(project.root / "Main.cs",
              "public class Main {\n  public int Run() { return Tween.Ease.Twice(1); }\n}\n");

    // Core overrides its references and lists no plugin: Core cannot use Tween.
    writeFile(project.root / "Core" / "Core.asmdef",
              R"({ "name": "Core", "overrideReferences": true })");
    project.core("core-v1", "    public int Eased() { return Tween.Ease.Twice(1); }\n");
    const AssemblySetResult hidden = buildAssemblySet(compiler, project.request({}));
    CHECK(hidden.failedAssembly == "Core");
    REQUIRE(hidden.failed() != nullptr);
    CHECK(hidden.failed()->result->diagnostics[0].code == "CS0103"); // no Tween in scope
    CHECK(std::ranges::find(hidden.failed()->request->references, tween) ==
          hidden.failed()->request->references.end());

    // Listed, it is referenced; Leaf and Scripts see it without a word.
    writeFile(project.root / "Core" / "Core.asmdef",
              R"({ "name": "Core", "overrideReferences": true,
                   "precompiledReferences": ["Tween.dll"] })");
    const AssemblySetResult built = buildAssemblySet(compiler, project.request({}));
    REQUIRE_MESSAGE(built.success, describe(built));
    for (const std::string name : {"Core", "Leaf", "Scripts"}) {
        const auto& references = built.find(name)->request->references;
        CHECK_MESSAGE(std::ranges::count(references, tween) == 1, name);
    }
}

TEST_CASE("assembly set: an assembly is built against the precompiled assemblies of those it "
          "references (a base class's assembly)") {
    AssemblySetRequest request;
    request.layout.precompiled = {{"Tween", "/p/Plugins/Tween.dll", true},
                                  {"Json", "/p/Plugins/Json.dll", true}};
    request.layout.assemblies = {assembly("Core"), assembly("Game", {"Core"})};
    request.layout.assemblies[0].precompiledReferences = {"Tween"};
    request.outputFolder = "/out";
    const CompileRequest game =
        assemblyCompileRequest(request, request.layout.assemblies[1], {{"Core", "/out/Core.dll"}});
    CHECK(game.references == Paths{"/p/Plugins/Tween.dll", "/out/Core.dll"});
    const CompileRequest core = assemblyCompileRequest(request, request.layout.assemblies[0], {});
    CHECK(core.references == Paths{"/p/Plugins/Tween.dll"});
}

TEST_CASE("assembly set: what is built: the asked, those with no output on disk and their "
          "dependents, in layout order") {
    AssemblySetRequest request;
    // A <- B <- C, and D alone; the layout is in dependency order.
    request.layout.assemblies = {assembly("A"), assembly("D"), assembly("B", {"A"}),
                                 assembly("C", {"B"})};
    request.outputFolder = "/out/gen2";
    CHECK(assembliesToBuild(request) == Names{"A", "D", "B", "C"}); // no previous outputs

    TempDir dir("assembly-set-plan");
    for (const char* name : {"A", "B", "C", "D"}) {
        writeFile(dir / "gen1" / (std::string(name) + ".dll"), "dll");
        request.previous[name] = dir / "gen1" / (std::string(name) + ".dll");
    }
    CHECK(assembliesToBuild(request).empty());
    request.rebuild = {"C", "B"}; // any order
    CHECK(assembliesToBuild(request) == Names{"B", "C"});
    request.rebuild = {"A"};
    CHECK(assembliesToBuild(request) == Names{"A", "B", "C"});
    request.rebuild = {};
    fs::remove(dir / "gen1" / "B.dll"); // pruned, say: built again, with what references it
    CHECK(assembliesToBuild(request) == Names{"B", "C"});

    RecordingCompiler compiler;
    request.references = {"/engine/ScriptCore.dll"};
    request.defines = {"GAME"};
    const AssemblySetResult result = buildAssemblySet(compiler, request);
    REQUIRE(result.success);
    REQUIRE(compiler.requests.size() == 2);
    CHECK(compiler.requests[0].output == "/out/gen2/B.dll");
    CHECK(compiler.requests[0].references ==
          Paths{"/engine/ScriptCore.dll", dir / "gen1" / "A.dll"});
    // C references B directly and A through B: both, in layout order.
    CHECK(compiler.requests[1].references ==
          Paths{"/engine/ScriptCore.dll", dir / "gen1" / "A.dll", "/out/gen2/B.dll"});
    CHECK(compiler.requests[1].defines == Names{"GAME"});
    CHECK(result.outputs().at("D") == dir / "gen1" / "D.dll");
}

TEST_CASE("assembly set: a request that cannot be built says why and compiles nothing") {
    AssemblySetRequest request;
    request.layout.assemblies = {assembly("A")};
    request.outputFolder = "/out/gen1";
    RecordingCompiler compiler;

    SUBCASE("an unknown name to rebuild") {
        request.rebuild = {"Nope"};
        const AssemblySetResult result = buildAssemblySet(compiler, request);
        CHECK(result.error.find("Nope") != std::string::npos);
        CHECK_FALSE(result.success);
    }
    SUBCASE("no output folder") {
        request.outputFolder.clear();
        const AssemblySetResult result = buildAssemblySet(compiler, request);
        CHECK(result.error.find("output folder") != std::string::npos);
        CHECK(result.assemblies.empty());
    }
    CHECK(compiler.requests.empty());
}

TEST_CASE("assembly set: stopRequested stops it before the next assembly") {
    AssemblySetRequest request;
    request.layout.assemblies = {assembly("A"), assembly("B", {"A"}), assembly("C", {"B"})};
    request.outputFolder = "/out/gen1";
    RecordingCompiler compiler;
    const AssemblySetResult result =
        buildAssemblySet(compiler, request, [&] { return compiler.requests.size() == 1; });
    CHECK(compiler.requests.size() == 1);
    CHECK(result.stopped);
    CHECK_FALSE(result.success);
    CHECK(result.failedAssembly.empty());
    CHECK(outcomesOf(result) == std::vector{AssemblyOutcome::Built, AssemblyOutcome::NotBuilt,
                                            AssemblyOutcome::NotBuilt});
}

namespace {

/// Two compilers sharing one record: each compile waits (10 s at most) until another runs
/// beside it when it is a leaf's ("L…"), so a set that can build two at a time shows it.
struct SharedRecord {
    std::mutex mutex;
    std::condition_variable changed;
    int running = 0;
    int mostAtOnce = 0;
    std::string fail;                                  // the assembly whose compile fails
    std::vector<std::pair<int, CompileRequest>> order; // (compiler, request) as started
    std::map<std::string, std::pair<int, int>> spans;  // name -> (start, end) in event order
    int events = 0;
};

class PairedCompiler final : public Compiler {
public:
    PairedCompiler(SharedRecord& record, int id) : record_(record), id_(id) {}
    CompileResult compile(const CompileRequest& request) override {
        const std::string name = request.output.stem().string();
        std::unique_lock lock(record_.mutex);
        record_.order.emplace_back(id_, request);
        record_.spans[name].first = ++record_.events;
        record_.mostAtOnce = std::max(record_.mostAtOnce, ++record_.running);
        record_.changed.notify_all();
        if (name.starts_with("L"))
            record_.changed.wait_for(lock, std::chrono::seconds(10),
                                     [&] { return record_.mostAtOnce >= 2; });
        --record_.running;
        record_.spans[name].second = ++record_.events;
        CompileResult result;
        result.success = name != record_.fail;
        result.output = request.output;
        return result;
    }
    Backend backend() const noexcept override { return Backend::Cold; }

private:
    SharedRecord& record_;
    int id_;
};

AssemblySetRequest coreLeavesAndScripts() {
    AssemblySetRequest request;
    request.layout.assemblies = {
        assembly("Core"),         assembly("L1", {"Core"}),
        assembly("L2", {"Core"}), assembly("L3", {"Core"}),
        assembly("L4", {"Core"}), assembly("Scripts", {"Core", "L1", "L2", "L3", "L4"})};
    request.outputFolder = "/out/gen1";
    return request;
}

} // namespace

TEST_CASE("assembly set with a second compiler: assemblies whose references are built compile "
          "two at a time, each after what it references, and the first compile is the first "
          "compiler's and prepares the next set") {
    SharedRecord record;
    PairedCompiler first(record, 1), second(record, 2);
    const AssemblySetResult result = buildAssemblySet(first, &second, coreLeavesAndScripts());
    REQUIRE_MESSAGE(result.success, describe(result));
    CHECK(outcomesOf(result) == std::vector<AssemblyOutcome>(6, AssemblyOutcome::Built));
    CHECK(record.mostAtOnce == 2);
    REQUIRE(record.order.size() == 6);
    CHECK(record.order[0].first == 1);
    CHECK(record.order[0].second.output.stem() == "Core");
    CHECK(record.order[0].second.prepareNext);
    CHECK(std::ranges::count_if(record.order, [](const auto& o) { return o.second.prepareNext; }) ==
          1);
    CHECK(std::ranges::count_if(record.order, [](const auto& o) { return o.first == 2; }) >= 1);
    for (const char* leaf : {"L1", "L2", "L3", "L4"})
        CHECK(record.spans[leaf].first > record.spans["Core"].second);
    for (const char* leaf : {"L1", "L2", "L3", "L4"})
        CHECK(record.spans["Scripts"].first > record.spans[leaf].second);
    // Scripts references every leaf: it compiled against all their new outputs.
    const CompileRequest& scripts = record.order.back().second;
    CHECK(scripts.output.stem() == "Scripts");
    CHECK(scripts.references.size() == 5);
}

TEST_CASE("assembly set with a second compiler: a failure ends the set (what needs the failed "
          "assembly never compiles) and the failed assembly is the set's last compiled") {
    SharedRecord record;
    record.fail = "L1";
    PairedCompiler first(record, 1), second(record, 2);
    const AssemblySetResult result = buildAssemblySet(first, &second, coreLeavesAndScripts());
    CHECK_FALSE(result.success);
    CHECK(result.failedAssembly == "L1");
    REQUIRE(result.lastCompiled() != nullptr);
    CHECK(result.lastCompiled()->name == "L1");
    CHECK(result.find("Scripts")->outcome == AssemblyOutcome::NotBuilt);
    // Scripts references L1: it never became ready, so it never compiled.
    CHECK_FALSE(record.spans.contains("Scripts"));
}
