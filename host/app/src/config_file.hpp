#pragma once
// The TOML config file (`./scripthost.toml` or `--config FILE`), read so that a path in it
// means the same place whatever folder the host is started from.

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>

namespace scripthost {

/// The type name that marks an option whose values are paths (shown in --help as PATH).
inline constexpr const char* kPathOption = "PATH";

/// CLI11's TOML reader, except that a relative value of an option marked `kPathOption` is
/// taken relative to the config file's folder, not the working directory: `scripts =
/// ["scripts"]` in `game/scripthost.toml` is `game/scripts` wherever `scripthost run` starts.
/// Flags on the command line are untouched (they stay relative to the working directory).
class ConfigFile : public CLI::ConfigTOML {
public:
    /// `app` is the top-level app whose `--config` option names the file being read.
    explicit ConfigFile(const CLI::App& app) : app_(app) {}

    std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;

    /// The folder relative config paths resolve against: the config file's, made absolute.
    [[nodiscard]] std::filesystem::path baseFolder() const;

private:
    const CLI::App& app_;
};

/// Adds `--config` (default ./scripthost.toml) to `app`, read through ConfigFile, and lets it
/// be given after a subcommand too (`scripthost run --config FILE`); call it before adding
/// the subcommands.
void useConfigFile(CLI::App& app);

} // namespace scripthost
