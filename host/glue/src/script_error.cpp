#include "script_error.hpp"

#include "runtime/runtime_state.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/exception.h>
#include <mono/metadata/object.h>

namespace scripthost::glue {

void raiseManaged(ManagedError kind, const std::string& message) noexcept {
    MonoException* exception = nullptr;
    switch (kind) {
    case ManagedError::ArgumentNull:
        exception = mono_get_exception_argument_null(message.c_str());
        break;
    case ManagedError::Argument:
        exception = mono_get_exception_argument(nullptr, message.c_str());
        break;
    case ManagedError::MissingReference:
        if (MonoImage* core = mono::runtimeState().domains.scriptCoreImage(mono_domain_get())) {
            exception = mono_exception_from_name_msg(core, "UEngine", "MissingReferenceException",
                                                     message.c_str());
        }
        break;
    case ManagedError::InvalidOperation:
        break;
    }
    if (exception == nullptr) {
        exception = mono_get_exception_invalid_operation(message.c_str());
    }
    mono_runtime_set_pending_exception(exception, false);
}

} // namespace scripthost::glue
