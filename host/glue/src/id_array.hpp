#pragma once
// Object ids handed to ScriptCore as a managed ulong[].

#include "script_error.hpp"
#include "scripthost/game/object_id.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/object.h>
#include <vector>

namespace scripthost::glue {

/// A new ulong[] of the packed ids in this domain; throws ScriptError when Mono cannot
/// allocate it.
inline MonoArray* idArray(const std::vector<ObjectId>& ids) {
    MonoArray* array = mono_array_new(mono_domain_get(), mono_get_uint64_class(), ids.size());
    if (array == nullptr)
        throw ScriptError(ManagedError::InvalidOperation, "cannot allocate the list of ids");
    for (std::size_t i = 0; i < ids.size(); ++i)
        mono_array_set(array, std::uint64_t, i, ids[i].packed());
    return array;
}

} // namespace scripthost::glue
