// `scripthost smoke`: the whole life of a script project — compile, run, reload N times —
// in one headless process that fails on the first thing that goes wrong.
#include "smoke_command.hpp"

#include "config_file.hpp"
#include "host/reload/reload_transaction.hpp"
#include "junit_report.hpp"
#include "script_project.hpp"
#include "snapshot_comparison.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <spdlog/spdlog.h>

namespace scripthost {

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kFrameSeconds = 1.0 / 60.0; // fixed: smoke runs are reproducible, not paced
constexpr std::size_t kMismatchesShown = 5;
constexpr const char* kJUnitClass = "scripthost.smoke";
// How long one reload may take, build included, before the run fails.
constexpr auto kReloadDeadline = std::chrono::minutes(3);

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string firstLine(std::string_view text) {
    return std::string(text.substr(0, text.find('\n')));
}

double median(std::vector<double> values) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

/// Why a step failed: one line for the verdict and the JUnit message, and the full text.
struct StepFailure {
    std::string reason;
    std::string details;
};
using StepResult = std::optional<StepFailure>; // nullopt: the step passed

/// "File.cs:12: error CS0103: The name `x' does not exist" — file:line: message.
std::string diagnosticLine(const compiler::Diagnostic& d) {
    const std::string message =
        fmt::format("{} {}: {}", d.severity == compiler::Severity::Error ? "error" : "warning",
                    d.code, d.message);
    return d.file.empty() ? message : fmt::format("{}:{}: {}", d.file, d.line, message);
}

/// One smoke run: the steps in order, each recorded as a JUnit case.
class SmokeRun {
public:
    explicit SmokeRun(const SmokeOptions& options) : options_(options) {
        junit_.suiteName = "scripthost smoke";
    }

    /// Runs every step until one fails; returns the exit code. Every planned step is a
    /// JUnit case: those after a failure are reported as skipped.
    int execute() {
        std::vector<std::pair<std::string, std::function<StepResult()>>> steps;
        steps.emplace_back("compile", [&] { return compileFirst(); });
        steps.emplace_back("frames", [&] { return startAndRunFrames(); });
        for (int n = 1; n <= options_.reloads; ++n)
            steps.emplace_back(fmt::format("reload {}", n), [this, n] { return reloadOnce(n); });
        for (auto& [name, body] : steps) {
            if (failure_) {
                junit_.cases.push_back({name, kJUnitClass, 0, JUnitCase::Outcome::Skipped,
                                        "not run: an earlier step failed", ""});
            } else {
                step(name, body);
            }
        }
        return failure_ ? 1 : 0;
    }

    [[nodiscard]] const JUnitReport& junit() const { return junit_; }
    [[nodiscard]] const StepFailure& failure() const { return *failure_; }

    /// The success paragraph.
    [[nodiscard]] std::string summary() const {
        std::string text =
            fmt::format("smoke passed: {} script(s) on {} entit(ies) ran {} frame(s)", scriptCount_,
                        entityCount_, framesRun_);
        if (options_.reloads == 0)
            return text + "; no reloads were asked for (--reloads 0)";
        text += fmt::format(
            " ({} before the first reload, {} after each) and {} reload(s), generation 1 -> {}; "
            "{} serialized field(s) in {} script(s) checked per reload, every value "
            "identical",
            options_.frames, framesBetween(), options_.reloads, generation_, fieldsPerReload_,
            scriptsPerReload_);
        // The reload's stages run one per frame boundary, as in `run`; the swap stage is
        // the one that carries every value, and the one whose frame pays the most.
        text += fmt::format("; reload swap frame median {:.2f} ms, max {:.2f} ms; build median "
                            "{:.0f} ms",
                            median(swapMs_), *std::max_element(swapMs_.begin(), swapMs_.end()),
                            median(buildMs_));
        if (!notCarried_.empty()) {
            text += fmt::format("; {} field(s) of types reloads cannot carry were not checked",
                                notCarried_.size());
        }
        return text;
    }

private:
    // Runs one step as a JUnit case; on failure keeps the reason.
    void step(const std::string& name, const std::function<StepResult()>& body) {
        const auto started = Clock::now();
        StepResult failed = body();
        JUnitCase c;
        c.name = name;
        c.className = kJUnitClass;
        c.seconds = secondsSince(started);
        if (failed) {
            c.outcome = JUnitCase::Outcome::Failed;
            c.message = failed->reason;
            c.details = failed->details.empty() ? failed->reason
                                                : failed->reason + "\n\n" + failed->details;
            failure_ = std::move(failed);
        }
        junit_.cases.push_back(std::move(c));
    }

