// bench_assembly_set [--runs N] [--pause-ms N] [--files-per-assembly N] [--script-core PATH]
//                    [--no-prepare]
// Warm build time of script assemblies by folder (buildAssemblySet) against one assembly, on
// a generated project: Core and 19 leaves that reference it (100 files each: 2,000 files in
// 20 assemblies), and the same with 7 loose files beside them (the default assembly, Scripts,
// which references all 20). Each timed build is an edit of one file, made after the compile
// server did its between-saves work (WarmCompiler::settle, or --pause-ms of real idle time):
//   single, 7 files        — one CompileRequest of a 7-file project (the baseline)
//   single, leaf's files   — one CompileRequest of a leaf's 100 files against Core.dll
//   set, leaf edit         — buildAssemblySet rebuilding that leaf alone
//   set, leaf + Scripts    — the same with the default assembly: the leaf, then Scripts
//   set, core edit         — Core, then the 19 leaves against the new Core
//   single, 2,000 files    — every file as one assembly (what the host builds today)
// For each case: the median of the whole build, of its first compile and of each later one
// (a set's), and how many compiles used references imported ahead. --no-prepare: a server
// that never imports ahead (the baseline). Not a test: the figures depend on the machine and
// its load.

#include "compiler_bridge/assembly_set_build.hpp"
#include "compiler_bridge/compile_failure.hpp"
#include "compiler_bridge/output_generations.hpp"
#include "compiler_bridge/source_files.hpp"
#include "compiler_bridge/warm_compiler.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fmt/core.h>
#include <fstream>
#include <functional>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace scripthost;
using Clock = std::chrono::steady_clock;
constexpr int kLeaves = 19;

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

std::string coreSource(int index, int edit) {
    return fmt::format(
        "using System.Collections.Generic;\nnamespace Game.Core {{\n"
        "  public class Core{0} {{\n    public int Counter;\n"
        "    public List<float> Values = new List<float>();\n"
        "    public virtual int Step(int x) {{ Counter += x * {1}; return Counter; "
        "}}\n    public float Sum() {{ float s = 0; foreach (var v in Values) s += v; "
        "return s + {2}; }}\n  }}\n}}\n",
        index, index % 7 + 1, edit);
}

std::string leafSource(int leaf, int index, int edit) {
    return fmt::format(
        "using System;\nusing Game.Core;\nnamespace Game.Leaf{0} {{\n"
        "  public class Leaf{0}Script{1} : Core{2} {{\n"
        "    public Core{3} Other = new Core{3}();\n"
        "    public override int Step(int x) {{ return base.Step(x) + Other.Step({4}); "
        "}}\n    public override string ToString() {{ return \"L{0}S{1}:\" + Counter; "
        "}}\n  }}\n}}\n",
        leaf, index, index % 100, (index + leaf) % 100, edit);
}

std::string looseSource(int index, int edit) {
    return fmt::format("namespace Game {{\n  public class Loose{0} {{\n"
                       "    public Leaf1.Leaf1Script{0} Script = new Leaf1.Leaf1Script{0}();\n"
                       "    public int Run() {{ return Script.Step({1}); }}\n  }}\n}}\n",
                       index, edit);
}

/// The generated project: <root>/Core, <root>/Leaf<k> (k = 1..19), and `loose` files at the root.
fs::path makeProject(const fs::path& root, int perAssembly, int loose) {
    write(root / "Core" / "Core.asmdef", R"({ "name": "Core" })");
    for (int i = 0; i < perAssembly; ++i)
        write(root / "Core" / fmt::format("Core{}.cs", i), coreSource(i, 0));
    for (int leaf = 1; leaf <= kLeaves; ++leaf) {
        const fs::path folder = root / fmt::format("Leaf{}", leaf);
        write(folder / fmt::format("Leaf{}.asmdef", leaf),
              fmt::format(R"({{ "name": "Leaf{}", "references": ["Core"] }})", leaf));
        for (int i = 0; i < perAssembly; ++i)
            write(folder / fmt::format("Leaf{}Script{}.cs", leaf, i), leafSource(leaf, i, 0));
    }
    for (int i = 0; i < loose; ++i)
        write(root / fmt::format("Loose{}.cs", i), looseSource(i, 0));
    return root;
}

