#include "module_builder.hpp"

#include "watcher/source_watcher.hpp"

#include <boost/process.hpp>
#include <fmt/format.h>
#include <fstream>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace bp = boost::process;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

/// The last `lines` lines of a file (at most ~4 KiB of them).
std::string tailOf(const fs::path& file, std::size_t lines) {
    std::ifstream in(file, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.size() > 4096)
        text = text.substr(text.size() - 4096);
    std::size_t start = text.size();
    std::size_t seen = 0;
    while (start > 0) {
        const std::size_t nl = text.rfind('\n', start - 1);
        if (nl == std::string::npos) {
            start = 0;
            break;
        }
        if (nl + 1 < text.size() && ++seen > lines) {
            start = nl + 1;
            break;
        }
        start = nl;
    }
    return text.substr(start);
}

} // namespace

struct ModuleBuilder::Impl {
    ModuleBuilderOptions options;
    std::unique_ptr<watcher::SourceWatcher> watcher;
    std::optional<bp::child> child;
    Clock::time_point started{};
    std::vector<std::string> trigger; // of the build running
    std::vector<std::string> pending; // saves seen since it started

    void startBuild(std::vector<std::string> files) {
        trigger = std::move(files);
        std::error_code ec;
        fs::create_directories(options.log.parent_path(), ec);
        spdlog::info("module sources changed ({}); building: {}",
                     trigger.empty() ? std::string("?") : trigger.front(), options.command);
        started = Clock::now();
        try {
            child.emplace(
                bp::search_path("sh"), bp::args({"-c", options.command}),
                bp::start_dir =
                    (options.workingDir.empty() ? fs::current_path() : options.workingDir).string(),
                bp::std_in.close(), (bp::std_out & bp::std_err) > options.log.string());
        } catch (const std::exception& e) {
            spdlog::error("cannot run the module build command: {}", e.what());
            child.reset();
        }
    }
};

Result<std::unique_ptr<ModuleBuilder>> ModuleBuilder::start(ModuleBuilderOptions options) {
    if (options.command.empty())
        return fail("--game-build needs a command");
    if (options.sources.empty())
        return fail("--game-build needs --game-sources: the folders of the module's C++ sources");
    watcher::WatchOptions watch;
    watch.roots = options.sources;
    watch.filter = watcher::PathFilter({"c", "cc", "cpp", "cxx", "h", "hh", "hpp", "hxx", "inl"},
                                       {"build", ".*"});
    watch.quietWindow = std::chrono::milliseconds(100);
    auto started = watcher::SourceWatcher::start(std::move(watch));
    if (!started)
        return fail("cannot watch the module's sources: " + started.error().message);
    auto impl = std::make_unique<Impl>();
    impl->options = std::move(options);
    impl->watcher = std::move(*started);
    return std::unique_ptr<ModuleBuilder>(new ModuleBuilder(std::move(impl)));
}

ModuleBuilder::ModuleBuilder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ModuleBuilder::~ModuleBuilder() {
    if (impl_ && impl_->child && impl_->child->running()) {
        std::error_code ec;
        impl_->child->terminate(ec); // a build of a host that is going away is not wanted
    }
}

std::vector<std::filesystem::path> ModuleBuilder::missingFolders() const {
    return impl_->watcher ? impl_->watcher->missingRoots() : std::vector<std::filesystem::path>{};
}

bool ModuleBuilder::building() const noexcept {
    return impl_->child.has_value();
}

const fs::path& ModuleBuilder::log() const noexcept {
    return impl_->options.log;
}

std::optional<ModuleBuildReport> ModuleBuilder::update() {
    Impl& m = *impl_;
    while (auto changes = m.watcher->poll()) {
        for (const auto& file : changes->modified)
            m.pending.push_back(file.filename().string());
        for (const auto& file : changes->added)
            m.pending.push_back(file.filename().string());
        for (const auto& file : changes->removed)
            m.pending.push_back(file.filename().string());
        if (changes->rescanned && m.pending.empty())
            m.pending.push_back("(rescan)");
    }
    std::optional<ModuleBuildReport> ended;
    if (m.child) {
        std::error_code ec;
        if (m.child->running(ec) && !ec)
            return std::nullopt;
        m.child->wait(ec);
        ModuleBuildReport report;
        report.exitCode = m.child->exit_code();
        report.success = report.exitCode == 0;
        report.milliseconds =
            std::chrono::duration<double, std::milli>(Clock::now() - m.started).count();
        report.trigger = std::move(m.trigger);
        report.outputTail = tailOf(m.options.log, 12);
        m.child.reset();
        if (report.success)
            spdlog::info("module build succeeded in {:.0f} ms; the host swaps it in once the "
                         "library settles",
                         report.milliseconds);
        else
            spdlog::error("module build failed (exit code {}) in {:.0f} ms; the running build "
                          "goes on. Its output ({}) ends:\n{}",
                          report.exitCode, report.milliseconds, m.options.log.string(),
                          report.outputTail);
        ended = std::move(report);
    }
    if (!m.pending.empty())
        m.startBuild(std::exchange(m.pending, {}));
    return ended;
}

} // namespace scripthost
