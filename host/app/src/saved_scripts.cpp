#include "saved_scripts.hpp"

#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace scripthost {

namespace fs = std::filesystem;

namespace {

constexpr const char* kManifest = "assemblies.json";
constexpr const char* kLegacy = "Scripts.dll";
constexpr std::string_view kSetPrefix = "set-";

// Writes `bytes` to `path` through a temporary file renamed into place.
Result<void> writeAtomically(const fs::path& path, std::string_view bytes) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    const fs::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out)
            return fail("cannot write " + tmp.string());
    }
    fs::rename(tmp, path, ec);
    if (ec)
        return fail("cannot write " + path.string() + ": " + ec.message());
    return {};
}

std::string_view view(const std::vector<char>& bytes) {
    return {bytes.data(), bytes.size()};
}

// The number of a `set-<N>` folder, or -1.
long setNumber(const fs::path& folder) {
    const std::string name = folder.filename().string();
    if (!name.starts_with(kSetPrefix) || name.size() == kSetPrefix.size())
        return -1;
    try {
        std::size_t used = 0;
        const long n = std::stol(name.substr(kSetPrefix.size()), &used);
        return used == name.size() - kSetPrefix.size() ? n : -1;
    } catch (const std::exception&) {
        return -1;
    }
}

} // namespace

fs::path savedScriptsFolder(const fs::path& stateFile) {
    return stateFile.parent_path() / (stateFile.stem().string() + ".scripts");
}

Result<void> writeSavedScripts(const fs::path& stateFile,
                               const std::vector<AssemblyFile>& scripts) {
    if (scripts.empty())
        return fail("no scripts assembly to save");
    const fs::path folder = savedScriptsFolder(stateFile);
    std::error_code ec;
    long next = 0;
    std::vector<fs::path> older;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        if (const long n = setNumber(entry.path()); n >= 0) {
            next = std::max(next, n + 1);
            older.push_back(entry.path());
        }
    }
    const std::string setName = fmt::format("{}{}", kSetPrefix, next);
    nlohmann::json names = nlohmann::json::array();
    for (const AssemblyFile& file : scripts) {
        const fs::path dll = folder / setName / file.name;
        if (!file.symbols.empty()) {
            if (auto written = writeAtomically(fs::path(dll.string() + ".mdb"), view(file.symbols));
                !written)
                return written;
        }
        if (auto written = writeAtomically(dll, view(file.image)); !written)
            return written;
        names.push_back(file.name);
    }
    const nlohmann::json manifest{{"folder", setName}, {"assemblies", names}};
    if (auto written = writeAtomically(folder / kManifest, manifest.dump(2) + "\n"); !written)
        return written;
    for (const fs::path& old : older)
        fs::remove_all(old, ec); // best effort: the manifest no longer names them
    fs::remove(folder / kLegacy, ec);
    fs::remove(folder / (std::string(kLegacy) + ".mdb"), ec);
    return {};
}

Result<std::vector<fs::path>> savedScriptsFiles(const fs::path& stateFile) {
    const fs::path folder = savedScriptsFolder(stateFile);
    const fs::path manifestPath = folder / kManifest;
    std::error_code ec;
    std::vector<fs::path> files;
    if (!fs::exists(manifestPath, ec)) {
        if (fs::exists(folder / kLegacy, ec))
            files.push_back(folder / kLegacy);
        return files;
    }
    std::ifstream in(manifestPath);
    const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
    auto bad = [&](std::string_view why) {
        return fail(fmt::format("{}: {}", manifestPath.string(), why));
    };
    if (!manifest.is_object() || !manifest.contains("folder") || !manifest["folder"].is_string() ||
        !manifest.contains("assemblies") || !manifest["assemblies"].is_array() ||
        manifest["assemblies"].empty())
        return bad("not a saved scripts manifest ({\"folder\": …, \"assemblies\": [...]})");
    const fs::path set = folder / manifest["folder"].get<std::string>();
    if (setNumber(set) < 0)
        return bad("the folder is not a set-<N> folder beside it");
    for (const nlohmann::json& name : manifest["assemblies"]) {
        if (!name.is_string() ||
            fs::path(name.get<std::string>()).filename() != name.get<std::string>())
            return bad("an assembly is not a file name");
        const fs::path dll = set / name.get<std::string>();
        if (!fs::is_regular_file(dll, ec))
            return bad(fmt::format("{} is missing", dll.string()));
        files.push_back(dll);
    }
    return files;
}

} // namespace scripthost
