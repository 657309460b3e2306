#include "precompiled_assemblies.hpp"

#include "layout_text.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string_view>

namespace scripthost::compiler {

namespace fs = std::filesystem;

namespace {

std::string_view trimmed(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r";
    const auto first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

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

bool readMetaExplicitlyReferenced(const fs::path& metaFile) {
    std::ifstream in(metaFile);
    constexpr std::string_view kKey = "isExplicitlyReferenced:";
    for (std::string line; std::getline(in, line);) {
        const std::string_view text = trimmed(line);
        if (text.starts_with(kKey))
            return trimmed(text.substr(kKey.size())) == "1";
    }
    return false;
}

PrecompiledAssembly readPrecompiledAssembly(const fs::path& file) {
    PrecompiledAssembly plugin;
    plugin.name = file.stem().string();
    plugin.file = file;
    fs::path meta = file;
    meta += ".meta";
    plugin.autoReferenced = !readMetaExplicitlyReferenced(meta);
    return plugin;
}

bool inEditorFolder(const fs::path& relativeToRoot) {
    const fs::path folder = relativeToRoot.parent_path();
    return std::ranges::any_of(folder, [](const fs::path& part) { return part == "Editor"; });
}

PrecompiledReferences precompiledReferencesOf(const AssemblyDefinition& definition,
                                              const std::vector<PrecompiledAssembly>& found) {
    PrecompiledReferences out;
    if (!definition.overrideReferences) {
        out.names = autoReferencedPrecompiled(found);
        return out;
    }
    for (const std::string& listed : definition.precompiledReferences) {
        const auto plugin = std::ranges::find_if(found, [&](const PrecompiledAssembly& p) {
            return lowerCase(p.file.filename().string()) == lowerCase(listed);
        });
        if (plugin == found.end())
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
