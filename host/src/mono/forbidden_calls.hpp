#pragma once
// Calls scripts may not make because they would defeat the host's safety nets.

#include <mono/metadata/image.h>
#include <string>
#include <vector>

namespace scripthost::mono {

/// The forbidden methods `image` references, as "Namespace.Type.Method", each once.
/// Today: System.Threading.Thread.ResetAbort, which would let a runaway script cancel
/// the watchdog's abort and keep the main thread forever. Reads the image's MemberRef
/// table, so it finds direct calls (not calls made through reflection).
[[nodiscard]] std::vector<std::string> forbiddenCalls(MonoImage* image);

} // namespace scripthost::mono
