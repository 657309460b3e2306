// compile-watch DIR [--cold] [--reference DLL ...] [--out DIR] [--json]
// Watches DIR, builds every *.cs under it once at start and after each change set, and prints
// each build's result and diagnostics until SIGINT/SIGTERM.

#include "compiler_bridge/build_queue.hpp"
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/output_generations.hpp"
#include "compiler_bridge/source_files.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "watcher/source_watcher.hpp"

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace scripthost;
using Clock = std::chrono::steady_clock;

std::atomic<bool> stopRequested{false}; // set by the signal handler, read by the loop

extern "C" void onStopSignal(int) {
    stopRequested.store(true);
}

/// The path as the user will recognise it: relative to the watched folder when inside it.
std::string shown(const std::string& file, const fs::path& root) {
    if (file.empty()) {
        return file;
    }
    const fs::path relative = fs::path(file).lexically_relative(root);
    return relative.empty() || relative.native().starts_with("..") ? file : relative.string();
}

compiler::Diagnostic forDisplay(compiler::Diagnostic d, const fs::path& root) {
    d.file = shown(d.file, root);
    return d;
}

void printText(const compiler::FinishedBuild& build, const fs::path& root) {
    const compiler::CompileResult& r = build.result;
    const std::size_t sourceCount = build.request.sources.size();
    std::size_t warnings = 0;
    for (const auto& d : r.diagnostics) {
        warnings += d.severity == compiler::Severity::Warning ? 1 : 0;
    }
    if (r.nothingToBuild) {
        fmt::print("[build {}] nothing to build: no .cs files under {}\n", build.id, root.string());
    } else if (r.success) {
        fmt::print("[build {}] ok: {} file(s) in {} ms ({}) -> {}{}\n", build.id, sourceCount,
                   r.duration.count(), compiler::backendName(r.backend), r.output.string(),
                   warnings ? fmt::format(", {} warning(s)", warnings) : "");
    } else {
        fmt::print("[build {}] FAILED: {} error(s), {} warning(s) in {} ms ({}){}\n", build.id,
                   r.errorCount(), warnings, r.duration.count(), compiler::backendName(r.backend),
                   r.timedOut ? ", timed out" : "");
    }
    if (!r.fallbackReason.empty()) {
        fmt::print("  (fell back to mcs: {})\n", r.fallbackReason);
    }
    if (!r.nothingToBuild) {
        for (const auto& d : r.diagnostics) {
            fmt::print("  {}\n", compiler::format(forDisplay(d, root)));
        }
    }
    std::fflush(stdout);
}

void printJson(const compiler::FinishedBuild& build, const fs::path& root) {
    const compiler::CompileResult& r = build.result;
    const std::size_t sourceCount = build.request.sources.size();
    nlohmann::json diagnostics = nlohmann::json::array();
    for (const auto& d : r.diagnostics) {
        diagnostics.push_back(
            {{"file", shown(d.file, root)},
             {"line", d.line},
             {"column", d.column},
             {"severity", d.severity == compiler::Severity::Error ? "error" : "warning"},
             {"code", d.code},
             {"message", d.message}});
    }
    const nlohmann::json line{{"event", "build"},
                              {"id", build.id},
                              {"success", r.success},
                              {"nothing_to_build", r.nothingToBuild},
                              {"timed_out", r.timedOut},
                              {"backend", compiler::backendName(r.backend)},
                              {"fallback_reason", r.fallbackReason},
                              {"duration_ms", r.duration.count()},
                              {"sources", sourceCount},
                              {"output", r.success ? r.output.string() : ""},
                              {"errors", r.errorCount()},
                              {"diagnostics", diagnostics}};
    // Invalid UTF-8 from a source file must not abort the tool: replace it.
    fmt::print("{}\n", line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Watch a C# folder and rebuild it on every change"};
    fs::path root;
    bool cold = false;
    bool json = false;
    std::vector<fs::path> references;
    fs::path out;
    std::string name = "Scripts";
    fs::path server = compiler::defaultCompileServerPath();
    std::size_t keep = 5;
    app.add_option("DIR", root, "Folder of C# sources (watched recursively)")
        ->required()
        ->check(CLI::ExistingDirectory);
    app.add_flag("--cold", cold, "Run mcs once per build instead of the warm compile server");
    app.add_option("--reference,-r", references, "Assembly to reference (repeatable)")
        ->check(CLI::ExistingFile);
    app.add_option("--out,-o", out,
                   "Output folder (default: a temp folder); builds go to <out>/gen<N>/<name>.dll");
    app.add_option("--name", name, "Assembly name")->capture_default_str();
    app.add_option("--server", server, "Path of scripthost-compile-server.exe")
        ->capture_default_str();
    app.add_option("--keep", keep, "Generations kept on disk")->capture_default_str();
    app.add_flag("--json", json, "Print one JSON object per build instead of text");
    CLI11_PARSE(app, argc, argv);

    if (json) {
        spdlog::set_level(spdlog::level::warn); // stdout is for JSON; logs go to stderr anyway
    }
    spdlog::default_logger()->sinks().clear();
    spdlog::default_logger()->sinks().push_back(
        std::make_shared<spdlog::sinks::stderr_color_sink_mt>());

    std::error_code ec;
    root = fs::canonical(root, ec);
    for (auto& reference : references) {
        reference = fs::absolute(reference);
    }
    if (out.empty()) {
        out = fs::temp_directory_path() / fmt::format("scripthost-compile-watch-{}", ::getpid());
    }
    out = fs::absolute(out).lexically_normal();

    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);

    watcher::WatchOptions watchOptions;
    watchOptions.roots = {root};
    auto watching = watcher::SourceWatcher::start(watchOptions);
    if (!watching) {
        fmt::print(stderr, "compile-watch: {}\n", watching.error().message);
        return 1;
    }
    std::unique_ptr<compiler::Compiler> backend;
    if (cold) {
        backend = std::make_unique<compiler::ColdCompiler>();
    } else {
        compiler::WarmCompilerOptions options;
        options.server = server;
        backend = std::make_unique<compiler::WarmCompiler>(std::move(options));
    }
    compiler::BuildQueue queue(std::move(backend));
    compiler::OutputGenerations generations(out, name);

    auto submitBuild = [&] {
        compiler::CompileRequest request;
        request.sources = compiler::collectSources(root);
        request.references = references;
        request.output = generations.next();
        (void)queue.submit(std::move(request));
    };

    if (!json) {
        fmt::print("watching {} ({} backend, {} watcher); output in {}; Ctrl-C to stop\n",
                   root.string(), compiler::backendName(queue.backend()),
                   watcher::backendName((*watching)->backend()), out.string());
        std::fflush(stdout);
    }
    submitBuild();
    while (!stopRequested.load()) {
        if (auto changes = (*watching)->waitFor(Clock::now() + std::chrono::milliseconds(50))) {
            if (!json) {
                fmt::print("change: {} added, {} modified, {} removed{}\n", changes->added.size(),
                           changes->modified.size(), changes->removed.size(),
                           changes->rescanned ? " (rescanned)" : "");
            }
            submitBuild();
        }
        while (auto finished = queue.poll()) {
            if (json) {
                printJson(*finished, root);
            } else {
                printText(*finished, root);
            }
            generations.prune(keep);
        }
    }
    if (!json) {
        fmt::print("stopping\n");
    }
    return 0;
}
