#pragma once
// lastEditedAssemblies: which assemblies of a project were edited last, from the modification
// times of their sources, for the next reload's domain to leave out (it loads ahead only what
// the next build will reuse). It is what a host that has just started knows of where the
// developer was working: the sources saved last before it started.

#include "compiler_bridge/assembly_layout.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <set>
#include <string>

namespace scripthost {

/// The assemblies of `layout` whose sources were saved last, when the files' times set them
/// apart from the rest. Each assembly's time is that of its newest source (`ignored`: files
/// whose time says nothing of an edit, e.g. those the host writes itself); ranked newest first,
/// the answer is the longest run of at most `most` newest assemblies that the next one's time
/// trails by at least `apart` — empty when none does, as after a checkout, where every file
/// was written within moments of the others. Never every assembly of the layout, and never one
/// without a source left to time.
[[nodiscard]] std::set<std::string>
lastEditedAssemblies(const compiler::AssemblyLayout& layout,
                     const std::set<std::filesystem::path>& ignored, std::size_t most,
                     std::chrono::seconds apart);

} // namespace scripthost
