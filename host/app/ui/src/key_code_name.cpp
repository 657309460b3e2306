#include "host/ui/key_code_name.hpp"

#include <array>
#include <utility>

namespace scripthost {

std::string keyCodeName(std::string_view key) {
    if (key.size() == 1) {
        const char c = key[0];
        if (c >= 'a' && c <= 'z')
            return std::string(1, static_cast<char>(c - 'a' + 'A'));
        if (c >= 'A' && c <= 'Z')
            return std::string(1, c);
        if (c >= '0' && c <= '9')
            return std::string("Alpha") + c;
    }
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 20> kNamed{{
        {" ", "Space"},
        {"Enter", "Return"},
        {"Escape", "Escape"},
        {"Tab", "Tab"},
        {"Backspace", "Backspace"},
        {"Up", "UpArrow"},
        {"Down", "DownArrow"},
        {"Left", "LeftArrow"},
        {"Right", "RightArrow"},
        {",", "Comma"},
        {"-", "Minus"},
        {".", "Period"},
        {"/", "Slash"},
        {";", "Semicolon"},
        {"=", "Equals"},
        {"[", "LeftBracket"},
        {"\\", "Backslash"},
        {"]", "RightBracket"},
        {"`", "BackQuote"},
        {"Delete", "Delete"},
    }};
    for (const auto& [terminal, unity] : kNamed) {
        if (terminal == key)
            return std::string(unity);
    }
    return {};
}

} // namespace scripthost
