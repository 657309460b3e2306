#pragma once
// TerminalPalette: ANSI colours, only for a terminal and only without NO_COLOR.

#include <cstdio>
#include <string>
#include <string_view>

namespace scriptctl {

/// Wraps text in colour codes when enabled; returns it unchanged otherwise.
class TerminalPalette {
public:
    /// Enabled when `stream` is a TTY and NO_COLOR is unset (https://no-color.org).
    [[nodiscard]] static TerminalPalette detect(std::FILE* stream);
    [[nodiscard]] static TerminalPalette plain() { return TerminalPalette(false); }

    [[nodiscard]] std::string green(std::string_view text) const { return wrap("32", text); }
    [[nodiscard]] std::string red(std::string_view text) const { return wrap("31", text); }
    [[nodiscard]] std::string yellow(std::string_view text) const { return wrap("33", text); }
    [[nodiscard]] std::string dim(std::string_view text) const { return wrap("2", text); }
    [[nodiscard]] std::string bold(std::string_view text) const { return wrap("1", text); }

private:
    explicit TerminalPalette(bool enabled) noexcept : enabled_(enabled) {}
    [[nodiscard]] std::string wrap(std::string_view code, std::string_view text) const;
    bool enabled_;
};

} // namespace scriptctl
