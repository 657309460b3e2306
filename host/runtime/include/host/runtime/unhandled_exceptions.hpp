#pragma once
// What the main thread takes from the runtime's unhandled-exception mailbox.

#include "host/runtime/unhandled_exception_mailbox.hpp"

namespace scripthost {

/// Takes every exception no one caught off the game loop since the last call (each was
/// logged where it happened). Main thread.
[[nodiscard]] mono::UnhandledExceptionMailbox::Taken takeUnhandledExceptions();

} // namespace scripthost
