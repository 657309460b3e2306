#pragma once
// The one rule for "is this file a C# script source": the watcher reports exactly these files
// (and the assembly definitions that say which assembly each goes into, and the precompiled
// assemblies the scripts are built against) and the compiler's source collector
// (compiler::collectSources) builds exactly these files, so every reported save changes what
// is compiled and nothing compiled goes unwatched.

#include <filesystem>
#include <string_view>

namespace scripthost::watcher {

/// Is the file at `relativeToRoot` (a path below a script root, e.g. "AI/Enemy.cs") a script
/// source? It is when:
///  - its extension is ".cs" in any ASCII case ("Enemy.CS" too: mcs compiles it, and a
///    Windows-made project may spell it so), after a non-empty stem;
///  - no component (folder or file) is hidden, i.e. starts with '.' (".git/", ".vscode/",
///    emacs' ".#Enemy.cs" lock links, vim's ".Enemy.cs.swp");
///  - no folder component is "bin" or "obj" (build output; exact case, as the build tools
///    write them);
///  - it is not an editor's temporary or backup file (isEditorTempFile).
/// The path must be relative and stay below the root: an absolute path, or one with a ".."
/// component, is not a script source. "." components are ignored.
[[nodiscard]] bool isScriptSource(const std::filesystem::path& relativeToRoot);

/// Is the file at `relativeToRoot` one of Unity's assembly definition files, which lay out
/// the scripts' assemblies by folder: ".asmdef", ".asmref" or an ".asmdef.meta" (where a
/// definition's GUID is), in any ASCII case, under the same folder rules as a script source?
/// The watcher reports these too (a changed definition changes what is built); the source
/// collector does not build them.
[[nodiscard]] bool isAssemblyDefinitionFile(const std::filesystem::path& relativeToRoot);

/// Is the file at `relativeToRoot` a precompiled assembly (a plugin: ".dll", in any ASCII
/// case) or the ".dll.meta" Unity writes beside it, under the same folder rules as a script
/// source? The watcher reports these too (the assemblies built against a plugin are rebuilt
/// when it changes); the assembly layout finds the .dll files (compiler::readAssemblyLayout).
[[nodiscard]] bool isPrecompiledAssemblyFile(const std::filesystem::path& relativeToRoot);

/// Can the folder at `relativeToRoot` (below a script root) contain script sources? False
/// when any of its components is hidden, "bin" or "obj" (so walkers need not descend into
/// it); the root itself ("" or ".") is a script folder.
[[nodiscard]] bool isScriptFolder(const std::filesystem::path& relativeToRoot);

/// Is `fileName` (one path component) an editor's temporary, lock or backup file rather than
/// something a person saved? Emacs lock links ".#x" and autosaves "#x#", backups "x~", vim's
/// swap files (".x.swp", ".x.swo", ...) and its write probe "4913" (vim creates and deletes
/// a file named 4913, 5036, ... to test whether a folder is writable).
[[nodiscard]] bool isEditorTempFile(std::string_view fileName);

} // namespace scripthost::watcher