/// Medians and how many measured builds used references imported ahead.
struct Samples {
    std::vector<double> ms;
    std::vector<double> firstMs; ///< each build's first compile (CompileResult::duration)
    std::vector<double> laterMs; ///< each later compile of a set
    int prepared = 0; ///< builds (every compile of a set) whose references were imported ahead
    int compiles = 0;
    [[nodiscard]] static double median(std::vector<double> sorted) {
        std::sort(sorted.begin(), sorted.end());
        const std::size_t n = sorted.size();
        return n == 0 ? 0 : n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
    [[nodiscard]] double median() const { return median(ms); }
};

/// What one timed build did: its compiles' durations and how many were prepared.
struct Built {
    std::vector<double> compileMs;
    int prepared = 0;
};

struct Bench {
    compiler::WarmCompiler& warm;
    compiler::OutputGenerations generations;
    std::vector<fs::path> references;
    int runs = 10;
    std::chrono::milliseconds pause{0};

    /// Runs `edit` then (untimed) the server's idle work, then times `build`, runs + 2 times.
    Samples measure(const std::function<void(int)>& edit, const std::function<Built()>& build) {
        Samples samples;
        for (int run = -2; run < runs; ++run) {
            edit(run + 100);
            if (pause.count() > 0)
                std::this_thread::sleep_for(pause);
            else
                (void)warm.settle();
            const auto started = Clock::now();
            const Built built = build();
            if (run >= 0) {
                samples.ms.push_back(
                    std::chrono::duration<double, std::milli>(Clock::now() - started).count());
                samples.prepared += built.prepared;
                samples.compiles += static_cast<int>(built.compileMs.size());
                samples.firstMs.push_back(built.compileMs.front());
                samples.laterMs.insert(samples.laterMs.end(), built.compileMs.begin() + 1,
                                       built.compileMs.end());
            }
        }
        return samples;
    }

    /// One CompileRequest of `sources`.
    Built single(const std::vector<fs::path>& sources, const std::vector<fs::path>& extra = {}) {
        compiler::CompileRequest request;
        request.sources = sources;
        request.references = references;
        request.references.insert(request.references.end(), extra.begin(), extra.end());
        request.output = generations.nextFolder() / "Scripts.dll";
        const compiler::CompileResult result = warm.compile(request);
        if (!result.success || result.backend != compiler::Backend::Warm)
            throw std::runtime_error(compiler::failureText(result) + result.fallbackReason);
        return {{static_cast<double>(result.duration.count())}, result.referencesPrepared ? 1 : 0};
    }

