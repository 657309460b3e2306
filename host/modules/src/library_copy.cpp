#include "host/modules/library_copy.hpp"

#include "host/modules/elf_check.hpp"
#include "posix/read_lease.hpp"
#include "posix/unique_fd.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

namespace scripthost {

namespace fs = std::filesystem;

namespace {

LibraryStamp stampFrom(const struct stat& info) {
    return LibraryStamp{
        static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec,
        static_cast<std::uintmax_t>(info.st_size), static_cast<std::uintmax_t>(info.st_ino)};
}

/// Copies everything `source` holds, from its start, into a new file `target`; errno or 0.
int copyBytes(int source, const fs::path& target) {
    posix::UniqueFd out(::open(target.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755));
    if (!out)
        return errno;
    off_t offset = 0;
    for (;;) {
        const ssize_t sent = ::sendfile(out.get(), source, &offset, 1 << 24);
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent < 0)
            return errno;
        if (sent == 0)
            break;
    }
    return ::close(out.release()) == 0 ? 0 : errno;
}

} // namespace

std::optional<LibraryStamp> stampOf(const fs::path& file) {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0)
        return std::nullopt;
    return stampFrom(info);
}

std::expected<LibraryCopy, LibraryCopyRefusal> copyLibraryBuild(const fs::path& library,
                                                                const fs::path& copy) {
    using Reason = LibraryCopyRefusal::Reason;
    auto refuse = [](Reason reason, std::string message, std::optional<LibraryStamp> stamp) {
        return std::unexpected(LibraryCopyRefusal{reason, std::move(message), stamp});
    };
    std::optional<posix::ReadLease> lease;
    posix::UniqueFd plain;
    if (auto leased = posix::ReadLease::take(library)) {
        lease.emplace(std::move(*leased));
    } else if (leased.error() == std::errc::resource_unavailable_try_again) {
        return refuse(Reason::BeingWritten,
                      library.string() + " is still open for writing (its build is not done)",
                      stampOf(library));
    } else {
        plain.reset(::open(library.c_str(), O_RDONLY | O_CLOEXEC)); // no lease here: as it is
        if (!plain)
            return refuse(Reason::Failed,
                          "cannot copy " + library.string() + ": " + std::strerror(errno),
                          std::nullopt);
    }
    const int source = lease ? lease->fd() : plain.get();
    struct stat info {};
    if (::fstat(source, &info) != 0)
        return refuse(Reason::Failed,
                      "cannot copy " + library.string() + ": " + std::strerror(errno),
                      std::nullopt);
    const LibraryStamp stamp = stampFrom(info);

    fs::path part = copy;
    part += ".part";
    auto cannotWrite = [&](const std::string& why) {
        std::error_code ignored;
        fs::remove(part, ignored);
        return refuse(Reason::Failed,
                      "cannot copy " + library.string() + " to " + copy.string() + ": " + why,
                      stamp);
    };
    std::error_code ec;
    fs::create_directories(copy.parent_path(), ec);
    if (ec)
        return cannotWrite(ec.message());
    if (const int error = copyBytes(source, part); error != 0)
        return cannotWrite(std::strerror(error));
    const bool writersChecked = lease.has_value();
    lease.reset(); // read: writers may go on
    plain.reset();

    if (const ElfCheck check = checkElf(part, library); !check.whole()) {
        fs::remove(part, ec);
        return refuse(Reason::NotWhole, check.why, stamp);
    }
    fs::rename(part, copy, ec);
    if (ec)
        return cannotWrite(ec.message());
    return LibraryCopy{copy, stamp, writersChecked};
}

} // namespace scripthost
