#pragma once
// PageFiles: the inspector page's files, served from one folder and nowhere else.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace scripthost::inspector {

/// A file to send: where it is and its Content-Type.
struct PageFile {
    std::filesystem::path file;
    std::string contentType;
};

class PageFiles {
public:
    explicit PageFiles(std::filesystem::path folder);

    /// The file for a URL path ("/" is index.html), or nullopt: not a page file. Only names
    /// made of letters, digits, '-', '_', '.' and '/' are looked up, never one with a "..",
    /// a hidden part or a type the page does not use, so nothing outside the folder is reachable.
    [[nodiscard]] std::optional<PageFile> find(std::string_view urlPath) const;

    [[nodiscard]] const std::filesystem::path& folder() const noexcept { return folder_; }

private:
    std::filesystem::path folder_;
};

/// The Content-Type for a file name's extension, or nullopt for one the page does not use.
[[nodiscard]] std::optional<std::string> contentTypeOf(std::string_view name);

} // namespace scripthost::inspector
