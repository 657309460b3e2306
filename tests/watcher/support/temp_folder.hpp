#pragma once

#include <filesystem>
#include <string_view>

namespace scripthost::watcher::test {

// A fresh folder under the system temp folder, removed with everything in it on destruction.
class TempFolder {
public:
    TempFolder();
    ~TempFolder();
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;

    // Canonical absolute path (the watcher reports canonical paths).
    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
    // path() / relative
    [[nodiscard]] std::filesystem::path operator/(std::string_view relative) const {
        return path_ / relative;
    }

private:
    std::filesystem::path path_;
};

// Writes (truncating) a file, creating parent folders.
void writeFile(const std::filesystem::path& file, std::string_view content);

} // namespace scripthost::watcher::test
