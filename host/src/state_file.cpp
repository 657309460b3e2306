#include "host/state_file.hpp"

#include <cerrno>
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

} // namespace

Result<StateFile::Loaded> StateFile::load() const {
    Loaded loaded;
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
