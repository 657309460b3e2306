#pragma once
// FieldWatch: script fields read again and again — what the inspector shows changing live.
// Its rows are fixed when it is made (one per watched field, in the order asked); what a
// row reads is resolved against the host's classes, and resolved again whenever they change
// shape (a reload, new native classes). A sweep reads every row once; sample() reads a
// slice of it, so a caller can spread a large watch over several frames. Main thread only,
// between frames (it reads the scripts' memory).

#include "host/engine/script_host.hpp"
#include "host/model/script_class_info.hpp"
#include "host/model/value.hpp"
#include "scripthost/game/object_id.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scripthost {

/// What to watch: some fields of one script.
struct FieldWatchTarget {
    ObjectId script;
    std::vector<std::string> fields; ///< empty: every field the inspector shows
};

/// One watched field.
struct FieldWatchRow {
    std::size_t target = 0; ///< its FieldWatchTarget
    std::string field;
    FieldType type; ///< the field's type when the watch was made
};

class FieldWatch {
public:
    /// A problem with one of make()'s targets: its index there, and why.
    struct Problem {
        std::size_t target = 0;
        std::string message;
    };

    /// Rows for `targets` against the host's classes now. A target whose script has no
    /// loaded class, or a field it lacks, adds no row; each such problem is appended to
    /// `problems`.
    [[nodiscard]] static FieldWatch make(ScriptHost& host,
                                         const std::vector<FieldWatchTarget>& targets,
                                         std::vector<Problem>& problems);

    [[nodiscard]] const std::vector<FieldWatchRow>& rows() const noexcept { return rows_; }
    [[nodiscard]] const std::vector<FieldWatchTarget>& targets() const noexcept { return targets_; }

    /// Starts a sweep: sample() goes on from the first row.
    void beginSweep() noexcept { nextTarget_ = 0; }
    /// Reads the next targets' rows until `maxRows` more rows are read or `deadline` passes
    /// (checked every few targets, so one call may overrun it by a few reads). True once the
    /// sweep has read every row.
    bool sample(ScriptHost& host, std::size_t maxRows,
                std::chrono::steady_clock::time_point deadline);
    /// Rows the sweep has read so far.
    [[nodiscard]] std::size_t rowsSampled() const noexcept;

    /// The values of the last sweep, one per row; meaningful where present() is 1. A row is
    /// absent when its script is gone, its field is gone or has changed type since the watch
    /// was made, or it could not be read.
    [[nodiscard]] std::vector<Value>& values() noexcept { return values_; }
    [[nodiscard]] std::vector<std::uint8_t>& present() noexcept { return present_; }

private:
    struct Resolved {
        std::size_t firstRow = 0;
        std::size_t rowCount = 0;
        std::vector<std::uint32_t> indices; ///< per row, its field's index; kMissing when gone
        bool whole = false;                 ///< every row resolved: one read for them all
        /// The host's classesVersion() the indices were found under; none yet: never.
        std::uint64_t classesVersion = ~std::uint64_t{0};
        /// The script, found under `classesVersion` and the host's `instancesVersion`.
        std::optional<ScriptHost::FoundScript> found;
        std::uint64_t instancesVersion = 0;
    };
    static constexpr std::uint32_t kMissing = 0xffffffffu;

    /// Resolves one target's rows against the host's classes now. Each target is resolved
    /// when a sweep reaches it, so that after a reload the work is spread like the reading.
    void resolve(ScriptHost& host, std::size_t target);
    void readTarget(ScriptHost& host, std::size_t target);

    std::vector<FieldWatchTarget> targets_;
    std::vector<FieldWatchRow> rows_;
    std::vector<Resolved> resolved_; ///< per target
    std::size_t nextTarget_ = 0;
    std::vector<Value> values_;
    std::vector<std::uint8_t> present_;
};

} // namespace scripthost
