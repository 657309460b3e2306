#pragma once
// Finding the C# sources of a script project.

#include "host/error.hpp"

#include <filesystem>
#include <vector>

namespace scripthost {

/// Every `*.cs` file under the given folders (recursively), sorted, skipping build and
/// tool folders (`bin`, `obj`, and hidden ones such as `.git`). A missing folder, a path
/// that is not a folder, or no sources at all is an error naming the folder.
[[nodiscard]] Result<std::vector<std::filesystem::path>>
collectScriptSources(const std::vector<std::filesystem::path>& folders);

} // namespace scripthost
