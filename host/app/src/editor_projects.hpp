#pragma once
// Editor projects: what C# editors (C# Dev Kit, OmniSharp, Rider) load for completion and
// diagnostics — one SDK-style `<Assembly>.csproj` per script assembly and a `.sln` naming them
// all, as Unity generates them. One project per assembly rather than one for every source:
// each then compiles exactly what mcs compiles for that assembly, so a reference an assembly
// does not declare (Core using a Leaf class) is an error in the editor too, not only when the
// host builds it; and editors load a solution's projects as one workspace, going to
// definition across them. Nothing here is built or run by scripthost.
//
// Written by `scripthost new`, and rewritten by `scripthost run` whenever the scripts' layout
// changes (a definition, or a file added or removed) in a project folder whose solution
// scripthost wrote (its first lines say so); files whose text is the same are not touched.

#include "compiler_bridge/assembly_layout.hpp"
#include "project_template.hpp"
#include "scripthost/game/error.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace scripthost {

/// The projects of `layout`'s assemblies and the solution `<solutionName>.sln`, for files in
/// `projectFolder` (sources are named relative to it), each referencing `scriptCore`.
[[nodiscard]] std::vector<ProjectFile> editorProjects(const compiler::AssemblyLayout& layout,
                                                      const std::filesystem::path& projectFolder,
                                                      const std::string& solutionName,
                                                      const std::filesystem::path& scriptCore);

/// `layout` with each of `generated` (files the host writes into its build folder, which may be
/// a temporary one: the native scripts' proxies) that a source of it names copied into
/// `projectFolder`/obj/<Assembly>/ (where MSBuild keeps what it generates) and named there
/// instead, so editors still see them once the run is over. A copy is written only when its text
/// changed; an error when one cannot be.
[[nodiscard]] Result<compiler::AssemblyLayout>
withGeneratedCopies(compiler::AssemblyLayout layout, const std::filesystem::path& projectFolder,
                    const std::vector<std::filesystem::path>& generated);

/// Whether `projectFolder` has a solution scripthost wrote (then `run` keeps it up to date);
/// its name without `.sln`, or empty.
[[nodiscard]] std::string generatedSolutionIn(const std::filesystem::path& projectFolder);

/// Writes editorProjects() into `projectFolder`, only the files whose text changed, and removes
/// the projects it wrote for assemblies that are gone. Returns how many files were written or
/// removed.
[[nodiscard]] Result<std::size_t> writeEditorProjects(const compiler::AssemblyLayout& layout,
                                                      const std::filesystem::path& projectFolder,
                                                      const std::string& solutionName,
                                                      const std::filesystem::path& scriptCore);

} // namespace scripthost
