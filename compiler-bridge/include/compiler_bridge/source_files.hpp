#pragma once
// collectSources: the .cs files of a script folder, as a build's source list.

#include <filesystem>
#include <vector>

namespace scripthost::compiler {

/// Every regular `*.cs` file under `root` (recursively, skipping `bin/`, `obj/` and hidden
/// folders), absolute and sorted. Empty when there are none or `root` cannot be read;
/// files that vanish during the scan are simply not listed.
[[nodiscard]] std::vector<std::filesystem::path> collectSources(const std::filesystem::path& root);

} // namespace scripthost::compiler