    [[nodiscard]] std::int64_t framesBetween() const {
        return options_.reloads > 0 ? std::max<std::int64_t>(1, options_.frames / options_.reloads)
                                    : 0;
    }

    // The compiler's errors as a step failure: the first in the reason, all in the details.
    static StepFailure compileFailure(const std::string& what,
                                      const compiler::CompileResult& result) {
        std::vector<std::string> errors;
        for (const compiler::Diagnostic& d : result.diagnostics) {
            if (d.severity == compiler::Severity::Error)
                errors.push_back(diagnosticLine(d));
        }
        StepFailure failed;
        if (errors.empty()) {
            failed.reason = result.timedOut ? what + " error: the compiler timed out"
                                            : what + " error: the build failed";
            failed.details = result.log;
            return failed;
        }
        failed.reason =
            fmt::format("{} error: {}{}", what, errors.front(),
                        errors.size() > 1 ? fmt::format(" (and {} more)", errors.size() - 1) : "");
        for (const std::string& e : errors)
            failed.details += e + "\n";
        return failed;
    }

    // The project as `run` starts it (host, game module, reload pipeline, first build and
    // generation), without watching: this run asks for every reload itself.
    StepResult compileFirst() {
        ScriptProjectOptions project;
        project.scriptDirs = options_.scriptDirs;
        project.scriptCore = options_.scriptCore;
        project.gameModule = options_.game;
        project.disableAfterFailures = 0; // the first failure ends the run anyway
        project.watchdogBudget = std::chrono::milliseconds(options_.watchdogMs);
        project.coldCompiler = options_.coldCompiler;
        project.watch = false;
        project.purpose = "smoke";
        auto started = ScriptProject::start(project);
        if (!started) {
            if (started.error().build)
                return compileFailure("compile", *started.error().build);
            return StepFailure{started.error().message, {}};
        }
        project_ = std::move(*started);
        host_ = &project_->host();
        game_ = project_->game();
        generation_ = host_->domain()->generation();
        ReloadCoordinator& reloads = project_->reloads();
        reloads.beforeStage = [this](ReloadStage stage) {
            if (stage == ReloadStage::Swap)
                before_ = host_->snapshot();
        };
        reloads.afterStage = [this](ReloadStage stage) {
            if (stage == ReloadStage::Swap)
                after_ = host_->snapshot();
        };
        spdlog::info("compiled and loaded generation {}", generation_);
        return std::nullopt;
    }

    StepResult startAndRunFrames() {
        Scene scene;
        if (!options_.scene.empty()) {
            auto loaded = Scene::load(options_.scene);
            if (!loaded)
                return StepFailure{"bad scene: " + loaded.error().message, {}};
            scene = std::move(*loaded);
        } else {
            scene = host_->defaultScene();
        }
        if (auto made = host_->instantiate(scene); !made)
            return StepFailure{"cannot instantiate the scene: " + made.error().message, {}};
        host_->setActiveScenePath(options_.scene);
        entityCount_ = host_->world().entityCount();
        scriptCount_ = host_->world().scriptCount();
        if (auto failed = checkScriptFailures("while the scene was instantiated"))
            return failed;
        spdlog::info("smoke: {} entities, {} scripts; {} frame(s), then {} reload(s)", entityCount_,
                     scriptCount_, options_.frames, options_.reloads);
        return runFrames(options_.frames);
    }

    StepResult runFrames(std::int64_t count) {
        for (std::int64_t i = 0; i < count; ++i) {
            if (game_) {
                game_->runSystems(game::SystemPhase::BeforeScripts,
                                  game::FrameTime{host_->time(), kFrameSeconds, host_->frame()});
            }
            host_->tick(kFrameSeconds);
            if (game_) {
                game_->runSystems(game::SystemPhase::AfterScripts,
                                  game::FrameTime{host_->time(), kFrameSeconds, host_->frame()});
            }
            ++framesRun_;
            if (auto failed = checkScriptFailures(fmt::format("in frame {}", host_->frame())))
                return failed;
        }
        return std::nullopt;
    }

