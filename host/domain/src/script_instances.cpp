#include "script_instances.hpp"

#include "runtime/checked_call.hpp"

#include <fmt/format.h>

namespace scripthost::mono {

Result<GcHandle> ScriptInstances::construct(MonoDomain* domain, const ScriptClassEntry& entry) {
    if (entry.ctor == nullptr) {
        return fail(fmt::format("{} needs a parameterless constructor", entry.info.name));
    }
    if (!entry.prepareConstruction(domain)) {
        return fail(fmt::format("{} cannot be loaded", entry.info.name));
    }
    MonoObject* object = mono_object_new_specific(entry.vtable);
    if (object == nullptr) {
        return fail(fmt::format("cannot allocate a {}", entry.info.name));
    }
    // Through mono_runtime_invoke, not an unmanaged thunk: the watchdog's abort cannot
    // land in code a thunk called unless a managed handler is on the stack (measured), and
    // the runtime-invoke wrapper has one. A constructor is called once per instance.
    auto constructed = invokeChecked(domain, entry.ctor, object, [&] {
        return fmt::format("the constructor of {} threw: ", entry.info.name);
    });
    if (!constructed)
        return std::unexpected(constructed.error());
    return GcHandle::strong(object);
}

} // namespace scripthost::mono
