#include "page_files.hpp"

#include <array>
#include <utility>

namespace scripthost::inspector {

namespace {

bool isSafeCharacter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '/';
}

} // namespace

std::optional<std::string> contentTypeOf(std::string_view name) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kTypes = {{
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".json", "application/json"},
    }};
    for (const auto& [extension, type] : kTypes) {
        if (name.size() > extension.size() && name.ends_with(extension))
            return std::string(type);
    }
    return std::nullopt;
}

PageFiles::PageFiles(std::filesystem::path folder) : folder_(std::move(folder)) {}

std::optional<PageFile> PageFiles::find(std::string_view urlPath) const {
    if (urlPath.empty() || urlPath.front() != '/')
        return std::nullopt;
    std::string_view relative = urlPath.substr(1);
    if (relative.empty())
        relative = "index.html";
    if (relative.size() > 200)
        return std::nullopt;
    for (const char c : relative) {
        if (!isSafeCharacter(c))
            return std::nullopt;
    }
    // No "..", no hidden files, no empty parts ("a//b"), no trailing slash.
    if (relative.find("/.") != std::string_view::npos || relative.front() == '.' ||
        relative.find("//") != std::string_view::npos || relative.back() == '/')
        return std::nullopt;
    auto type = contentTypeOf(relative);
    if (!type)
        return std::nullopt;
    std::error_code ec;
    std::filesystem::path file = folder_ / std::filesystem::path(relative);
    if (!std::filesystem::is_regular_file(file, ec))
        return std::nullopt;
    return PageFile{std::move(file), std::move(*type)};
}

} // namespace scripthost::inspector
