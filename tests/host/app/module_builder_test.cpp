// ModuleBuilder: `run --game-build` — a save of a C/C++ source in a real temp folder runs the
// build command (a real /bin/sh child), which is reported with its exit code, the files that
// started it and its output; other files do not start a build.
#include "module_builder.hpp"

#include "../../support/test_support.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

struct BuilderFixture {
    TempDir dir{"module-builder"};
    fs::path sources = dir / "src";
    std::unique_ptr<ModuleBuilder> builder;

    explicit BuilderFixture(const std::string& command) {
        fs::create_directories(sources);
        writeFile(sources / "game.cpp", "int main() {}\n");
        ModuleBuilderOptions options;
        options.command = command;
        options.sources = {sources};
        options.workingDir = dir.path();
        options.log = dir / "logs" / "module-build.log";
        auto started = ModuleBuilder::start(options);
        REQUIRE_MESSAGE(started, (started ? "" : started.error().message));
        builder = std::move(*started);
    }

    /// Calls update() until it reports a build that ended, for at most `limit`.
    std::optional<ModuleBuildReport> nextReport(std::chrono::seconds limit = 20s) {
        std::optional<ModuleBuildReport> report;
        waitUntil([&] { return (report = builder->update()).has_value(); }, limit);
        return report;
    }
};

} // namespace

TEST_CASE("ModuleBuilder: a saved source runs the build command, reported with the file that "
          "started it and its output") {
    BuilderFixture f("echo building; echo done > built.txt");
    CHECK_FALSE(f.builder->building());
    CHECK_FALSE(f.builder->update().has_value()); // nothing changed, nothing built
    writeFile(f.sources / "game.cpp", "int main() { return 1; }\n");
    const auto report = f.nextReport();
    REQUIRE(report.has_value());
    CHECK(report->success);
    CHECK(report->exitCode == 0);
    CHECK(std::find(report->trigger.begin(), report->trigger.end(), "game.cpp") !=
          report->trigger.end());
    CHECK(report->outputTail.find("building") != std::string::npos);
    CHECK(readFile(f.dir / "built.txt") == "done\n"); // run in the working folder
    CHECK(readFile(f.builder->log()).find("building") != std::string::npos);
    CHECK_FALSE(f.builder->building());
}

TEST_CASE("ModuleBuilder: a failing build is reported with its exit code and output") {
    BuilderFixture f("echo 'game.cpp:3: error: expected ;' >&2; exit 3");
    writeFile(f.sources / "physics.hpp", "#pragma once\n");
    const auto report = f.nextReport();
    REQUIRE(report.has_value());
    CHECK_FALSE(report->success);
    CHECK(report->exitCode == 3);
    CHECK(report->outputTail.find("expected ;") != std::string::npos); // stderr too
    CHECK(std::find(report->trigger.begin(), report->trigger.end(), "physics.hpp") !=
          report->trigger.end());
}

TEST_CASE("ModuleBuilder: files that are not C or C++ sources, and build folders, start no build") {
    BuilderFixture f("echo built >> count.txt");
    writeFile(f.sources / "notes.md", "todo\n");
    fs::create_directories(f.sources / "build");
    writeFile(f.sources / "build" / "generated.cpp", "int x;\n");
    const auto quiet = std::chrono::steady_clock::now() + 1500ms;
    while (std::chrono::steady_clock::now() < quiet) {
        CHECK_FALSE(f.builder->update().has_value());
        CHECK_FALSE(f.builder->building());
        std::this_thread::sleep_for(20ms);
    }
    CHECK_FALSE(fs::exists(f.dir / "count.txt"));
    // A source still does.
    writeFile(f.sources / "game.cpp", "int main() { return 2; }\n");
    REQUIRE(f.nextReport().has_value());
    CHECK(readFile(f.dir / "count.txt") == "built\n");
}

TEST_CASE("ModuleBuilder: a command and source folders are required") {
    ModuleBuilderOptions noCommand;
    noCommand.sources = {"."};
    auto refused = ModuleBuilder::start(noCommand);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("needs a command") != std::string::npos);
    ModuleBuilderOptions noSources;
    noSources.command = "make";
    auto alsoRefused = ModuleBuilder::start(noSources);
    REQUIRE_FALSE(alsoRefused);
    CHECK(alsoRefused.error().message.find("--game-sources") != std::string::npos);
}
