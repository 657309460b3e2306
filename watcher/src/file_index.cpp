#include "file_index.hpp"

#include <algorithm>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <system_error>

namespace scripthost::watcher::detail {

namespace fs = std::filesystem;

std::optional<FileStamp> stampOf(const fs::path& file) {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
        return std::nullopt;
    }
    constexpr std::int64_t nsPerSecond = 1'000'000'000;
    return FileStamp{
        .mtimeNs =
            static_cast<std::int64_t>(info.st_mtim.tv_sec) * nsPerSecond + info.st_mtim.tv_nsec,
        .ctimeNs =
            static_cast<std::int64_t>(info.st_ctim.tv_sec) * nsPerSecond + info.st_ctim.tv_nsec,
        .size = static_cast<std::uintmax_t>(info.st_size),
        .inode = static_cast<std::uint64_t>(info.st_ino),
    };
}

std::optional<FolderIdentity> folderIdentityOf(const fs::path& path) {
    struct statx info {};
    if (::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_INO | STATX_BTIME,
                &info) != 0 ||
        !S_ISDIR(info.stx_mode)) {
        return std::nullopt;
    }
    constexpr std::int64_t nsPerSecond = 1'000'000'000;
    const bool hasBirth = (info.stx_mask & STATX_BTIME) != 0;
    return FolderIdentity{
        .device = ::makedev(info.stx_dev_major, info.stx_dev_minor),
        .inode = info.stx_ino,
        .birthNs = hasBirth ? static_cast<std::int64_t>(info.stx_btime.tv_sec) * nsPerSecond +
                                  info.stx_btime.tv_nsec
                            : 0,
    };
}

bool isWithin(const fs::path& path, const fs::path& dir) {
    const auto dirEnd = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end()).first;
    if (dirEnd == dir.end()) {
        return true;
    }
    // "a/b/" ends in an empty element; treat it like "a/b".
    return std::next(dirEnd) == dir.end() && dirEnd->empty();
}

void walkTree(const fs::path& root, const fs::path& start, const PathFilter& filter,
              const TreeVisitor& visitor) {
    if (visitor.onDirectory && !visitor.onDirectory(start)) {
        return;
    }
    std::error_code error;
    fs::directory_iterator it(start, fs::directory_options::skip_permission_denied, error);
    std::vector<fs::path> subfolders;
    for (; !error && it != fs::directory_iterator(); it.increment(error)) {
        const fs::directory_entry& entry = *it;
        std::error_code statError;
        const fs::file_status linkStatus = entry.symlink_status(statError);
        if (statError) {
            continue; // vanished while listing
        }
        const fs::path relative = entry.path().lexically_relative(root);
        if (fs::is_directory(linkStatus)) {
            if (filter.acceptsDirectory(relative)) {
                subfolders.push_back(entry.path());
            }
        } else if (filter.acceptsFile(relative) && visitor.onFile) {
            visitor.onFile(entry.path());
        }
    }
    // Descend after listing so the directory_iterator's descriptor is closed first.
    for (const fs::path& folder : subfolders) {
        walkTree(root, folder, filter, visitor);
    }
}

FileIndex scanRoots(const std::vector<fs::path>& roots, const PathFilter& filter) {
    FileIndex index;
    for (const fs::path& root : roots) {
        walkTree(root, root, filter,
                 TreeVisitor{.onDirectory = {}, .onFile = [&](const fs::path& file) {
                                 if (auto stamp = stampOf(file)) {
                                     index.emplace(file, *stamp);
                                 }
                             }});
    }
    return index;
}

ChangeSet diffIndexes(const FileIndex& before, const FileIndex& after) {
    ChangeSet changes;
    auto old = before.begin();
    auto now = after.begin();
    // Both maps are sorted by the same key: one merge pass.
    while (old != before.end() || now != after.end()) {
        if (now == after.end() || (old != before.end() && old->first < now->first)) {
            changes.removed.push_back(old->first);
            ++old;
        } else if (old == before.end() || now->first < old->first) {
            changes.added.push_back(now->first);
            ++now;
        } else {
            if (!(old->second == now->second)) {
                changes.modified.push_back(now->first);
            }
            ++old;
            ++now;
        }
    }
    return changes;
}

} // namespace scripthost::watcher::detail
