#include "project_options.hpp"

#include "config_file.hpp"

#include <CLI/CLI.hpp>

namespace scripthost {

void addProjectOptions(CLI::App& command, ProjectOptions& o, std::string_view watchdogHelp) {
    command.add_option("--scripts", o.scriptDirs, "Folder of C# scripts (repeatable)")
        ->required()
        ->type_name(kPathOption);
    command
        .add_option("--scene", o.scene, "Scene file (JSON); default: one entity per script class")
        ->check(CLI::ExistingFile)
        ->type_name(kPathOption);
    command.add_option("--game", o.game, "Game module to attach (a shared library)")
        ->check(CLI::ExistingFile)
        ->type_name(kPathOption);
    command.add_option("--scriptcore", o.scriptCore, "ScriptCore.dll (default: beside scripthost)")
        ->type_name(kPathOption);
    command.add_flag("--cold-compiler", o.coldCompiler,
                     "Run mcs once per build instead of the resident compile server");
    command.add_option("--watchdog-ms", o.watchdogMs, std::string(watchdogHelp))
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    command.add_option("--log-level", o.logLevel, "trace, debug, info, warn, error")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}))
        ->capture_default_str();
}

} // namespace scripthost
