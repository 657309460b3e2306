#pragma once
// TextCanvas: a grid of coloured character cells that a renderer draws into.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

/// The eight ANSI colours, plus the terminal's default.
enum class TextColor : std::uint8_t {
    Default,
    Black,
    Red,
    Green,
    Yellow,
    Blue,
    Magenta,
    Cyan,
    White,
};

/// One character cell: a single code point (as UTF-8) and its colour.
struct TextCell {
    char32_t glyph = U' ';
    TextColor color = TextColor::Default;
    bool bold = false;
    bool operator==(const TextCell&) const = default;
};

/// A width × height grid of cells, (0, 0) at the top left. Drawing outside the grid is
/// clipped, never an error. Header-only, so game modules use it without linking the host.
class TextCanvas {
public:
    TextCanvas() = default;
    TextCanvas(int width, int height) { resize(width, height); }

    void resize(int width, int height) {
        width_ = std::max(width, 0);
        height_ = std::max(height, 0);
        cells_.assign(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_),
                      TextCell{});
    }
    void clear() { std::fill(cells_.begin(), cells_.end(), TextCell{}); }

    [[nodiscard]] int width() const noexcept { return width_; }
    [[nodiscard]] int height() const noexcept { return height_; }
    [[nodiscard]] bool contains(int x, int y) const noexcept {
        return x >= 0 && y >= 0 && x < width_ && y < height_;
    }

    void put(int x, int y, char32_t glyph, TextColor color = TextColor::Default,
             bool bold = false) {
        if (contains(x, y))
            cells_[index(x, y)] = TextCell{glyph, color, bold};
    }
    /// Writes ASCII text from (x, y) to the right, clipped at the edge.
    void text(int x, int y, std::string_view text, TextColor color = TextColor::Default,
              bool bold = false) {
        for (char c : text)
            put(x++, y, static_cast<char32_t>(static_cast<unsigned char>(c)), color, bold);
    }
    [[nodiscard]] const TextCell& at(int x, int y) const { return cells_[index(x, y)]; }

    /// The row as plain UTF-8 text without colours (for tests and logs).
    [[nodiscard]] std::string row(int y) const {
        std::string out;
        for (int x = 0; x < width_; ++x)
            appendUtf8(out, at(x, y).glyph);
        return out;
    }

    static void appendUtf8(std::string& out, char32_t c) {
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }

private:
    [[nodiscard]] std::size_t index(int x, int y) const noexcept {
        return static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) +
               static_cast<std::size_t>(x);
    }
    int width_ = 0;
    int height_ = 0;
    std::vector<TextCell> cells_;
};

} // namespace scripthost
