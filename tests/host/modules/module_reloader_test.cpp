// ModuleReloader: a real game module (tests/host/modules/support/probe_module.cpp) reloaded in a
// real ScriptHost from a library file in a temp folder: a new build swapped in with the module's
// state handed over and a script reload asked for, a file that is no module refused while the
// running build goes on, a build that crashes in its first frames rolled back; and the watch:
// a build copied over the library or renamed into place swapped in as soon as it is closed (the
// settle time set to 10 s, so only that can pass), a half-written library never loaded while
// its writer — or a second one — still has it open, a library cut short by a writer that died
// refused, and without events a rewritten file picked up once it has settled.
#include "../../support/test_support.hpp"
#include "../support/mono_test_support.hpp"
#include "host/modules/module_reloader.hpp"
#include "posix/unique_fd.hpp"

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

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

    /// `settle`: with events, long enough that only a close or a rename can swap a build in
    /// within a test's deadlines.
    explicit ReloaderFixture(bool watch = false, bool events = true,
                             std::chrono::milliseconds settle = 10s) {
        fs::copy_file(PROBE_GAME_MODULE, library);
        // The first build is loaded from a copy too, as the daemon does, so the file stays free
        // to be rewritten.
        fs::copy_file(PROBE_GAME_MODULE, dir / "libprobe.first.so");
        auto first = GameModuleHost::load(library, *host, dir / "libprobe.first.so");
        REQUIRE_MESSAGE(first, (first ? "" : first.error().message));
        ModuleReloaderOptions options;
        options.copies = dir / "copies";
        options.watch = watch;
        options.completionEvents = events;
        options.settle = settle;
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

    std::int64_t frame = 0;
    /// Calls update() every frame (2 ms apart) until it reports, at most `timeout`.
    std::optional<ModuleReloadReport> updateUntilReport(std::chrono::milliseconds timeout) {
        std::optional<ModuleReloadReport> report;
        waitUntil([&] { return (report = reloader->update(++frame)).has_value(); }, timeout);
        return report;
    }
    /// Calls update() every frame for `span`: the one bounded wait that is an assertion.
    void expectNoReportFor(std::chrono::milliseconds span) {
        const auto end = std::chrono::steady_clock::now() + span;
        while (std::chrono::steady_clock::now() < end) {
            const auto report = reloader->update(++frame);
            REQUIRE_MESSAGE(!report.has_value(), (report ? report->message : ""));
            std::this_thread::sleep_for(2ms);
        }
    }
};

void writeAll(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
        REQUIRE(wrote > 0);
        bytes.remove_prefix(static_cast<std::size_t>(wrote));
    }
}

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

TEST_CASE("ModuleReloader: a build copied over the library is swapped in once closed - without "
          "waiting for the settle time") {
    ReloaderFixture f(/*watch=*/true);
    CHECK_FALSE(f.reloader->update(++f.frame).has_value()); // unchanged
    const auto copied = std::chrono::steady_clock::now();
    fs::copy_file(PROBE_GAME_MODULE, f.library, fs::copy_options::overwrite_existing);
    const auto report = f.updateUntilReport(5s);
    REQUIRE(report.has_value());
    INFO(report->message);
    CHECK(report->outcome == ModuleReloadReport::Outcome::Swapped);
    CHECK(std::chrono::steady_clock::now() - copied < 5s); // settle: 10 s
    CHECK(f.reloader->generation() == 2);
    CHECK(f.scriptReloads == 1);
    // Once taken, the same file is not taken again.
    f.expectNoReportFor(500ms);
}

TEST_CASE("ModuleReloader: a build renamed into place is swapped in at once") {
    ReloaderFixture f(/*watch=*/true);
    fs::copy_file(PROBE_GAME_MODULE, f.dir / "libprobe.so.tmp");
    fs::rename(f.dir / "libprobe.so.tmp", f.library);
    const auto report = f.updateUntilReport(5s);
    REQUIRE(report.has_value());
    INFO(report->message);
    CHECK(report->outcome == ModuleReloadReport::Outcome::Swapped);
    CHECK(f.reloader->generation() == 2);
}

