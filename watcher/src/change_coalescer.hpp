#pragma once

#include "file_index.hpp"
#include "watcher/change_set.hpp"

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>

namespace scripthost::watcher::detail {

// Turns a stream of per-file observations into ChangeSets relative to the last reported state.
//
// Only each touched file's final state matters: known+exists = modified, new+exists = added,
// known+gone = removed, new+gone = nothing. That is what makes editors' save dances
// (temp-file-and-rename, backup renames, probe files) come out as one modification, and
// create+delete cancel out. Time is passed in, so the logic is testable without a clock.
class ChangeCoalescer {
public:
    using Clock = std::chrono::steady_clock;

    // Starts from the files known to exist (the initial scan).
    ChangeCoalescer(FileIndex known, std::chrono::milliseconds quietWindow,
                    std::chrono::milliseconds maxLatency);

    // The file was created, written, or moved in.
    void noteExists(const std::filesystem::path& file, Clock::time_point now);
    // The file was deleted or moved away.
    void noteGone(const std::filesystem::path& file, Clock::time_point now);
    // The folder was deleted or moved away: every known or pending file below it is gone.
    void noteSubtreeGone(const std::filesystem::path& folder, Clock::time_point now);

    // Anything noted since the last flush?
    [[nodiscard]] bool hasPending() const noexcept { return !pending_.empty(); }
    // When the pending changes should be flushed (quiet window or max latency reached).
    [[nodiscard]] std::optional<Clock::time_point> deadline() const;
    // Pending changes and the quiet window (or max latency) has passed.
    [[nodiscard]] bool due(Clock::time_point now) const;
    // Pending changes older than the max latency.
    [[nodiscard]] bool overdue(Clock::time_point now) const;

    // Resolves the pending changes into a ChangeSet and makes them the known state.
    // Files noted as existing are stat'ed for their stamp; one that has vanished meanwhile
    // counts as gone (its delete event will find nothing left to report).
    [[nodiscard]] ChangeSet flush();

    // Drops pending observations and diffs a full scan against the known state; the result
    // is flagged `rescanned`.
    [[nodiscard]] ChangeSet rescan(FileIndex current);

    // The last reported state.
    [[nodiscard]] const FileIndex& known() const noexcept { return known_; }

private:
    void touch(Clock::time_point now);

    FileIndex known_;
    std::map<std::filesystem::path, bool> pending_; // file -> exists at the latest observation
    std::chrono::milliseconds quietWindow_;
    std::chrono::milliseconds maxLatency_;
    Clock::time_point firstEvent_{};
    Clock::time_point lastEvent_{};
};

} // namespace scripthost::watcher::detail
