#pragma once
// ElfCheck: whether a file is an ELF object whole enough to hand to dlopen.

#include <cstdint>
#include <filesystem>
#include <string>

namespace scripthost {

/// What a file holds, as far as loading it as a library goes. dlopen maps a library's segments
/// from the file without comparing them with its size: one cut short (a writer killed or
/// stopped before the end: its close still looks like the end of a build) maps pages past the
/// end of the file, and the loader dies of SIGBUS when it touches them. So a file is checked
/// before it is loaded: every header and every loadable segment must lie within it.
struct ElfCheck {
    enum class Shape {
        NotElf,   ///< no ELF magic (or not there, or unreadable): not a library at all
        CutShort, ///< an ELF object whose headers or segments reach past the end of the file
        Whole,    ///< an ELF object whose headers and loadable segments all lie within it
    };
    Shape shape = Shape::NotElf;
    std::uintmax_t size = 0;   ///< the file's size in bytes
    std::uintmax_t needed = 0; ///< CutShort: the size its headers and segments need
    std::string why;           ///< NotElf and CutShort: one line, naming the file

    [[nodiscard]] bool whole() const noexcept { return shape == Shape::Whole; }
};

/// Reads `file`'s ELF header and program headers (a few hundred bytes) and says whether it is
/// whole: 32- and 64-bit objects in this machine's byte order are checked; one in the other
/// byte order (or of another class) counts as whole, since dlopen refuses it before it maps
/// anything.
/// `name`: what the messages call the file (default: `file`), e.g. the library a copy was made
/// of.
[[nodiscard]] ElfCheck checkElf(const std::filesystem::path& file,
                                const std::filesystem::path& name = {});

} // namespace scripthost
