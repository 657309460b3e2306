#pragma once
// collectSources: the .cs files of a script folder, as a build's source list.

#include <filesystem>
#include <vector>

namespace scripthost::compiler {

/// Every regular file under `root` that is a script source by watcher::isScriptSource (a
/// `.cs` file in any case, not hidden, not an editor's temporary file, not under `bin/`,
/// `obj/` or a hidden folder), recursively, absolute and sorted. Empty when there are none or
/// `root` cannot be read; files that vanish during the scan are simply not listed.
[[nodiscard]] std::vector<std::filesystem::path> collectSources(const std::filesystem::path& root);

} // namespace scripthost::compiler
