#pragma once
// Finding the C# sources of a script project.

#include "scripthost/game/error.hpp"

#include <filesystem>
#include <vector>

namespace scripthost {

/// Every script source under the given folders (recursively), sorted: the files
/// watcher::isScriptSource accepts, so exactly the files the watcher reports changes of
/// (`.cs` in any case; never under `bin`, `obj` or hidden folders such as `.git`; never an
/// editor's temporary file). The paths are absolute, so the compiler's messages name files an
/// editor can open from anywhere. A missing folder, a path that is not a folder, or no sources
/// at all is an error naming the folder.
[[nodiscard]] Result<std::vector<std::filesystem::path>>
collectScriptSources(const std::vector<std::filesystem::path>& folders);

} // namespace scripthost
