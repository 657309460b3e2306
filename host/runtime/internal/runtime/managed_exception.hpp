#pragma once
// Reading a managed exception into plain text.

#include <mono/metadata/object.h>
#include <string>

namespace scripthost::mono {

/// A managed exception as text: "System.InvalidOperationException", its Message, and
/// its ToString() — type, message and the managed stack with file:line.
struct ManagedException {
    std::string type;
    std::string message;
    std::string text;
};

/// Describes `exception` (a System.Exception). Never throws; never calls into a script
/// (ToString of a user-defined exception is still managed code, so it is guarded too).
[[nodiscard]] ManagedException describeException(MonoObject* exception);

/// What a failed call reports about `exception`: its ToString(), or for the watchdog's
/// abort (a ThreadAbortException) that the script ran past its budget, and where it was.
[[nodiscard]] std::string thrownText(MonoObject* exception);

} // namespace scripthost::mono
