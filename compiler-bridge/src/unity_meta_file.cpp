#include "unity_meta_file.hpp"

#include "layout_text.hpp"

#include <fstream>
#include <sstream>
#include <system_error>
#include <yaml-cpp/yaml.h>

namespace scripthost::compiler {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kLargestMeta = 1u << 20;

/// `map[key]`, or an undefined node for a missing key. yaml-cpp's own `operator[]` of a const
/// node gives one that throws at its first use; this one's `IsDefined()` is false and every
/// other question about it answers no.
YAML::Node child(const YAML::Node& map, const char* key) {
    if (!map.IsMap()) {
        return YAML::Node(YAML::NodeType::Undefined);
    }
    const YAML::Node found = map[key];
    return found.IsDefined() ? found : YAML::Node(YAML::NodeType::Undefined);
}

/// The text of a scalar node; empty for a null one (`Any: ` with nothing after it); nullopt for
/// a sequence, a mapping or an undefined node.
std::optional<std::string> scalarText(const YAML::Node& node) {
    if (!node.IsDefined()) {
        return std::nullopt;
    }
    if (node.IsNull()) {
        return std::string{};
    }
    if (!node.IsScalar()) {
        return std::nullopt;
    }
    return node.Scalar();
}

/// Unity writes 0 and 1; `true` and `false` are read too.
std::optional<bool> flag(const YAML::Node& node) {
    const auto text = scalarText(node);
    if (text == "1" || text == "true") {
        return true;
    }
    if (text == "0" || text == "false") {
        return false;
    }
    return std::nullopt;
}

class MetaReader {
public:
    MetaReader(const fs::path& file, UnityMetaFile& out) : file_(file), out_(out) {}

    void read(const YAML::Node& root) {
        if (!root.IsMap()) {
            if (!root.IsNull()) {
                warn("is not a YAML mapping: not read");
            }
            return;
        }
        if (const YAML::Node guid = child(root, "guid"); guid.IsDefined()) {
            const auto text = scalarText(guid);
            if (text && isHexGuid(*text)) {
                out_.guid = lowerCase(*text);
            } else {
                warn("guid is not 32 hex digits: not read");
            }
        }
        if (const YAML::Node importer = child(root, "PluginImporter"); importer.IsDefined()) {
            if (importer.IsMap()) {
                out_.plugin = plugin(importer);
            } else {
                warn("PluginImporter is not a mapping: not read");
            }
        }
    }

private:
    void warn(const std::string& what) { out_.warnings.push_back(file_.string() + ": " + what); }

    PluginImportSettings plugin(const YAML::Node& importer) {
        PluginImportSettings settings;
        if (const YAML::Node node = child(importer, "isExplicitlyReferenced"); node.IsDefined()) {
            if (const auto value = flag(node)) {
                settings.explicitlyReferenced = *value;
            } else {
                warn("PluginImporter.isExplicitlyReferenced is not 0 or 1: not read");
            }
        }
        if (const YAML::Node node = child(importer, "defineConstraints"); node.IsDefined()) {
            settings.defineConstraints = strings(node, "PluginImporter.defineConstraints");
        }
        if (const YAML::Node node = child(importer, "platformData"); node.IsDefined()) {
            settings.platforms = platforms(node);
        }
        return settings;
    }

    std::vector<std::string> strings(const YAML::Node& node, const std::string& what) {
        std::vector<std::string> out;
        if (node.IsNull()) {
            return out; // `defineConstraints: []` written as nothing
        }
        if (!node.IsSequence()) {
            warn(what + " is not a list: not read");
            return out;
        }
        for (const YAML::Node& item : node) {
            const auto text = scalarText(item);
            if (!text) {
                warn(what + " has an entry that is not text: not read");
                return {};
            }
            out.push_back(*text);
        }
        return out;
    }

    std::vector<PluginPlatform> platforms(const YAML::Node& node) {
        if (node.IsNull()) {
            return {};
        }
        std::vector<PluginPlatform> out;
        if (!node.IsSequence()) {
            warn("PluginImporter.platformData is not a list: not read (every platform)");
            return out;
        }
        for (const YAML::Node& entry : node) {
            auto platform = this->platform(entry);
            if (!platform) {
                warn("PluginImporter.platformData has an entry that is not {first: {group: "
                     "name}, second: {enabled: 0 or 1}}: not read (every platform)");
                return {};
            }
            out.push_back(std::move(*platform));
        }
        return out;
    }

    std::optional<PluginPlatform> platform(const YAML::Node& entry) {
        if (!entry.IsMap()) {
            return std::nullopt;
        }
        const YAML::Node first = child(entry, "first");
        const YAML::Node second = child(entry, "second");
        if (!first.IsMap() || first.size() != 1 || !second.IsMap()) {
            return std::nullopt;
        }
        PluginPlatform platform;
        const auto key = first.begin();
        const auto group = scalarText(key->first);
        const auto name = scalarText(key->second);
        const auto enabled = flag(child(second, "enabled"));
        if (!group || !name || !enabled) {
            return std::nullopt;
        }
        platform.group = *group;
        platform.name = *name;
        platform.enabled = *enabled;
        if (const YAML::Node settings = child(second, "settings"); settings.IsMap()) {
            constexpr std::string_view kExclude = "Exclude ";
            for (const auto& setting : settings) {
                const auto setName = scalarText(setting.first);
                if (setName && setName->starts_with(kExclude) && flag(setting.second) == true) {
                    platform.excluded.insert(setName->substr(kExclude.size()));
                }
            }
        }
        return platform;
    }

    const fs::path& file_;
    UnityMetaFile& out_;
};

} // namespace

UnityMetaFile parseUnityMeta(const fs::path& file, std::string_view text) {
    UnityMetaFile out;
    try {
        const YAML::Node root = YAML::Load(std::string(text));
        MetaReader(file, out).read(root);
    } catch (const YAML::ParserException& e) {
        out = UnityMetaFile{};
        out.warnings.push_back(file.string() + ":" + std::to_string(e.mark.line + 1) + ":" +
                               std::to_string(e.mark.column + 1) + ": not YAML (" + e.msg +
                               "): not read");
    } catch (const YAML::Exception& e) {
        out = UnityMetaFile{};
        out.warnings.push_back(file.string() + ": not read (" + e.msg + ")");
    }
    return out;
}

UnityMetaFile readUnityMeta(const fs::path& file) {
    std::error_code ec;
    if (!fs::exists(file, ec)) {
        return {};
    }
    UnityMetaFile unread;
    const std::uintmax_t size = fs::file_size(file, ec);
    if (ec) {
        unread.warnings.push_back(file.string() + ": cannot be read: " + ec.message());
        return unread;
    }
    if (size > kLargestMeta) {
        unread.warnings.push_back(file.string() + ": " + std::to_string(size) +
                                  " bytes, larger than a .meta file can be (1 MiB): not read");
        return unread;
    }
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
        unread.warnings.push_back(file.string() + ": cannot be read");
        return unread;
    }
    return parseUnityMeta(file, text.str());
}

} // namespace scripthost::compiler
