#pragma once
// ScriptFailureTracker: decides which script failures to log and when to disable a script.

#include "host/model/script_phase.hpp"
#include "scripthost/game/object_id.hpp"

#include <cstdint>
#include <unordered_map>

namespace scripthost {

/// Keeps a script that throws on every frame from flooding the log or running forever.
/// The first failure of a streak is logged in full; repeats are logged with their count
/// at 10, 100, 1000, …; at `disableAfter` consecutive failures the script is disabled
/// (0 means never). A call that succeeds ends the streak (the dispatcher counts
/// consecutive failures, so the tracker is told the count with each failure).
class ScriptFailureTracker {
public:
    explicit ScriptFailureTracker(int disableAfter = 10) noexcept : disableAfter_(disableAfter) {}

    struct Decision {
        bool log = false;                ///< write this failure to the log
        bool disable = false;            ///< disable the script now
        std::uint64_t totalFailures = 0; ///< all failures of this script so far
    };

    /// Records one failure of `script` that is the `consecutive`-th in a row.
    [[nodiscard]] Decision record(ObjectId script, ScriptPhase phase, int consecutive);

    /// Forgets a script (when it is removed or re-enabled).
    void forget(ObjectId script) { totals_.erase(script); }

    [[nodiscard]] int disableAfter() const noexcept { return disableAfter_; }
    void setDisableAfter(int n) noexcept { disableAfter_ = n; }

    /// Failures recorded since start, all scripts.
    [[nodiscard]] std::uint64_t totalFailures() const noexcept { return allFailures_; }

private:
    int disableAfter_;
    std::unordered_map<ObjectId, std::uint64_t> totals_;
    std::uint64_t allFailures_ = 0;
};

} // namespace scripthost
