#pragma once

#include "watcher/change_set.hpp"
#include "watcher/path_filter.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace scripthost::watcher::detail {

// What the polling backend and rescans compare to tell whether a file changed.
// The inode catches rename-over saves that keep size and (coarse) mtime.
struct FileStamp {
    std::int64_t mtimeNs = 0;
    std::int64_t ctimeNs = 0;
    std::uintmax_t size = 0;
    std::uint64_t inode = 0;

    friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

// Known files (absolute paths) and their stamps, sorted.
using FileIndex = std::map<std::filesystem::path, FileStamp>;

// Stamp of a regular file (symlinks followed), or nothing if it is not one / is gone.
[[nodiscard]] std::optional<FileStamp> stampOf(const std::filesystem::path& file);

// Which folder a path names: a folder put in another's place (deleted and re-created, or
// another folder renamed over it) has another identity. The birth time tells a re-created
// folder from the old one when the file system reuses the freed inode number (ext4 does).
struct FolderIdentity {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::int64_t birthNs = 0; // 0 where the file system does not record it

    friend bool operator==(const FolderIdentity&, const FolderIdentity&) = default;
};

// Identity of the folder at `path` (a symlink is not followed: it is not a folder), or
// nothing when there is no folder there.
[[nodiscard]] std::optional<FolderIdentity> folderIdentityOf(const std::filesystem::path& path);

// True if `path` is `dir` or lies below it (lexical, both absolute and normal).
[[nodiscard]] bool isWithin(const std::filesystem::path& path, const std::filesystem::path& dir);

// Callbacks of walkTree: onDirectory runs before a folder is listed and returns false to skip
// it; onFile gets every accepted file.
struct TreeVisitor {
    std::function<bool(const std::filesystem::path& dir)> onDirectory;
    std::function<void(const std::filesystem::path& file)> onFile;
};

// Recursively visits `start` (a folder at or below `root`) honouring the filter. Folder
// symlinks are not followed; folders vanishing mid-walk are skipped silently.
void walkTree(const std::filesystem::path& root, const std::filesystem::path& start,
              const PathFilter& filter, const TreeVisitor& visitor);

// Full scan of every accepted file below the roots.
[[nodiscard]] FileIndex scanRoots(const std::vector<std::filesystem::path>& roots,
                                  const PathFilter& filter);

// Files added, removed, and changed (different stamp) from `before` to `after`.
[[nodiscard]] ChangeSet diffIndexes(const FileIndex& before, const FileIndex& after);

} // namespace scripthost::watcher::detail
