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
//
// With flushCompleteSaves: when every pending file is known to be completely written (the
// writer closed it, or it was renamed into place: editors' saves end one of these two ways)
// and the files had been quiet for a quiet window before, the changes are due at once:
// nothing is gained by waiting, and a later save supersedes the build anyway. A file still being
// written, any deletion (the first half of a backup rename, say), and saves that follow the last
// flush closely (an autosave burst) wait for the quiet window as before.
class ChangeCoalescer {
public:
    using Clock = std::chrono::steady_clock;

    // Starts from the files known to exist (the initial scan).
    ChangeCoalescer(FileIndex known, std::chrono::milliseconds quietWindow,
                    std::chrono::milliseconds maxLatency, bool flushCompleteSaves = false);

    // The file was created, written, or moved in. `complete`: the event says the file is
    // whole now (closed after writing, or moved into place), not that it is being written.
    void noteExists(const std::filesystem::path& file, Clock::time_point now,
                    bool complete = false);
    // The file was deleted or moved away.
    void noteGone(const std::filesystem::path& file, Clock::time_point now);
    // The folder was deleted or moved away: every known or pending file below it is gone.
    void noteSubtreeGone(const std::filesystem::path& folder, Clock::time_point now);
    // Files may have changed without events (a watch root came back): the next set is a
    // rescan (flagged `rescanned`). Counts as an event for the quiet window, and a set with
    // a rescan in it always waits for the window, so a folder put back and then filled is
    // reported once.
    void noteRescanNeeded(Clock::time_point now);

    // Anything noted since the last flush?
    [[nodiscard]] bool hasPending() const noexcept { return !pending_.empty() || rescanNeeded_; }
    // Is the next set a rescan (noteRescanNeeded since the last flush or rescan)?
    [[nodiscard]] bool rescanNeeded() const noexcept { return rescanNeeded_; }
    // When the pending changes should be flushed: at once when flushCompleteSaves applies
    // (above), else when the quiet window (or max latency) is reached.
    [[nodiscard]] std::optional<Clock::time_point> deadline() const;
    // Pending changes and the quiet window (or max latency) has passed.
    [[nodiscard]] bool due(Clock::time_point now) const;
    // Pending changes older than the max latency.
    [[nodiscard]] bool overdue(Clock::time_point now) const;

    // Resolves the pending changes into a ChangeSet and makes them the known state.
    // Files noted as existing are stat'ed for their stamp; one that has vanished meanwhile
    // counts as gone (its delete event will find nothing left to report); one whose last note
    // said it is whole is listed in `complete` too. The set is flagged `rescanned` (and has no
    // firstSeen) when a rescan was noted.
    [[nodiscard]] ChangeSet flush();

    // Drops pending observations (and a noted rescan) and diffs a full scan against the
    // known state; the result is flagged `rescanned`.
    [[nodiscard]] ChangeSet rescan(FileIndex current);

    // The last reported state.
    [[nodiscard]] const FileIndex& known() const noexcept { return known_; }

private:
    void touch(Clock::time_point now);

    FileIndex known_;
    struct Observation {
        bool exists = false;   // at the latest observation
        bool complete = false; // exists, and the latest event said it is whole
    };
    std::map<std::filesystem::path, Observation> pending_;
    bool rescanNeeded_ = false; // noteRescanNeeded since the last flush or rescan
    std::chrono::milliseconds quietWindow_;
    std::chrono::milliseconds maxLatency_;
    bool flushCompleteSaves_;
    Clock::time_point firstEvent_{};
    Clock::time_point lastEvent_{};
    std::optional<Clock::time_point> flushedEvent_; // the last event of the last flush
};

} // namespace scripthost::watcher::detail