    /// One set build; `previous` becomes its outputs.
    Built set(const compiler::AssemblyLayout& layout, std::vector<std::string> rebuild,
              std::map<std::string, fs::path>& previous) {
        compiler::AssemblySetRequest request;
        request.layout = layout;
        request.rebuild = std::move(rebuild);
        request.previous = previous;
        request.references = references;
        request.outputFolder = generations.nextFolder();
        const compiler::AssemblySetResult result = compiler::buildAssemblySet(warm, request);
        if (!result.success) {
            throw std::runtime_error(
                result.error +
                (result.failed() ? compiler::failureText(*result.failed()->result) : ""));
        }
        Built built;
        for (const compiler::AssemblyBuild& assembly : result.assemblies) {
            if (!assembly.result)
                continue;
            built.compileMs.push_back(static_cast<double>(assembly.result->duration.count()));
            built.prepared += assembly.result->referencesPrepared ? 1 : 0;
            if (assembly.result->backend != compiler::Backend::Warm)
                throw std::runtime_error("a build fell back to cold");
        }
        previous = result.outputs();
        return built;
    }
};

compiler::AssemblyLayout layoutOf(const fs::path& root) {
    auto layout = compiler::readAssemblyLayout({root});
    if (!layout)
        throw std::runtime_error(layout.error().message);
    return std::move(*layout);
}

/// The outputs' times a minute back: the server prepares no import with an assembly written in
/// the last second, and the timed builds here come faster than saves.
void age(const std::map<std::string, fs::path>& outputs) {
    for (const auto& [name, dll] : outputs)
        fs::last_write_time(dll, fs::file_time_type::clock::now() - std::chrono::minutes(1));
}

struct Row {
    std::string what;
    Samples samples;
};

std::vector<Row> run(Bench& bench, const fs::path& scratch, int perAssembly) {
    std::vector<Row> rows;
    const fs::path small = scratch / "small";
    for (int i = 0; i < 7; ++i)
        write(small / fmt::format("Script{}.cs", i), coreSource(i, 0));
    const auto smallSources = compiler::collectSources(small);
    rows.push_back(
        {"single, 7 files",
         bench.measure([&](int edit) { write(small / "Script0.cs", coreSource(0, edit)); },
                       [&] { return bench.single(smallSources); })});

    const fs::path root = makeProject(scratch / "project", perAssembly, 0);
    const compiler::AssemblyLayout layout = layoutOf(root);
    std::map<std::string, fs::path> previous;
    (void)bench.set(layout, {}, previous); // from nothing
    age(previous);
    const fs::path edited = root / "Leaf1" / "Leaf1Script0.cs";
    auto editLeaf = [&](int edit) { write(edited, leafSource(1, 0, edit)); };
    const auto leafSources = layout.find("Leaf1")->sources;
    const fs::path core = previous.at("Core");
    rows.push_back({"single, leaf's files",
                    bench.measure(editLeaf, [&] { return bench.single(leafSources, {core}); })});
    rows.push_back({"set, leaf edit", bench.measure(editLeaf, [&] {
                        return bench.set(layout, {"Leaf1"}, previous);
                    })});
    rows.push_back(
        {"set, core edit",
         bench.measure([&](int edit) { write(root / "Core" / "Core0.cs", coreSource(0, edit)); },
                       [&] { return bench.set(layout, {"Core"}, previous); })});

    const fs::path withLoose = makeProject(scratch / "with-loose", perAssembly, 7);
    const compiler::AssemblyLayout looseLayout = layoutOf(withLoose);
    std::map<std::string, fs::path> loosePrevious;
    (void)bench.set(looseLayout, {}, loosePrevious);
    age(loosePrevious);
    rows.push_back({"set, leaf + Scripts",
                    bench.measure(
                        [&](int edit) {
                            write(withLoose / "Leaf1" / "Leaf1Script0.cs", leafSource(1, 0, edit));
                        },
                        [&] { return bench.set(looseLayout, {"Leaf1"}, loosePrevious); })});

    const auto allSources = compiler::collectSources(root);
    rows.push_back(
        {"single, 2,000 files", bench.measure(editLeaf, [&] { return bench.single(allSources); })});
    return rows;
}

void print(const std::vector<Row>& rows, int runs, const std::string& between, bool noPrepare,
           bool scriptCore) {
    fmt::print("bench_assembly_set: {} runs per case (after 2 unmeasured), {}{}, references: {}\n",
               runs, between, noPrepare ? ", --no-prepare" : "",
               scriptCore ? "ScriptCore.dll, mscorlib" : "mscorlib");
    fmt::print("{:<22} {:>9} {:>9} {:>8} {:>8} {:>9}\n", "case", "median ms", "/ 7 files", "1st ms",
               "later ms", "prepared");
    for (const Row& row : rows) {
        const Samples& s = row.samples;
        fmt::print("{:<22} {:>9.1f} {:>9.2f} {:>8.1f} {:>8} {:>9}\n", row.what, s.median(),
                   s.median() / rows.front().samples.median(), Samples::median(s.firstMs),
                   s.laterMs.empty() ? std::string("-")
                                     : fmt::format("{:.1f}", Samples::median(s.laterMs)),
                   fmt::format("{}/{}", s.prepared, s.compiles));
    }
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Warm builds of script assemblies by folder against one assembly"};
    int runs = 10;
    int pauseMs = 0;
    int perAssembly = 100;
    fs::path scriptCore = compiler::executableDirectory() / "ScriptCore.dll";
    bool noPrepare = false;
    app.add_option("--runs", runs, "Measured runs per case")->capture_default_str();
    app.add_option("--pause-ms", pauseMs,
                   "Idle time before each build instead of WarmCompiler::settle (0: settle)")
        ->capture_default_str();
    app.add_option("--files-per-assembly", perAssembly, "Files of Core and of each leaf")
        ->capture_default_str();
    app.add_option("--script-core", scriptCore, "A reference of every build (none if missing)")
        ->capture_default_str();
    app.add_flag("--no-prepare", noPrepare, "A server that never imports references ahead");
    CLI11_PARSE(app, argc, argv);

    const fs::path scratch =
        fs::temp_directory_path() / fmt::format("scripthost-bench-assembly-set-{}", ::getpid());
    int status = 0;
    try {
        compiler::WarmCompilerOptions options;
        options.prepareReferences = !noPrepare;
        compiler::WarmCompiler warm(options);
        warm.warmUp();
        Bench bench{warm,
                    compiler::OutputGenerations(scratch / "out", "unused"),
                    {},
                    runs,
                    std::chrono::milliseconds(pauseMs)};
        if (fs::exists(scriptCore))
            bench.references.push_back(scriptCore);
        const std::vector<Row> rows = run(bench, scratch, perAssembly);
        print(rows, runs,
              pauseMs > 0 ? fmt::format("{} ms idle before each", pauseMs)
                          : std::string("settled before each"),
              noPrepare, !bench.references.empty());
    } catch (const std::exception& e) {
        fmt::print(stderr, "bench_assembly_set: {}\n", e.what());
        status = 1;
    }
    std::error_code ec;
    fs::remove_all(scratch, ec);
    return status;
}
