#pragma once
// `scripthost smoke`: compile, run N frames and N reloads headless, and fail loudly on any
// compile error, script exception, rolled-back reload or value a reload did not carry
// exactly. Meant for users' CI.

#include "project_options.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scripthost {

/// `smoke`'s options: the project's (ProjectOptions; a script the watchdog stops fails the
/// run) and the run's shape.
struct SmokeOptions : ProjectOptions {
    std::int64_t frames = 120; ///< before the first reload (and spread between reloads)
    int reloads = 10;
    std::filesystem::path junit; ///< empty: no JUnit report
};

/// Registers the `smoke` subcommand on `app`, parsing into `options`; returns it.
CLI::App* addSmokeCommand(CLI::App& app, SmokeOptions& options);

/// Runs the smoke test. Returns the process exit code: 0 passed, 1 failed (the reason is
/// printed), 2 the options ask for something this build cannot do.
[[nodiscard]] int runSmoke(const SmokeOptions& options);

} // namespace scripthost
