// ModuleReloader: a real game module (tests/host/modules/support/probe_module.cpp) reloaded in a
// real ScriptHost from a library file in a temp folder: a new build swapped in with the module's
// state handed over and a script reload asked for, a file that is no module refused while the
// running build goes on, a build that crashes in its first frames rolled back, and a rewritten
// file picked up by the watch once it has settled.
#include "../../support/test_support.hpp"
#include "../support/mono_test_support.hpp"
#include "host/modules/module_reloader.hpp"

#include <filesystem>
#include <fstream>

using namespace scripthost;
using namespace scripthost::testing;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

struct ReloaderFixture {
    TempDir dir{"module-reloader"};
    std::unique_ptr<ScriptHost> host = makeHost();
    fs::path library = dir / "libprobe.so";
    int scriptReloads = 0;
    std::vector<ModuleReloadReport> reports;
    std::unique_ptr<ModuleReloader> reloader;

    explicit ReloaderFixture(bool watch = false) {
        fs::copy_file(PROBE_GAME_MODULE, library);
        // The first build is loaded from a copy too, as the daemon does, so the file stays free
        // to be rewritten.
        fs::copy_file(PROBE_GAME_MODULE, dir / "libprobe.first.so");
        auto first = GameModuleHost::load(library, *host, dir / "libprobe.first.so");
        REQUIRE_MESSAGE(first, (first ? "" : first.error().message));
        ModuleReloaderOptions options;
        options.copies = dir / "copies";
        options.watch = watch;
        options.settle = 100ms;
        options.rollbackFrames = 10;
        reloader = std::make_unique<ModuleReloader>(std::move(*first), *host, options,
                                                    [this] { ++scriptReloads; });
        reloader->onReport = [this](const ModuleReloadReport& r) { reports.push_back(r); };
    }

    void runFrames(int count) {
        const game::FrameTime time{};
        for (int i = 0; i < count; ++i)
            reloader->current().runSystems(game::SystemPhase::BeforeScripts, time);
    }
};

} // namespace

TEST_CASE("ModuleReloader: a new build is swapped in with the module's state and a script reload") {
    ReloaderFixture f;
    CHECK(f.reloader->generation() == 1);
    f.runFrames(5);
    const std::string before = f.reloader->current().saveState().value_or("");
    REQUIRE_FALSE(before.empty());
    GameModuleHost* old = &f.reloader->current();

    const ModuleReloadReport report = f.reloader->reloadNow(20);
    INFO(report.message);
    CHECK(report.outcome == ModuleReloadReport::Outcome::Swapped);
    CHECK(report.ok());
    CHECK(report.stateCarried);
    CHECK(report.generation == 2);
    CHECK(f.reloader->generation() == 2);
    CHECK(&f.reloader->current() != old);
    // The new build is a library of its own (a private copy) that took the old one's count.
    CHECK(f.reloader->current().saveState().value_or("") == before);
    f.runFrames(1);
    CHECK(f.reloader->current().saveState().value_or("") != before);
    CHECK(old->saveState().value_or("") == before); // the old build's own statics
    CHECK(f.scriptReloads == 1);
    REQUIRE(f.reports.size() == 1);
    CHECK(f.reports[0].message == report.message);
    CHECK(fs::exists(f.dir / "copies" / "libprobe.2.so"));
}

TEST_CASE("ModuleReloader: a library file that is no module is refused and the running build "
          "goes on") {
    ReloaderFixture f;
    {
        std::ofstream garbage(f.library, std::ios::trunc);
        garbage << "not a library";
    }
    const ModuleReloadReport report = f.reloader->reloadNow(3);
    CHECK(report.outcome == ModuleReloadReport::Outcome::Failed);
    CHECK_FALSE(report.ok());
    CHECK_MESSAGE(report.message.find("build 1 keeps running") != std::string::npos,
                  report.message);
    CHECK(report.message.find("not an ELF shared library") != std::string::npos);
    CHECK(f.reloader->generation() == 1);
    CHECK(f.scriptReloads == 0);
    CHECK(f.reloader->current().crashed().empty());
}

TEST_CASE("ModuleReloader: a build that crashes in its first frames is rolled back to the "
          "previous one") {
    ReloaderFixture f;
    GameModuleHost* first = &f.reloader->current();
    REQUIRE(f.reloader->reloadNow(100).ok());
    f.host->input().set("Crash", 1.0F);
    f.reloader->current().runSystems(game::SystemPhase::AfterScripts, game::FrameTime{});
    f.host->input().set("Crash", 0.0F);
    REQUIRE_FALSE(f.reloader->current().crashed().empty());

    const auto report = f.reloader->update(105); // within rollbackFrames (10) of the swap
    REQUIRE(report.has_value());
    INFO(report->message);
    CHECK(report->outcome == ModuleReloadReport::Outcome::RolledBack);
    CHECK(report->generation == 1);
    CHECK(f.reloader->generation() == 1);
    CHECK(&f.reloader->current() == first);
    CHECK(f.reloader->current().crashed().empty());
    CHECK(f.scriptReloads == 2); // the swap's and the rollback's
}

TEST_CASE("ModuleReloader: a crash long after the swap is not rolled back") {
    ReloaderFixture f;
    REQUIRE(f.reloader->reloadNow(100).ok());
    f.host->input().set("Crash", 1.0F);
    f.reloader->current().runSystems(game::SystemPhase::AfterScripts, game::FrameTime{});
    CHECK_FALSE(f.reloader->update(500).has_value());
    CHECK(f.reloader->generation() == 2);
}

TEST_CASE("ModuleReloader: a rewritten library file is reloaded by the watch once it has "
          "settled") {
    ReloaderFixture f(/*watch=*/true);
    std::int64_t frame = 0;
    CHECK_FALSE(f.reloader->update(++frame).has_value()); // unchanged
    fs::remove(f.library); // as a linker replacing the file does
    fs::copy_file(PROBE_GAME_MODULE, f.library);
    std::optional<ModuleReloadReport> report;
    REQUIRE(waitUntil([&] { return (report = f.reloader->update(++frame)).has_value(); }, 10s));
    INFO(report->message);
    CHECK(report->outcome == ModuleReloadReport::Outcome::Swapped);
    CHECK(f.reloader->generation() == 2);
    // Once taken, the same file is not taken again.
    const auto settled = std::chrono::steady_clock::now() + 500ms;
    while (std::chrono::steady_clock::now() < settled)
        CHECK_FALSE(f.reloader->update(++frame).has_value());
}

TEST_CASE("ModuleReloader: a private copy is named after the build and holds the library's "
          "bytes") {
    TempDir dir("module-copy");
    auto copy = ModuleReloader::privateCopy(PROBE_GAME_MODULE, dir / "copies", 7);
    REQUIRE_MESSAGE(copy, (copy ? "" : copy.error().message));
    const fs::path source = PROBE_GAME_MODULE;
    CHECK(copy->filename().string() == source.stem().string() + ".7" + source.extension().string());
    CHECK(fs::file_size(*copy) == fs::file_size(source));
    CHECK(readFile(*copy) == readFile(source));
    auto missing = ModuleReloader::privateCopy(dir / "nothing.so", dir / "copies", 8);
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("cannot copy") != std::string::npos);
}