    // A failure recorded since the last check is the run's failure; its first one is named.
    StepResult checkScriptFailures(const std::string& when) {
        const std::uint64_t total = host_->scriptFailureCount();
        if (total == failuresSeen_)
            return std::nullopt;
        const auto& recent = host_->recentFailures();
        const std::uint64_t fresh = total - failuresSeen_;
        failuresSeen_ = total;
        if (recent.empty())
            return StepFailure{fmt::format("{} script exception(s) {}", fresh, when), {}};
        const std::size_t first =
            recent.size() - static_cast<std::size_t>(std::min<std::uint64_t>(fresh, recent.size()));
        const ScriptFailure& f = recent[first];
        return StepFailure{fmt::format("script exception {}: {} {} threw {} in {}: {}", when,
                                       f.className, f.script.toString(), f.exceptionType,
                                       phaseName(f.phase), firstLine(f.message)),
                           f.text};
    }

    std::string entityName(ObjectId id) const {
        const Entity* e = host_->world().entity(id);
        return e != nullptr && !e->name.empty() ? e->name : "entity " + id.toString();
    }

    // Rebuilds and reloads through the same pipeline as `run`: the build (waited for, so
    // that frames do not race the compiler), then one reload stage per frame boundary with a
    // frame between. The snapshots are taken right before and right after the swap stage,
    // with no frame between: anything that differs was changed by the reload itself.
    std::expected<ReloadReport, StepFailure> reloadThroughStages(int n) {
        ReloadCoordinator& reloads = project_->reloads();
        before_.reset();
        after_.reset();
        reloads.requestReload();
        const auto deadline = Clock::now() + kReloadDeadline;
        framesDuringReload_ = 0;
        for (;;) {
            if (auto report = reloads.update(deadline))
                return std::move(*report);
            if (Clock::now() > deadline)
                return std::unexpected(StepFailure{
                    fmt::format(
                        "reload {}: no result within {} s", n,
                        std::chrono::duration_cast<std::chrono::seconds>(kReloadDeadline).count()),
                    {}});
            if (auto failed = runFrames(1))
                return std::unexpected(std::move(*failed));
            ++framesDuringReload_;
        }
    }

    StepResult reloadOnce(int n) {
        auto reloaded = reloadThroughStages(n);
        if (!reloaded)
            return std::move(reloaded.error());
        const ReloadReport& report = *reloaded; // the coordinator has logged it
        if (report.failedPhase == "build") {
            StepFailure failed{fmt::format("reload {}: compile error: {}", n,
                                           report.errors.empty() ? "the build failed"
                                                                 : firstLine(report.errors[0])),
                               {}};
            for (const std::string& e : report.errors)
                failed.details += e + "\n";
            return failed;
        }
        buildMs_.push_back(report.buildMs);
        if (!report.success) {
            const std::string why = report.errors.empty() ? "no reason given" : report.errors[0];
            return StepFailure{fmt::format("reload {} rolled back in phase {}: {}", n,
                                           report.failedPhase, firstLine(why)),
                               report.describe()};
        }
        if (!before_ || !after_)
            return StepFailure{fmt::format("reload {}: no snapshot was taken around the swap", n),
                               {}};
        if (!*before_)
            return StepFailure{
                fmt::format("reload {}: snapshot failed: {}", n, before_->error().message), {}};
        if (!*after_)
            return StepFailure{
                fmt::format("reload {}: snapshot after it failed: {}", n, after_->error().message),
                {}};
        const Snapshot& before = **before_;
        const Snapshot& after = **after_;
        const std::uint32_t current = host_->domain()->generation();
        if (report.fromGeneration != generation_ || report.toGeneration != generation_ + 1 ||
            current != report.toGeneration) {
            return StepFailure{fmt::format("reload {}: the generation did not advance (was {}, "
                                           "report {} -> {}, now {})",
                                           n, generation_, report.fromGeneration,
                                           report.toGeneration, current),
                               report.describe()};
        }
        generation_ = current;
        swapMs_.push_back(report.snapshotMs + report.restoreMs + report.hooksMs);
        if (auto failed = checkScriptFailures(fmt::format("during reload {}", n)))
            return failed;
        for (const std::string& field : after.notCarried) {
            if (std::find(notCarried_.begin(), notCarried_.end(), field) == notCarried_.end()) {
                notCarried_.push_back(field);
                spdlog::warn("{} is of a type reloads cannot carry: not checked", field);
            }
        }
        const SnapshotComparison compared =
            compareSnapshots(before, after, [&](ObjectId id) { return entityName(id); });
        scriptsPerReload_ = compared.scripts;
        fieldsPerReload_ = compared.fields;
        if (!compared.identical()) {
            std::string details;
            for (std::size_t i = 0; i < compared.mismatches.size() && i < kMismatchesShown; ++i) {
                const SnapshotMismatch& m = compared.mismatches[i];
                details += fmt::format("{}: before {} after {}\n", m.where, m.before, m.after);
            }
            if (compared.mismatches.size() > kMismatchesShown)
                details +=
                    fmt::format("… and {} more\n", compared.mismatches.size() - kMismatchesShown);
            const SnapshotMismatch& m = compared.mismatches.front();
            return StepFailure{fmt::format("reload {}: {} of {} value(s) did not round-trip "
                                           "exactly (first: {}: before {} after {})",
                                           n, compared.mismatches.size(), compared.fields, m.where,
                                           m.before, m.after),
                               details};
        }
        spdlog::info("reload {}: generation {}, {} field(s) identical, {:.2f} ms over {} frame(s)",
                     n, generation_, compared.fields, report.totalMs, framesDuringReload_ + 1);
        // The frames the reload's stages spread over count as frames after it.
        return runFrames(std::max<std::int64_t>(0, framesBetween() - framesDuringReload_));
    }

