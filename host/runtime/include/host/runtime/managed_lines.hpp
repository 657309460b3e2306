#pragma once
// The text ScriptCore hands the host when a call has several results (the running coroutines,
// the awaits in flight, a reload's carry plans): lines of tab-separated fields.

#include <charconv>
#include <cstdint>
#include <string_view>
#include <vector>

namespace scripthost::mono {

/// `text` cut at every `separator` (an empty text is one empty part).
[[nodiscard]] inline std::vector<std::string_view> splitOn(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    while (true) {
        const std::size_t at = text.find(separator);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos)
            return parts;
        text.remove_prefix(at + 1);
    }
}

/// The non-empty lines of `text`, each cut into its tab-separated fields.
[[nodiscard]] inline std::vector<std::vector<std::string_view>> tabbedLines(std::string_view text) {
    std::vector<std::vector<std::string_view>> lines;
    for (std::string_view line : splitOn(text, '\n')) {
        if (!line.empty())
            lines.push_back(splitOn(line, '\t'));
    }
    return lines;
}

/// Whether all of `text` is a number, into `out`.
template <typename T> [[nodiscard]] bool parseNumber(std::string_view text, T& out) {
    const auto parsed = std::from_chars(text.data(), text.data() + text.size(), out);
    return parsed.ec == std::errc{} && parsed.ptr == text.data() + text.size();
}

} // namespace scripthost::mono
