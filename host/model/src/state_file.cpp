#include "host/model/state_file.hpp"

#include <cerrno>
#include <charconv>
#include <csignal>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace scripthost {

namespace {

std::string systemError(const std::string& what) {
    return what + ": " + std::strerror(errno);
}

// FILE.tmp-<pid> beside `path` whose process is gone: a save that never reached its rename.
std::vector<std::filesystem::path> removeStaleTemporaries(const std::filesystem::path& path) {
    std::vector<std::filesystem::path> removed;
    const std::string prefix = path.filename().string() + ".tmp-";
    const std::filesystem::path folder =
        path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(prefix) || !entry.is_regular_file(ec))
            continue;
        const std::string pidText = name.substr(prefix.size());
        pid_t pid = 0;
        const auto parsed = std::from_chars(pidText.data(), pidText.data() + pidText.size(), pid);
        if (parsed.ec != std::errc() || parsed.ptr != pidText.data() + pidText.size() || pid <= 0)
            continue; // not ours
        if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH)
            continue; // a live host may be saving right now
        if (std::filesystem::remove(entry.path(), ec))
            removed.push_back(entry.path());
    }
    return removed;
}

} // namespace

Result<StateFile::Loaded> StateFile::load() const {
    Loaded loaded;
    loaded.staleRemoved = removeStaleTemporaries(path_);
    std::error_code ec;
    if (!std::filesystem::exists(path_, ec))
        return loaded;
    auto scene = Scene::load(path_);
    if (scene) {
        loaded.scene = std::move(*scene);
        return loaded;
    }
    const auto stamp = std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
    std::filesystem::path aside = path_;
    aside += fmt::format(".corrupt-{}", stamp);
    for (int n = 1; std::filesystem::exists(aside, ec); ++n) {
        aside = path_;
        aside += fmt::format(".corrupt-{}-{}", stamp, n);
    }
    std::filesystem::rename(path_, aside, ec);
    if (ec) {
        return fail("state file " + path_.string() + " is corrupt (" + scene.error().message +
                    ") and cannot be moved aside: " + ec.message());
    }
    loaded.movedAsideTo = aside;
    loaded.problem = scene.error().message;
    return loaded;
}

Result<void> StateFile::save(const Scene& scene) const {
    const std::string text = scene.toJson().dump(2) + "\n";
    std::error_code ec;
    if (path_.has_parent_path())
        std::filesystem::create_directories(path_.parent_path(), ec);
    std::filesystem::path temp = path_;
    temp += fmt::format(".tmp-{}", ::getpid());
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(systemError("cannot write " + temp.string()));
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const std::string message = systemError("cannot write " + temp.string());
            ::close(fd);
            ::unlink(temp.c_str());
            return fail(message);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const std::string message = systemError("cannot flush " + temp.string());
        ::unlink(temp.c_str());
        return fail(message);
    }
    if (::rename(temp.c_str(), path_.c_str()) != 0) {
        const std::string message = systemError("cannot replace " + path_.string());
        ::unlink(temp.c_str());
        return fail(message);
    }
    return {};
}

} // namespace scripthost