TEST_CASE("ModuleReloader: a half-written library is never loaded - the rest written and closed, "
          "it is swapped in") {
    ReloaderFixture f(/*watch=*/true);
    const std::string bytes = readFile(PROBE_GAME_MODULE);
    posix::UniqueFd writer(::open(f.library.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC));
    REQUIRE(writer);
    writeAll(writer.get(), std::string_view(bytes).substr(0, bytes.size() / 2));
    f.expectNoReportFor(1s); // neither loaded nor refused
    CHECK(f.reloader->generation() == 1);
    writeAll(writer.get(), std::string_view(bytes).substr(bytes.size() / 2));
    writer.reset();
    const auto report = f.updateUntilReport(5s);
    REQUIRE(report.has_value());
    INFO(report->message);
    CHECK(report->outcome == ModuleReloadReport::Outcome::Swapped);
    CHECK(f.reloader->generation() == 2);
}

TEST_CASE("ModuleReloader: a library a second writer still has open is not loaded until the last "
          "writer closes it") {
    ReloaderFixture f(/*watch=*/true);
    const std::string bytes = readFile(PROBE_GAME_MODULE);
    posix::UniqueFd second(::open(f.library.c_str(), O_WRONLY | O_CLOEXEC));
    REQUIRE(second);
    {
        posix::UniqueFd first(::open(f.library.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC));
        REQUIRE(first);
        writeAll(first.get(), bytes);
    } // the first writer's close: the library is whole, but the second still writes
    f.expectNoReportFor(1s);
    CHECK(f.reloader->generation() == 1);
    writeAll(second.get(), bytes.substr(0, 4)); // rewrites the ELF magic: the same bytes
    second.reset();
    const auto report = f.updateUntilReport(5s);
    REQUIRE(report.has_value());
    INFO(report->message);
    CHECK(report->outcome == ModuleReloadReport::Outcome::Swapped);
    CHECK(f.reloader->generation() == 2);
}

TEST_CASE("ModuleReloader: a library cut short by a writer that died is refused and the running "
          "build goes on") {
    ReloaderFixture f(/*watch=*/true);
    const std::string bytes = readFile(PROBE_GAME_MODULE);
    // A writer killed mid-write: the kernel closes its file, and the close looks like the end
    // of a build. Loading it would map pages past the end of the file (SIGBUS in dlopen).
    writeFile(f.library, bytes.substr(0, bytes.size() / 2));
    const auto refused = f.updateUntilReport(5s);
    REQUIRE(refused.has_value());
    INFO(refused->message);
    CHECK(refused->outcome == ModuleReloadReport::Outcome::Failed);
    CHECK(refused->message.find("build 1 keeps running") != std::string::npos);
    CHECK(refused->message.find("is cut short") != std::string::npos);
    CHECK(f.reloader->generation() == 1);
    CHECK(f.scriptReloads == 0);
    f.runFrames(1); // the running build goes on
    CHECK(f.reloader->current().crashed().empty());
    // The next build, whole, is swapped in.
    fs::copy_file(PROBE_GAME_MODULE, f.library, fs::copy_options::overwrite_existing);
    const auto swapped = f.updateUntilReport(5s);
    REQUIRE(swapped.has_value());
    CHECK_MESSAGE(swapped->outcome == ModuleReloadReport::Outcome::Swapped, swapped->message);
    CHECK(f.reloader->generation() == 2);
}

TEST_CASE("ModuleReloader: without events a rewritten library file is reloaded once it has "
          "settled") {
    ReloaderFixture f(/*watch=*/true, /*events=*/false, /*settle=*/300ms);
    CHECK_FALSE(f.reloader->update(++f.frame).has_value()); // unchanged
    fs::remove(f.library);                                  // as a linker replacing the file does
    fs::copy_file(PROBE_GAME_MODULE, f.library);
    const auto copied = std::chrono::steady_clock::now();
    const auto report = f.updateUntilReport(10s);
    REQUIRE(report.has_value());
    INFO(report->message);
    CHECK(report->outcome == ModuleReloadReport::Outcome::Swapped);
    CHECK(std::chrono::steady_clock::now() - copied >= 300ms);
    CHECK(f.reloader->generation() == 2);
    // Once taken, the same file is not taken again.
    f.expectNoReportFor(500ms);
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
