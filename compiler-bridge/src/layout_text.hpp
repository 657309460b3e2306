#pragma once
// How the assembly layout's readers compare what they read: paths absolute and lexically normal,
// names and extensions without case (a Windows-made project may write "Core.ASMDEF" or
// "Tween.DLL", and a GUID comes in either case).

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <string_view>

namespace scripthost::compiler {

/// Absolute and lexically normal, without a trailing separator.
inline std::filesystem::path normalPath(const std::filesystem::path& path) {
    std::error_code ec;
    std::filesystem::path out = std::filesystem::absolute(path, ec).lexically_normal();
    if (!out.has_filename() && out.has_relative_path()) {
        out = out.parent_path();
    }
    return out;
}

/// `text` in lower case (ASCII).
inline std::string lowerCase(std::string_view text) {
    std::string out(text);
    std::ranges::transform(out, out.begin(), [](char c) {
        return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    });
    return out;
}

/// Whether `text` is a GUID as Unity writes them: 32 hex digits, in either case.
inline bool isHexGuid(std::string_view text) {
    return text.size() == 32 && std::ranges::all_of(text, [](char c) {
               return std::isxdigit(static_cast<unsigned char>(c)) != 0;
           });
}

/// The extension in lower case: ".dll" for "Tween.DLL".
inline std::string lowerExtension(const std::filesystem::path& file) {
    return lowerCase(file.extension().string());
}

} // namespace scripthost::compiler
