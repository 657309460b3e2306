#pragma once
// StateFile: the daemon's saved world (a scene file), written atomically.

#include "host/model/scene.hpp"
#include "scripthost/game/error.hpp"

#include <filesystem>
#include <optional>
#include <vector>

namespace scripthost {

/// Where `scripthost run --state FILE` keeps the world between runs. Saving writes a
/// temporary file beside the target, flushes it to disk and renames it over the target,
/// so a crash mid-save leaves the previous state whole. Loading a file that is not a
/// valid scene moves it aside (FILE.corrupt-<time>) instead of letting a later save
/// overwrite it, and reports why.
class StateFile {
public:
    explicit StateFile(std::filesystem::path path) : path_(std::move(path)) {}

    struct Loaded {
        std::optional<Scene> scene;         ///< empty: no state yet, or it was corrupt
        std::filesystem::path movedAsideTo; ///< where a corrupt file went, if it was
        std::string problem;                ///< why it was moved aside
        /// Temporary files of saves a host that is gone never finished (FILE.tmp-<pid>, the
        /// process no longer running), removed before reading.
        std::vector<std::filesystem::path> staleRemoved;
    };
    /// Reads the state. A missing file is not an error (a first start); a corrupt one is
    /// moved aside and reported in `problem`; failing to move it aside is an error. First
    /// removes what a host killed in the middle of a save left beside the file.
    [[nodiscard]] Result<Loaded> load() const;
    [[nodiscard]] Result<void> save(const Scene& scene) const;
    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace scripthost
