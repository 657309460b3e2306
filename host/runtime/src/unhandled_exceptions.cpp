#include "host/runtime/unhandled_exceptions.hpp"

#include "runtime/runtime_state.hpp"

namespace scripthost {

// The mailbox is the runtime's (mono::RuntimeState::unhandledExceptions): the threads that
// post to it have no ScriptContext to find a host by.
mono::UnhandledExceptionMailbox::Taken takeUnhandledExceptions() {
    return mono::runtimeState().unhandledExceptions.take();
}

} // namespace scripthost
