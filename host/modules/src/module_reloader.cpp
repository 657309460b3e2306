#include "host/modules/module_reloader.hpp"

#include "host/engine/script_host.hpp"
#include "host/modules/library_watch.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

/// `<copies>/<stem>.<build><extension>`: a name of its own for each build (the loader caches
/// by path).
fs::path copyPathFor(const fs::path& library, const fs::path& copies, std::uint32_t build) {
    return copies /
           fmt::format("{}.{}{}", library.stem().string(), build, library.extension().string());
}

/// "; 3 native script(s) carried, …" when the module has native scripts, else "".
std::string nativeScriptsText(const NativeScriptCarry& carry) {
    if (carry.carried + carry.parked + carry.revived + carry.problems.size() == 0)
        return {};
    return "; " + carry.describe();
}

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

ModuleReloader::ModuleReloader(std::unique_ptr<GameModuleHost> first, ScriptHost& host,
                               ModuleReloaderOptions options, std::function<void()> reloadScripts)
    : host_(host), options_(std::move(options)),
      reloadScripts_(std::move(reloadScripts)), current_{std::move(first), 1} {
    if (options_.watch)
        watch_ = std::make_unique<LibraryWatch>(
            current_.module->path(),
            LibraryWatchOptions{options_.completionEvents, options_.settle});
}

ModuleReloader::~ModuleReloader() = default;

Result<fs::path> ModuleReloader::privateCopy(const fs::path& library, const fs::path& copies,
                                             std::uint32_t build) {
    std::error_code ec;
    fs::create_directories(copies, ec);
    const fs::path copy = copyPathFor(library, copies, build);
    if (!ec)
        fs::copy_file(library, copy, fs::copy_options::overwrite_existing, ec);
    if (ec)
        return fail("cannot copy " + library.string() + " to " + copy.string() + ": " +
                    ec.message());
    return copy;
}

std::optional<ModuleReloadReport> ModuleReloader::update(std::int64_t frame) {
    if (!current_.module->crashed().empty() && previous_.module &&
        frame - swappedAtFrame_ <= options_.rollbackFrames) {
        return publish(rollBack());
    }
    if (!watch_)
        return std::nullopt;
    const auto now = Clock::now();
    if (watch_->poll(now) == LibraryWatch::Ready::No)
        return std::nullopt;
    const auto started = Clock::now();
    const Copied copy = copyNextBuild();
    if (!copy && copy.error().reason == LibraryCopyRefusal::Reason::BeingWritten) {
        watch_->stillBeingWritten(now); // a second writer: its close comes later
        return std::nullopt;
    }
    watch_->taken(copy ? std::optional(copy->stamp) : copy.error().stamp);
    return publish(swapIn(frame, copy, started));
}

ModuleReloadReport ModuleReloader::reloadNow(std::int64_t frame) {
    const auto started = Clock::now();
    const Copied copy = copyNextBuild();
    if (watch_ && (copy || copy.error().reason != LibraryCopyRefusal::Reason::BeingWritten))
        watch_->taken(copy ? std::optional(copy->stamp) : copy.error().stamp);
    return publish(swapIn(frame, copy, started));
}

ModuleReloader::Copied ModuleReloader::copyNextBuild() const {
    const fs::path& library = current_.module->path();
    return copyLibraryBuild(library, copyPathFor(library, options_.copies, builds_ + 1));
}

ModuleReloadReport ModuleReloader::swapIn(std::int64_t frame, const Copied& copy,
                                          Clock::time_point started) {
    GameModuleHost& running = *current_.module;
    const fs::path& library = running.path();
    ModuleReloadReport report;
    report.generation = current_.generation;
    auto refuse = [&](std::string why) {
        // The new build may have registered some of its internal calls before it failed.
        running.registerInternalCallsAgain();
        report.outcome = ModuleReloadReport::Outcome::Failed;
        report.message = fmt::format("module reload failed, build {} keeps running: {}",
                                     current_.generation, why);
        report.milliseconds = millisecondsSince(started);
        return report;
    };
    if (!copy)
        return refuse(copy.error().message);

    const std::uint32_t generation = ++builds_; // the copy's name is taken, loaded or not
    auto loaded = GameModuleHost::load(library, host_, copy->path);
    if (!loaded)
        return refuse(loaded.error().message);
    std::unique_ptr<GameModuleHost> next = std::move(*loaded);

    // The module's own state: from the running build to the new one, when both take part
    // and the running one has not crashed (its state would not be trusted).
    if (running.carriesState() && next->carriesState() && running.crashed().empty()) {
        auto state = running.saveState();
        if (!state)
            return refuse(state.error().message);
        if (auto restored = next->restoreState(*state); !restored)
            return refuse(restored.error().message);
        report.stateCarried = true;
    }

    if (previous_.module)
        retired_.push_back(std::move(previous_.module));
    previous_ = std::move(current_);
    current_ = {std::move(next), generation};
    swappedAtFrame_ = frame;
    host_.setGameModuleName(current_.module->name());
    report.nativeScripts = current_.module->activateNativeScripts();
    // The next script generation binds the internal calls (and the native scripts' proxies)
    // to this build.
    reloadScripts_();

    report.outcome = ModuleReloadReport::Outcome::Swapped;
    report.generation = generation;
    report.milliseconds = millisecondsSince(started);
    report.message = fmt::format(
        "module {} {} build {} swapped in ({}{}); reloading the scripts so their internal calls "
        "bind to it",
        current_.module->name(), current_.module->version(), generation,
        report.stateCarried                ? "its state handed over"
        : !current_.module->carriesState() ? "it starts fresh: it has no SCRIPTHOST_GAME_STATE"
        : !previous_.module->crashed().empty()
            ? "it starts fresh: the previous build had crashed"
            : "it starts fresh: the previous build had no SCRIPTHOST_GAME_STATE",
        nativeScriptsText(report.nativeScripts));
    return report;
}

ModuleReloadReport ModuleReloader::rollBack() {
    const auto started = Clock::now();
    const std::string crash = current_.module->crashed();
    const std::uint32_t crashed = current_.generation;
    retired_.push_back(std::move(current_.module)); // still mapped: scripts may call into it
    current_ = std::move(previous_);
    previous_ = {};
    current_.module->registerInternalCallsAgain();
    host_.setGameModuleName(current_.module->name());
    ModuleReloadReport report;
    report.nativeScripts = current_.module->activateNativeScripts();
    reloadScripts_();
    report.outcome = ModuleReloadReport::Outcome::RolledBack;
    report.generation = current_.generation;
    report.milliseconds = millisecondsSince(started);
    report.message = fmt::format("module build {} crashed within {} frames of its swap ({}); "
                                 "build {} is running again{}",
                                 crashed, options_.rollbackFrames, crash, current_.generation,
                                 nativeScriptsText(report.nativeScripts));
    return report;
}

ModuleReloadReport ModuleReloader::publish(ModuleReloadReport report) {
    if (report.ok())
        spdlog::info("{} ({:.1f} ms)", report.message, report.milliseconds);
    else if (report.outcome == ModuleReloadReport::Outcome::RolledBack)
        spdlog::warn("{}", report.message);
    else
        spdlog::error("{}", report.message);
    if (onReport)
        onReport(report);
    return report;
}

} // namespace scripthost
