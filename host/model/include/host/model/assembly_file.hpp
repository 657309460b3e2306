#pragma once
// AssemblyFile: a compiled assembly and its debug symbols, read into memory.

#include "scripthost/game/error.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace scripthost {

/// The bytes of an assembly (and of its .mdb when there is one). Assemblies are loaded
/// from these bytes, never from the path, so a rebuilt file can never be half-read and
/// Mono's per-path image cache can never hand back old code.
struct AssemblyFile {
    std::string name;           ///< file name, e.g. "Scripts.dll"
    std::filesystem::path path; ///< where it was read from
    std::vector<char> image;    ///< the PE image
    std::vector<char> symbols;  ///< the .mdb, empty when absent

    /// Reads `dll` and `dll.mdb` (when present).
    [[nodiscard]] static Result<AssemblyFile> read(const std::filesystem::path& dll);
};

} // namespace scripthost
