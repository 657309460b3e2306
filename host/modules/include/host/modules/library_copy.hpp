#pragma once
// Copying a game module's library as one whole build, for the loader.

#include <cstdint>
#include <expected>
#include <filesystem>
#include <optional>
#include <string>

namespace scripthost {

/// A library file as it was when looked at: modified when, how long, which inode (a linker
/// that deletes and re-creates the file, or renames a new one into place, makes a new inode;
/// `cp` over it keeps the inode).
struct LibraryStamp {
    std::int64_t modified = 0; ///< nanoseconds since the epoch
    std::uintmax_t size = 0;
    std::uintmax_t inode = 0;
    bool operator==(const LibraryStamp&) const = default;
};

/// `file`'s stamp now (through symlinks); none when it is not there.
[[nodiscard]] std::optional<LibraryStamp> stampOf(const std::filesystem::path& file);

/// A build of the library, copied whole.
struct LibraryCopy {
    std::filesystem::path path; ///< the copy, to load
    LibraryStamp stamp;         ///< the library as it was copied
    /// A read lease showed that no process had the library open for writing, and none could
    /// open it for writing while it was copied. False: the kernel grants no lease here (not
    /// the file's owner, or a file system without leases): only the writer's close vouches.
    bool writersChecked = false;
};

/// Why a build was not copied.
struct LibraryCopyRefusal {
    enum class Reason {
        BeingWritten, ///< some process has the library open for writing: wait for its close
        NotWhole,     ///< not an ELF library, or one cut short (ElfCheck)
        Failed,       ///< the library cannot be read, or the copy cannot be written
    };
    Reason reason = Reason::Failed;
    std::string message;               ///< one line, naming the file
    std::optional<LibraryStamp> stamp; ///< the library as it was looked at, if it was there
};

/// Copies `library` to `copy` as one whole build, for dlopen. Under a read lease
/// (posix::ReadLease) when the kernel grants one: refused (BeingWritten) while any process
/// has the library open for writing — a second writer, not only the one whose close was seen
/// — and no process can start writing it while it is copied (a writer's open waits the
/// millisecond or two the copy takes). Without a lease, copied as it is. Then the copy must be
/// a whole ELF object (checkElf). The copy is written beside `copy` and renamed over it, so a
/// file of that name that is loaded already is never rewritten under the loader.
[[nodiscard]] std::expected<LibraryCopy, LibraryCopyRefusal>
copyLibraryBuild(const std::filesystem::path& library, const std::filesystem::path& copy);

} // namespace scripthost
