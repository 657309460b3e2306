// BuildQueue: builds off the calling thread; only the newest submission's result is delivered.
#include "compiler_bridge/build_queue.hpp"
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "compiler_test_support.hpp"

#include <condition_variable>
#include <doctest/doctest.h>
#include <mutex>

using namespace scripthost::compiler;
using namespace scripthost::testing;
using Clock = std::chrono::steady_clock;

namespace {

/// A compiler whose builds block until the test opens the gate; records what it built.
class GatedCompiler final : public Compiler {
public:
    struct Gate {
        std::mutex mutex;
        std::condition_variable changed;
        bool open = false;
        std::vector<std::filesystem::path> started; // outputs, in build order
    };
    explicit GatedCompiler(std::shared_ptr<Gate> gate) : gate_(std::move(gate)) {}

    CompileResult compile(const CompileRequest& request) override {
        std::unique_lock lock(gate_->mutex);
        gate_->started.push_back(request.output);
        gate_->changed.notify_all();
        gate_->changed.wait(lock, [&] { return gate_->open; });
        CompileResult result;
        result.success = true;
        result.output = request.output;
        return result;
    }
    Backend backend() const noexcept override { return Backend::Cold; }

private:
    std::shared_ptr<Gate> gate_;
};

/// A set of `names`, each referencing the one before it, none built before: all are built.
AssemblySetRequest chainOf(const std::vector<std::string>& names, const std::string& folder) {
    AssemblySetRequest request;
    for (const std::string& name : names) {
        ScriptAssembly assembly;
        assembly.name = name;
        assembly.sources = {name + ".cs"};
        if (!request.layout.assemblies.empty())
            assembly.references = {request.layout.assemblies.back().name};
        request.layout.assemblies.push_back(std::move(assembly));
    }
    request.outputFolder = folder;
    return request;
}

void openGate(GatedCompiler::Gate& gate) {
    {
        std::lock_guard lock(gate.mutex);
        gate.open = true;
    }
    gate.changed.notify_all();
}

CompileRequest requestFor(const std::string& output) {
    CompileRequest request;
    request.sources = {"unused.cs"};
    request.output = output;
    return request;
}

} // namespace

TEST_CASE("queue: a newer submission supersedes the build in flight and the waiting one") {
    auto gate = std::make_shared<GatedCompiler::Gate>();
    BuildQueue queue(std::make_unique<GatedCompiler>(gate));
    const BuildId first = queue.submit(requestFor("first"));
    {
        std::unique_lock lock(gate->mutex);
        REQUIRE(gate->changed.wait_for(lock, std::chrono::seconds(10),
                                       [&] { return gate->started.size() == 1; }));
    }
    // "first" is building; these two queue up, and "third" replaces "second" unbuilt.
    const BuildId second = queue.submit(requestFor("second"));
    const BuildId third = queue.submit(requestFor("third"));
    CHECK(first < second);
    CHECK(second < third);
    CHECK_FALSE(queue.poll().has_value());
    CHECK_FALSE(queue.idle());
    {
        std::lock_guard lock(gate->mutex);
        gate->open = true;
    }
    gate->changed.notify_all();

    const auto finished = queue.waitFor(Clock::now() + std::chrono::seconds(10));
    REQUIRE(finished.has_value());
    CHECK(finished->id == third);
    CHECK(finished->result.output == "third");
    CHECK(waitUntil([&] { return queue.idle(); }));
    CHECK_FALSE(queue.poll().has_value()); // "first" was never delivered
    {
        std::lock_guard lock(gate->mutex);
        CHECK(gate->started == std::vector<std::filesystem::path>{"first", "third"});
    }
    const BuildQueueStats stats = queue.stats();
    CHECK(stats.submitted == 3);
    CHECK(stats.built == 2);
    CHECK(stats.superseded == 2);
    CHECK(stats.delivered == 1);
}

TEST_CASE("queue: a finished result not yet collected is dropped by a newer submission") {
    TempDir dir("queue");
    writeFile(dir / "A.cs", "public class A {}\n");
    BuildQueue queue(std::make_unique<ColdCompiler>());
    const BuildId first = queue.submit(libraryRequest(dir / "1", {dir / "A.cs"}));
    REQUIRE(waitUntil([&] { return queue.stats().built == 1; }, std::chrono::seconds(20)));
    const BuildId second = queue.submit(libraryRequest(dir / "2", {dir / "A.cs"}));
    const auto finished = queue.waitFor(Clock::now() + std::chrono::seconds(20));
    REQUIRE(finished.has_value());
    CHECK(finished->id == second);
    CHECK(finished->id != first);
    CHECK(finished->result.success);
    CHECK(queue.stats().delivered == 1);
}

TEST_CASE("queue: 100 saves within a second end in one correct build of the last save") {
    TempDir dir("queue");
    BuildQueue queue(std::make_unique<WarmCompiler>());
    const auto source = dir / "Script.cs";
    BuildId last = 0;
    for (int i = 0; i < 100; ++i) {
        writeFile(source, "public class Save" + std::to_string(i) +
                              " { public int V = " + std::to_string(i) + "; }\n");
        last = queue.submit(libraryRequest(dir / ("gen" + std::to_string(i)), {source}, "Scripts"));
    }
    std::optional<FinishedBuild> finished;
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (!finished && Clock::now() < deadline) {
        finished = queue.waitFor(deadline);
    }
    REQUIRE(finished.has_value());
    CHECK(finished->id == last);
    REQUIRE_MESSAGE(finished->result.success, describe(finished->result));
    CHECK(fileContains(finished->result.output, "Save99"));
    CHECK(waitUntil([&] { return queue.idle(); }, std::chrono::seconds(30)));
    const BuildQueueStats stats = queue.stats();
    CHECK(stats.submitted == 100);
    CHECK(stats.delivered == 1);
    CHECK(stats.built < 100);
    CHECK(stats.built + stats.superseded >= 100);
}

