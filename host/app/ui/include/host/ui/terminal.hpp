#pragma once
// Terminal: the interactive text screen — raw keyboard input and full-screen drawing.

#include "scripthost/game/error.hpp"
#include "scripthost/game/text_canvas.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

/// Splits bytes read from a terminal into key names: printable characters as themselves
/// ("w", " "), escape sequences as "Up", "Down", "Left", "Right", and "Enter", "Tab",
/// "Backspace", "Escape". Unknown sequences are dropped.
[[nodiscard]] std::vector<std::string> parseTerminalKeys(std::string_view bytes);

/// Encodes a canvas plus extra lines as one ANSI frame (cursor home, rows, colours).
[[nodiscard]] std::string renderAnsiFrame(const TextCanvas& canvas);

/// Puts the controlling terminal into a full-screen, unbuffered mode (alternate screen,
/// hidden cursor, no echo, no line buffering; Ctrl+C still raises SIGINT) and restores
/// it when destroyed — also when the process stops on SIGINT/SIGTERM through the normal
/// path. Main thread only.
class Terminal {
public:
    /// Fails when stdin or stdout is not a terminal.
    [[nodiscard]] static Result<std::unique_ptr<Terminal>> open();
    ~Terminal();
    Terminal(const Terminal&) = delete;
    Terminal& operator=(const Terminal&) = delete;

    /// Columns and rows now (follows resizes).
    [[nodiscard]] int columns() const;
    [[nodiscard]] int rows() const;
    /// Keys typed since the last call, without blocking.
    [[nodiscard]] std::vector<std::string> readKeys();
    /// Draws the canvas over the whole screen.
    void present(const TextCanvas& canvas);

private:
    Terminal() = default;
    struct Saved;
    std::unique_ptr<Saved> saved_;
};

} // namespace scripthost
