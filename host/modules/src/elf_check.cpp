#include "host/modules/elf_check.hpp"

#include "posix/unique_fd.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace scripthost {

namespace {

/// Reads exactly `size` bytes at `offset`; false when the file ends first or a read fails.
bool readAt(int fd, void* into, std::size_t size, std::uintmax_t offset) {
    auto* bytes = static_cast<char*>(into);
    while (size > 0) {
        const ssize_t got = ::pread(fd, bytes, size, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        bytes += got;
        size -= static_cast<std::size_t>(got);
        offset += static_cast<std::uintmax_t>(got);
    }
    return true;
}

/// `offset + count * each`, saturated (a header's fields are the file's word, not ours).
std::uintmax_t endOf(std::uintmax_t offset, std::uintmax_t count, std::uintmax_t each) {
    const auto most = std::numeric_limits<std::uintmax_t>::max();
    if (each != 0 && count > (most - offset) / each)
        return most;
    return offset + count * each;
}

/// The size `Ehdr`/`Phdr`'s object in `fd` needs: its headers, its section header table and
/// every loadable segment's bytes in the file.
template <typename Ehdr, typename Phdr> std::uintmax_t neededSize(int fd, std::uintmax_t size) {
    Ehdr header{};
    if (!readAt(fd, &header, sizeof header, 0))
        return sizeof header;
    std::uintmax_t needed = sizeof header;
    needed = std::max(needed, endOf(header.e_phoff, header.e_phnum, header.e_phentsize));
    if (header.e_shoff != 0)
        needed = std::max(needed, endOf(header.e_shoff, header.e_shnum, header.e_shentsize));
    if (needed > size || header.e_phentsize < sizeof(Phdr))
        return needed; // the program headers are not all there (or not of this kind)
    for (std::uintmax_t i = 0; i < header.e_phnum; ++i) {
        Phdr segment{};
        if (!readAt(fd, &segment, sizeof segment, header.e_phoff + i * header.e_phentsize))
            return std::max(needed, size + 1);
        if (segment.p_type == PT_LOAD)
            needed = std::max(needed, endOf(segment.p_offset, 1, segment.p_filesz));
    }
    return needed;
}

} // namespace

ElfCheck checkElf(const std::filesystem::path& file, const std::filesystem::path& name) {
    const std::string shown = (name.empty() ? file : name).string();
    ElfCheck check;
    posix::UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    struct stat info {};
    if (!fd || ::fstat(fd.get(), &info) != 0) {
        check.why = fmt::format("cannot read {}: {}", shown, std::strerror(errno));
        return check;
    }
    check.size = static_cast<std::uintmax_t>(info.st_size);
    std::array<unsigned char, EI_NIDENT> ident{};
    if (!readAt(fd.get(), ident.data(), ident.size(), 0) ||
        std::memcmp(ident.data(), ELFMAG, SELFMAG) != 0) {
        check.why = shown + " is not an ELF shared library";
        return check;
    }
    const unsigned char native =
        std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB;
    if (ident[EI_DATA] != native ||
        (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64)) {
        check.shape = ElfCheck::Shape::Whole; // dlopen refuses it before mapping anything
        return check;
    }
    check.needed = ident[EI_CLASS] == ELFCLASS64
                       ? neededSize<Elf64_Ehdr, Elf64_Phdr>(fd.get(), check.size)
                       : neededSize<Elf32_Ehdr, Elf32_Phdr>(fd.get(), check.size);
    if (check.needed > check.size) {
        check.shape = ElfCheck::Shape::CutShort;
        check.why = fmt::format("{} is cut short: {} bytes, its ELF headers and segments need {} "
                                "(its writer stopped before the end?)",
                                shown, check.size, check.needed);
        return check;
    }
    check.shape = ElfCheck::Shape::Whole;
    return check;
}

} // namespace scripthost
