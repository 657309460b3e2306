#pragma once
// GenerationSwap: a reload's swap stage — every script carried from the running generation
// into the new one, and the new one made current only if all of it worked.

#include "host/error.hpp"
#include "host/reload_report.hpp"

#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "host/object_id.hpp"

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
/// `madeAhead`: the slots instantiateAhead() gave an instance in `next` (step 2 keeps those
/// whose slot is still there, of the same class, and frees the others).
[[nodiscard]] std::expected<std::unique_ptr<ScriptDomain>, SwapFailure>
swapGeneration(ScriptHost& host, std::unique_ptr<ScriptDomain>& next, ReloadReport& report,
               const std::vector<ObjectId>& madeAhead = {});

/// Step 2 of the swap for today's slots, ahead of it (the reserve stage, while the old
/// generation still runs): an instance in `next` for every script slot that is neither
/// parked nor native and whose class `next` has under the same full name, its constructor
/// run under the watchdog with the host's context bound — so the swap's frame does not run
/// them. Returns the slots given one; an error (a constructor threw or ran away) ends the
/// reload as a failed swap would.
[[nodiscard]] Result<std::vector<ObjectId>> instantiateAhead(ScriptHost& host, ScriptDomain& next);

} // namespace scripthost
