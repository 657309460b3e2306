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

// The folder's absolute, normal spelling without a trailing separator (links resolved where
// the folder exists), so "scripts" and "scripts/" name one project.
fs::path folderKey(const fs::path& dir) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(dir, ec), ec).lexically_normal();
    if (p.filename().empty() && p.has_parent_path())
        p = p.parent_path();
    return p;
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
            key += folderKey(dir).string();
            key += '\n';
        }
        std::string name = "scripts";
        if (!scriptDirs.empty() && !folderKey(scriptDirs.front()).filename().empty())
            name = folderKey(scriptDirs.front()).filename().string();
        at.folder = stateHome() / "scripthost" / fmt::format("{}-{:016x}", name, fnv1a(key));
    }
    at.stateFile = at.folder / "state.json";
    return at;
}

} // namespace scripthost
