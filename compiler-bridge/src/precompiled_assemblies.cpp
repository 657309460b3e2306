#include "precompiled_assemblies.hpp"

#include "compiler_bridge/define_constraints.hpp"
#include "layout_text.hpp"
#include "plugin_platforms.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string_view>

namespace scripthost::compiler {

namespace fs = std::filesystem;

namespace {

/// The little-endian unsigned value of `size` bytes at `offset` of `bytes`; nullopt past its end.
std::optional<std::uint32_t> littleEndian(std::string_view bytes, std::size_t offset,
                                          std::size_t size) {
    if (offset > bytes.size() || bytes.size() - offset < size)
        return std::nullopt;
    std::uint32_t value = 0;
    for (std::size_t i = size; i-- > 0;)
        value = (value << 8) | static_cast<unsigned char>(bytes[offset + i]);
    return value;
}

} // namespace

bool isManagedImage(std::string_view image) {
    // The DOS header's "MZ", its pointer to "PE\0\0", the COFF header (20 bytes), then the
    // optional header: PE32 (0x10b) or PE32+ (0x20b), whose data directories (8 bytes each,
    // their count before them) start 96 or 112 bytes in.
    constexpr std::size_t kCliDirectory = 14;
    if (!image.starts_with("MZ"))
        return false;
    const auto pe = littleEndian(image, 0x3c, 4);
    if (!pe || littleEndian(image, *pe, 4) != 0x4550u) // "PE\0\0"
        return false;
    const std::size_t optional = *pe + 4 + 20;
    const auto magic = littleEndian(image, optional, 2);
    if (!magic || (*magic != 0x10b && *magic != 0x20b))
        return false;
    const std::size_t directories = optional + (*magic == 0x10b ? 96 : 112);
    const auto count = littleEndian(image, directories - 4, 4);
    if (!count || *count <= kCliDirectory)
        return false;
    const auto rva = littleEndian(image, directories + kCliDirectory * 8, 4);
    const auto size = littleEndian(image, directories + kCliDirectory * 8 + 4, 4);
    return rva && size && *rva != 0 && *size != 0;
}

bool isManagedAssembly(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::string bytes(4096, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return isManagedImage(bytes);
}

PluginFile readPluginFile(const fs::path& file) {
    PluginFile plugin;
    plugin.assembly.name = file.stem().string();
    plugin.assembly.file = file;
    fs::path metaFile = file;
    metaFile += ".meta";
    UnityMetaFile meta = readUnityMeta(metaFile);
    if (meta.plugin) {
        plugin.settings = std::move(*meta.plugin);
    }
    plugin.assembly.autoReferenced = !plugin.settings.explicitlyReferenced;
    plugin.warnings = std::move(meta.warnings);
    return plugin;
}

std::optional<PluginLeftOut> pluginLeftOut(const PluginFile& plugin,
                                           const std::vector<std::string>& defines) {
    PluginLeftOut out{plugin.assembly, false, {}};
    switch (pluginUse(plugin.settings.platforms)) {
    case PluginUse::editorOnly:
        out.editorOnly = true;
        out.reason = "for the Editor only";
        return out;
    case PluginUse::notInEditor:
        out.reason = "not for the Editor (scripts run here as in Unity's play mode): its .meta "
                     "enables it for " +
                     enabledPlatformNames(plugin.settings.platforms);
        return out;
    case PluginUse::used:
        break;
    }
    if (!defineConstraintsHold(plugin.settings.defineConstraints, defines)) {
        out.reason = "its defineConstraints " +
                     describeUnmetConstraints(plugin.settings.defineConstraints, defines);
        return out;
    }
    return std::nullopt;
}

FoundPlugins readPlugins(const std::vector<fs::path>& files,
                         const std::vector<std::string>& defines) {
    FoundPlugins found;
    for (const fs::path& file : files) {
        if (!isManagedAssembly(file)) {
            found.warnings.push_back(file.string() +
                                     ": not a managed assembly (a native plugin?): not used");
            continue;
        }
        PluginFile plugin = readPluginFile(file);
        found.warnings.insert(found.warnings.end(), plugin.warnings.begin(), plugin.warnings.end());
        if (auto leftOut = pluginLeftOut(plugin, defines)) {
            if (!leftOut->editorOnly) {
                found.warnings.push_back(file.string() + ": not used: " + leftOut->reason);
            }
            found.leftOut.push_back(std::move(*leftOut));
        } else {
            found.used.push_back(std::move(plugin.assembly));
        }
    }
    std::ranges::stable_sort(found.used, {}, &PrecompiledAssembly::name);
    return found;
}

bool inEditorFolder(const fs::path& relativeToRoot) {
    const fs::path folder = relativeToRoot.parent_path();
    return std::ranges::any_of(folder, [](const fs::path& part) { return part == "Editor"; });
}

PrecompiledReferences precompiledReferencesOf(const AssemblyDefinition& definition,
                                              const std::vector<PrecompiledAssembly>& found,
                                              const std::vector<PluginLeftOut>& leftOut) {
    PrecompiledReferences out;
    if (!definition.overrideReferences) {
        out.names = autoReferencedPrecompiled(found);
        return out;
    }
    for (const std::string& listed : definition.precompiledReferences) {
        const auto plugin = std::ranges::find_if(found, [&](const PrecompiledAssembly& p) {
            return lowerCase(p.file.filename().string()) == lowerCase(listed);
        });
        const auto unused = std::ranges::find_if(leftOut, [&](const PluginLeftOut& p) {
            return lowerCase(p.assembly.file.filename().string()) == lowerCase(listed);
        });
        if (plugin == found.end() && unused != leftOut.end())
            out.leftOut.push_back(listed + ", which is not used: " + unused->reason);
        else if (plugin == found.end())
            out.missing.push_back(listed);
        else if (std::ranges::find(out.names, plugin->name) == out.names.end())
            out.names.push_back(plugin->name);
    }
    std::ranges::sort(out.names);
    return out;
}

std::vector<std::string> autoReferencedPrecompiled(const std::vector<PrecompiledAssembly>& found) {
    std::vector<std::string> names;
    for (const PrecompiledAssembly& plugin : found) {
        if (plugin.autoReferenced)
            names.push_back(plugin.name);
    }
    std::ranges::sort(names);
    return names;
}

} // namespace scripthost::compiler