TEST_CASE("queue: nothing to build is delivered as a clear result") {
    BuildQueue queue(std::make_unique<ColdCompiler>());
    CompileRequest empty;
    empty.output = std::filesystem::temp_directory_path() / "scripthost-never-written" / "X.dll";
    const BuildId id = queue.submit(empty);
    const auto finished = queue.waitFor(Clock::now() + std::chrono::seconds(10));
    REQUIRE(finished.has_value());
    CHECK(finished->id == id);
    CHECK(finished->result.nothingToBuild);
    CHECK_FALSE(finished->result.success);
    CHECK(finished->result.diagnostics.at(0).message.find("nothing to build") != std::string::npos);
}

TEST_CASE("queue: a newer submission stops an assembly set before its next assembly") {
    auto gate = std::make_shared<GatedCompiler::Gate>();
    BuildQueue queue(std::make_unique<GatedCompiler>(gate));
    const BuildId set = queue.submit(chainOf({"Core", "Leaf", "Scripts"}, "old"));
    {
        std::unique_lock lock(gate->mutex);
        REQUIRE(gate->changed.wait_for(lock, std::chrono::seconds(10),
                                       [&] { return gate->started.size() == 1; }));
    }
    // Core is building; a newer set (a save meanwhile) supersedes the rest of this one.
    const BuildId newer = queue.submit(chainOf({"Core", "Leaf"}, "new"));
    openGate(*gate);
    const auto finished = queue.waitFor(Clock::now() + std::chrono::seconds(10));
    REQUIRE(finished.has_value());
    CHECK(finished->id == newer);
    CHECK(newer > set);
    REQUIRE(finished->set.has_value());
    CHECK(finished->set->request.outputFolder == "new");
    CHECK(finished->set->result.success);
    CHECK(finished->set->result.outputs() ==
          std::map<std::string, std::filesystem::path>{{"Core", "new/Core.dll"},
                                                       {"Leaf", "new/Leaf.dll"}});
    // The set's own request and result are its last compile's.
    CHECK(finished->request.output == "new/Leaf.dll");
    CHECK(finished->result.success);
    CHECK(waitUntil([&] { return queue.idle(); }));
    {
        std::lock_guard lock(gate->mutex);
        CHECK(gate->started ==
              std::vector<std::filesystem::path>{"old/Core.dll", "new/Core.dll", "new/Leaf.dll"});
    }
    const BuildQueueStats stats = queue.stats();
    CHECK(stats.built == 2);
    CHECK(stats.setsStopped == 1);
    CHECK(stats.superseded == 1);
    CHECK(stats.delivered == 1);
}

TEST_CASE("queue: a single request after a set is delivered without a set, and a bad set says "
          "why") {
    auto gate = std::make_shared<GatedCompiler::Gate>();
    openGate(*gate);
    BuildQueue queue(std::make_unique<GatedCompiler>(gate));
    AssemblySetRequest bad = chainOf({"Core"}, "out");
    bad.rebuild = {"Nope"};
    (void)queue.submit(bad);
    const auto refused = queue.waitFor(Clock::now() + std::chrono::seconds(10));
    REQUIRE(refused.has_value());
    REQUIRE(refused->set.has_value());
    CHECK_FALSE(refused->result.success);
    CHECK(refused->result.nothingToBuild);
    CHECK(refused->result.diagnostics.at(0).message == refused->set->result.error);
    CHECK(refused->set->result.error.find("Nope") != std::string::npos);

    (void)queue.submit(requestFor("single"));
    const auto single = queue.waitFor(Clock::now() + std::chrono::seconds(10));
    REQUIRE(single.has_value());
    CHECK_FALSE(single->set.has_value());
    CHECK(single->result.output == "single");
    std::lock_guard lock(gate->mutex);
    CHECK(gate->started == std::vector<std::filesystem::path>{"single"});
}

TEST_CASE("queue: an assembly set on the compile server is delivered with every output path") {
    TempDir dir("queue-set");
    writeFile(dir / "Core" / "Core.cs", "namespace Game { public class CoreThing {} }\n");
    writeFile(dir / "Leaf" / "Leaf.cs",
              "namespace Game { public class LeafThing : CoreThing {} }\n");
    AssemblySetRequest request = chainOf({"Core", "Leaf"}, (dir / "gen1").string());
    request.layout.assemblies[0].sources = {dir / "Core" / "Core.cs"};
    request.layout.assemblies[1].sources = {dir / "Leaf" / "Leaf.cs"};
    request.timeout = std::chrono::seconds(30);
    BuildQueue queue(std::make_unique<WarmCompiler>());
    const BuildId id = queue.submit(request);
    const auto finished = queue.waitFor(Clock::now() + std::chrono::seconds(60));
    REQUIRE(finished.has_value());
    CHECK(finished->id == id);
    REQUIRE(finished->set.has_value());
    const AssemblySetResult& result = finished->set->result;
    REQUIRE_MESSAGE(result.success, describe(finished->result));
    CHECK(result.outputs() ==
          std::map<std::string, std::filesystem::path>{{"Core", dir / "gen1" / "Core.dll"},
                                                       {"Leaf", dir / "gen1" / "Leaf.dll"}});
    CHECK(fileContains(dir / "gen1" / "Leaf.dll", "LeafThing"));
    CHECK(finished->result.output == dir / "gen1" / "Leaf.dll");
    CHECK(finished->result.backend == Backend::Warm);
}
