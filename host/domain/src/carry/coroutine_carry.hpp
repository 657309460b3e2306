#pragma once
// Carrying running coroutines from one generation into the next (ScriptCore's
// UEngine.Internal.CoroutineCarry does the managed half; this file the fields in between).

#include "field_access.hpp"
#include "field_types.hpp"
#include "host/model/reload_report.hpp"
#include "managed_dispatcher.hpp"
#include "scripthost/game/error.hpp"
#include "scripthost/game/object_id.hpp"

#include <mono/metadata/image.h>
#include <vector>

namespace scripthost::mono {

/// What carrying needs of one generation.
struct CarrySide {
    MonoDomain* domain = nullptr;
    MonoImage* scriptCore = nullptr;         ///< where UEngine.Internal.CoroutineCarry lives
    ManagedDispatcher* dispatcher = nullptr; ///< Export runs through it (ScriptRuntime.Call)
    MarshalContext marshal;
    const TypeClasses* types = nullptr;
};

/// Carries every coroutine running in `from` into `to`, whose scripts are instantiated,
/// restored and attached (nothing run yet): exports them from `from`, asks `to` for a plan
/// (resume, restart or stop each), copies the iterators' fields by the value rules
/// (field_access.hpp; references by id; the current value is not copied: the scheduler
/// holds what each one waits for), falls back from resume to restart, or from restart to
/// stop, when a field cannot be copied exactly, and has `to` adopt the result. `from` is
/// only read: a reload that rolls back finds its coroutines as they were. The outcomes' class
/// names are left for the caller, which knows the scripts.
[[nodiscard]] Result<std::vector<CoroutineOutcome>> carryCoroutines(const CarrySide& from,
                                                                    const CarrySide& to);

/// Runs the export once in a generation that has no coroutine yet (its warm stage), so the
/// swap that will replace it pays neither the JIT nor the invoke wrapper of that call.
/// Export runs through the generation's dispatcher, as carryCoroutines runs it.
[[nodiscard]] Result<void> prepareExport(ManagedDispatcher& dispatcher);

} // namespace scripthost::mono
