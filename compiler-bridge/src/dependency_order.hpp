#pragma once
// dependencyOrder: a layout's assemblies sorted so that each comes after those it references.

#include "compiler_bridge/assembly_layout.hpp"

#include <vector>

namespace scripthost::compiler {

/// `assemblies` in dependency order, every one after those it references, ties broken by name.
/// Every reference must be to one of `assemblies` and they must form no cycle (the layout
/// reader makes sure of both): an assembly waiting on one that never comes is left out.
[[nodiscard]] std::vector<ScriptAssembly> dependencyOrder(std::vector<ScriptAssembly> assemblies);

} // namespace scripthost::compiler
