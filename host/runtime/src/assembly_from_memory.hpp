#pragma once
// Loading an assembly from its bytes and symbols (docs/MONO.md §3).

#include "host/model/assembly_file.hpp"
#include "scripthost/game/error.hpp"

#include <mono/metadata/assembly.h>
#include <string>

namespace scripthost::mono {

/// Opens `file`'s bytes as an image named `imageName` (a name this process never used
/// before: image names are a process-wide cache), opens its symbols when it has any, and
/// loads the assembly into the current domain. The assembly holds the image.
[[nodiscard]] Result<MonoAssembly*> loadAssemblyFromMemory(const AssemblyFile& file,
                                                           const std::string& imageName);

} // namespace scripthost::mono
