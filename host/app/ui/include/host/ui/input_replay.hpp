#pragma once
// InputReplay: input actions scripted per frame, for headless runs.

#include "host/engine/input_state.hpp"
#include "scripthost/game/error.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

/// A replay file is JSON lines, one change of an action's value each:
///
///     {"frame": 0, "action": "MoveForward", "value": 1}
///     {"frame": 90, "action": "MoveForward", "value": 0}
///
/// Lines may come in any order; blank lines and lines starting with '#' are skipped.
/// Values hold until changed.
class InputReplay {
public:
    struct Change {
        std::int64_t frame = 0;
        std::string action;
        float value = 0;
    };
    /// Parses the text of a replay file; the error names the line and what is wrong.
    [[nodiscard]] static Result<InputReplay> parse(std::string_view text);
    [[nodiscard]] static Result<InputReplay> load(const std::filesystem::path& file);
    /// Applies every change due at or before `frame` that was not applied yet.
    void apply(std::int64_t frame, InputState& input);
    [[nodiscard]] const std::vector<Change>& changes() const noexcept { return changes_; }
    [[nodiscard]] bool finished() const noexcept { return next_ >= changes_.size(); }

private:
    std::vector<Change> changes_; // sorted by frame, stable
    std::size_t next_ = 0;
};

} // namespace scripthost
