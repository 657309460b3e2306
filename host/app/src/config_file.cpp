#include "config_file.hpp"

namespace scripthost {

namespace fs = std::filesystem;

namespace {

/// The option `item` sets (through its sections' subcommands), or nullptr.
const CLI::Option* optionOf(const CLI::App& app, const CLI::ConfigItem& item) {
    const CLI::App* section = &app;
    for (const std::string& parent : item.parents) {
        try {
            section = section->get_subcommand(parent);
        } catch (const CLI::OptionNotFound&) {
            return nullptr;
        }
    }
    return section->get_option_no_throw("--" + item.name);
}

/// Marked with kPathOption (a validator may add its own name after a colon: `PATH:FILE`).
bool takesPaths(const CLI::Option& option) {
    const std::string type = option.get_type_name();
    return type == kPathOption || type.starts_with(std::string(kPathOption) + ":");
}

} // namespace

fs::path ConfigFile::baseFolder() const {
    const CLI::Option* config = app_.get_config_ptr();
    const fs::path file = config ? config->as<std::string>() : std::string();
    std::error_code ec;
    const fs::path absolute = fs::absolute(file, ec);
    return ec ? fs::path() : absolute.parent_path();
}

std::vector<CLI::ConfigItem> ConfigFile::from_config(std::istream& input) const {
    std::vector<CLI::ConfigItem> items = CLI::ConfigTOML::from_config(input);
    const fs::path base = baseFolder();
    for (CLI::ConfigItem& item : items) {
        const CLI::Option* option = optionOf(app_, item);
        if (option == nullptr || !takesPaths(*option))
            continue;
        for (std::string& value : item.inputs) {
            if (!value.empty() && fs::path(value).is_relative())
                value = (base / value).lexically_normal().string();
        }
    }
    return items;
}

void useConfigFile(CLI::App& app) {
    // Subcommands added later inherit this: an option they do not know (`--config`) goes to
    // the top level instead of ending the subcommand, whose required options would then be
    // checked before the file is read.
    app.fallthrough();
    app.set_config("--config", "scripthost.toml", "Read settings from this TOML file");
    app.config_formatter(std::make_shared<ConfigFile>(app));
}

} // namespace scripthost
