#pragma once
// GenerationSwap: a reload's swap stage — every script carried from the running generation
// into the new one, and the new one made current only if all of it worked.

#include "host/model/reload_report.hpp"
#include "scripthost/game/error.hpp"

#include <expected>
#include <memory>
#include <string>

namespace scripthost {

class ScriptDomain;
class ScriptHost;

/// Why a swap stopped: the report's failedPhase ("snapshot", "instantiate", "restore",
/// "hooks", "load") and the error.
struct SwapFailure {
    std::string phase;
    std::string message;
};

/// Runs the swap stage of a reload of `host` to `next` (loaded and warmed), filling the
/// report's counts, outcomes, warnings and snapshot/restore/hooks timings:
///  1. settles the old generation (destroy queues) and snapshots what cannot be carried
///     instance to instance;
///  2. creates an instance for every script slot, same ids, same order; a slot whose class
///     is missing now is parked with its state;
///  3. restores fields by the migration rules (field_migration.hpp) or carries them
///     directly, then the [PreserveStatic] statics;
///  4. schedules the instances and runs their OnAfterReload;
///  5. commits: `next` becomes the host's generation, the staged parked state its parked
///     state, and script-owned entities nothing refers to any more are released.
/// Script code runs under the watchdog with the host's context bound. On success returns
/// the generation `next` replaced (the caller lets go of it); on failure `next` is left to
/// the caller to unload and the host is exactly as it was.
/// Instances instantiateAhead() made in `next` are kept in step 2 (those of slots gone since
/// are freed). The report's restoreMs is added to (instantiateAhead's time may be in it).
[[nodiscard]] std::expected<std::unique_ptr<ScriptDomain>, SwapFailure>
swapGeneration(ScriptHost& host, std::unique_ptr<ScriptDomain>& next, ReloadReport& report);

/// Step 2 of the swap for today's slots, ahead of it (the reserve stage, while the old
/// generation still runs): an instance in `next` for every script slot that is neither
/// parked nor native and whose class `next` has under the same full name, its constructor
/// run under the watchdog with the host's context bound — so the swap's frame does not run
/// them. An error (a constructor threw or ran away) ends the reload as a failed swap would.
[[nodiscard]] Result<void> instantiateAhead(ScriptHost& host, ScriptDomain& next);

} // namespace scripthost
