#include "project_state_location.hpp"

#include <cstdint>
#include <cstdlib>
#include <fmt/format.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace scripthost {

namespace {

// FNV-1a, 64 bits: a stable name for a set of folders (not a security property).
std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 0x100000001b3ull;
    }
    return hash;
}

fs::path stateHome() {
    if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg != nullptr && *xdg == '/')
        return xdg;
    if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/')
        return fs::path(home) / ".local" / "state";
    return fs::temp_directory_path() / fmt::format("scripthost-state-{}", ::getuid());
}

} // namespace

ProjectStateLocation ProjectStateLocation::of(const fs::path& configFolder,
                                              const std::vector<fs::path>& scriptDirs) {
    ProjectStateLocation at;
    if (!configFolder.empty()) {
        at.folder = configFolder / ".scripthost";
    } else {
        std::string key;
        for (const fs::path& dir : scriptDirs) {
            std::error_code ec;
            fs::path absolute = fs::weakly_canonical(fs::absolute(dir, ec), ec);
            key += absolute.lexically_normal().string();
            key += '\n';
        }
        std::string name = "scripts";
        if (!scriptDirs.empty()) {
            fs::path first = fs::absolute(scriptDirs.front()).lexically_normal();
            if (first.filename().empty()) // "scripts/"
                first = first.parent_path();
            if (!first.filename().empty())
                name = first.filename().string();
        }
        at.folder = stateHome() / "scripthost" / fmt::format("{}-{:016x}", name, fnv1a(key));
    }
    at.stateFile = at.folder / "state.json";
    return at;
}

} // namespace scripthost
