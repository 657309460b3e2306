#pragma once
// ModuleBuilder: `run --game-build CMD --game-sources DIR` — rebuilds the game module when one
// of its C++ sources is saved, so the ModuleReloader swaps the new build in without a second
// terminal.

#include "scripthost/game/error.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scripthost {

struct ModuleBuilderOptions {
    std::string command;                        ///< run with /bin/sh -c, in `workingDir`
    std::vector<std::filesystem::path> sources; ///< watched recursively for C/C++ sources
    std::filesystem::path workingDir;           ///< empty: the current folder
    std::filesystem::path log;                  ///< where each build's output goes
};

/// What one module build did.
struct ModuleBuildReport {
    bool success = false;
    int exitCode = 0;
    double milliseconds = 0;
    std::vector<std::string> trigger; ///< the saved files that started it
    std::string outputTail;           ///< the output's last lines (all of it when short)
};

/// Watches the module's sources (C and C++ sources and headers; editors' temporary files,
/// `build` and hidden folders left out) and runs the build command once a save settles; a
/// save during a build runs it again when it ends. The build runs as a child process: the
/// loop never waits for it. Main thread only.
class ModuleBuilder {
public:
    /// Starts watching; the folders must exist. Nothing is built until a source changes.
    [[nodiscard]] static Result<std::unique_ptr<ModuleBuilder>> start(ModuleBuilderOptions options);
    ~ModuleBuilder();
    ModuleBuilder(const ModuleBuilder&) = delete;
    ModuleBuilder& operator=(const ModuleBuilder&) = delete;

    /// Between frames: starts a build for the changes seen, and reports one that ended.
    std::optional<ModuleBuildReport> update();
    /// True while a build runs.
    [[nodiscard]] bool building() const noexcept;
    /// Source folders that do not exist right now (watched for their return).
    [[nodiscard]] std::vector<std::filesystem::path> missingFolders() const;
    /// The command's output of the last build that ended.
    [[nodiscard]] const std::filesystem::path& log() const noexcept;

private:
    struct Impl;
    explicit ModuleBuilder(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace scripthost