    const SmokeOptions& options_;
    std::unique_ptr<ScriptProject> project_;
    ScriptHost* host_ = nullptr;             // the project's
    GameModuleHost* game_ = nullptr;         // the project's, or none
    std::optional<Result<Snapshot>> before_; // around the swap stage of the reload under way
    std::optional<Result<Snapshot>> after_;
    std::int64_t framesDuringReload_ = 0;
    JUnitReport junit_;
    std::optional<StepFailure> failure_;
    std::uint64_t failuresSeen_ = 0;
    std::uint32_t generation_ = 0;
    std::int64_t framesRun_ = 0;
    std::size_t entityCount_ = 0;
    std::size_t scriptCount_ = 0;
    std::size_t scriptsPerReload_ = 0;
    std::size_t fieldsPerReload_ = 0;
    std::vector<double> swapMs_;
    std::vector<double> buildMs_;
    std::vector<std::string> notCarried_;
};

} // namespace

CLI::App* addSmokeCommand(CLI::App& app, SmokeOptions& options) {
    CLI::App* smoke = app.add_subcommand(
        "smoke", "CI check: compile, run N frames and N reloads headless, fail on any error");
    addProjectOptions(*smoke, options,
                      "Stop (and fail on) script code that runs longer than this (0: never)");
    smoke->add_option("--frames", options.frames, "Frames to run before the first reload")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    smoke->add_option("--reloads", options.reloads, "Reloads of the same sources")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    smoke->add_option("--junit", options.junit, "Write a JUnit XML report here")
        ->type_name(kPathOption);
    return smoke;
}

int runSmoke(const SmokeOptions& options) {
    const auto started = Clock::now();
    int code = 1;
    std::string verdict;
    std::string details;
    std::optional<JUnitReport> junit;
    {
        SmokeRun run(
            options); // ends (project: host, compiler, build folder) before Mono shuts down
        code = run.execute();
        if (code == 0) {
            verdict = run.summary();
        } else {
            verdict = "smoke FAILED: " + run.failure().reason;
            details = run.failure().details;
        }
        junit = run.junit();
    }
    if (!options.junit.empty()) {
        if (const std::string error = junit->write(options.junit); !error.empty()) {
            if (code == 0) {
                code = 1;
                verdict = "smoke FAILED: " + error;
            } else {
                spdlog::error("{}", error);
            }
        }
    }
    std::fflush(stdout);
    if (code == 0) {
        std::fputs(fmt::format("{} ({:.1f} s).\n", verdict, secondsSince(started)).c_str(), stdout);
    } else {
        std::string text = verdict + "\n";
        if (!details.empty()) {
            for (std::size_t at = 0; at < details.size();) {
                const std::size_t end = std::min(details.find('\n', at), details.size());
                if (end > at)
                    text += "  " + details.substr(at, end - at) + "\n";
                at = end + 1;
            }
        }
        std::fputs(text.c_str(), stderr);
    }
    std::fflush(stdout);
    return code;
}

} // namespace scripthost
