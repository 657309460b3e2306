#include "host/ui/terminal.hpp"

#include <cerrno>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

namespace scripthost {

std::vector<std::string> parseTerminalKeys(std::string_view bytes) {
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < bytes.size();) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c == 0x1b) {
            // ESC [ X or ESC O X: cursor keys; a lone ESC is the Escape key.
            if (i + 1 < bytes.size() && (bytes[i + 1] == '[' || bytes[i + 1] == 'O')) {
                std::size_t end = i + 2;
                while (end < bytes.size() &&
                       ((bytes[end] >= '0' && bytes[end] <= '9') || bytes[end] == ';'))
                    ++end;
                if (end >= bytes.size())
                    break; // incomplete sequence
                switch (bytes[end]) {
                case 'A':
                    keys.emplace_back("Up");
                    break;
                case 'B':
                    keys.emplace_back("Down");
                    break;
                case 'C':
                    keys.emplace_back("Right");
                    break;
                case 'D':
                    keys.emplace_back("Left");
                    break;
                default:
                    break; // a key we do not name
                }
                i = end + 1;
            } else {
                keys.emplace_back("Escape");
                ++i;
            }
            continue;
        }
        if (c == '\r' || c == '\n')
            keys.emplace_back("Enter");
        else if (c == '\t')
            keys.emplace_back("Tab");
        else if (c == 0x7f || c == 0x08)
            keys.emplace_back("Backspace");
        else if (c >= 0x20 && c < 0x7f)
            keys.emplace_back(1, static_cast<char>(c));
        ++i; // other control bytes and non-ASCII input are ignored
    }
    return keys;
}

namespace {

int ansiColor(TextColor color) {
    switch (color) {
    case TextColor::Default:
        return 39;
    case TextColor::Black:
        return 30;
    case TextColor::Red:
        return 31;
    case TextColor::Green:
        return 32;
    case TextColor::Yellow:
        return 33;
    case TextColor::Blue:
        return 34;
    case TextColor::Magenta:
        return 35;
    case TextColor::Cyan:
        return 36;
    case TextColor::White:
        return 37;
    }
    return 39;
}

} // namespace

std::string renderAnsiFrame(const TextCanvas& canvas) {
    std::string out = "\x1b[H\x1b[0m";
    out.reserve(static_cast<std::size_t>(canvas.width() * canvas.height()) * 2 + 64);
    TextColor color = TextColor::Default;
    bool bold = false;
    for (int y = 0; y < canvas.height(); ++y) {
        out += "\x1b[" + std::to_string(y + 1) + ";1H";
        for (int x = 0; x < canvas.width(); ++x) {
            const TextCell& cell = canvas.at(x, y);
            if (cell.color != color || cell.bold != bold) {
                out += "\x1b[0";
                if (cell.bold)
                    out += ";1";
                out += ";" + std::to_string(ansiColor(cell.color)) + "m";
                color = cell.color;
                bold = cell.bold;
            }
            TextCanvas::appendUtf8(out, cell.glyph);
        }
    }
    out += "\x1b[0m";
    return out;
}

struct Terminal::Saved {
    termios mode{};
};

namespace {

void writeAll(std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return; // the terminal is gone: nothing sensible to do
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

} // namespace

Result<std::unique_ptr<Terminal>> Terminal::open() {
    if (!::isatty(STDIN_FILENO) || !::isatty(STDOUT_FILENO))
        return fail("not a terminal (use --headless to run without one)");
    std::unique_ptr<Terminal> terminal(new Terminal());
    terminal->saved_ = std::make_unique<Saved>();
    if (::tcgetattr(STDIN_FILENO, &terminal->saved_->mode) != 0)
        return fail("cannot read the terminal's mode");
    termios raw = terminal->saved_->mode;
    raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO); // ISIG stays: Ctrl+C stops
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (::tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0)
        return fail("cannot set the terminal's mode");
    writeAll("\x1b[?1049h\x1b[?25l\x1b[2J");
    return terminal;
}

Terminal::~Terminal() {
    writeAll("\x1b[0m\x1b[?25h\x1b[?1049l");
    if (saved_)
        ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_->mode);
}

int Terminal::columns() const {
    winsize size{};
    return ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 80;
}

int Terminal::rows() const {
    winsize size{};
    return ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 ? size.ws_row : 24;
}

std::vector<std::string> Terminal::readKeys() {
    std::string bytes;
    char buffer[256];
    for (;;) {
        pollfd fd{STDIN_FILENO, POLLIN, 0};
        if (::poll(&fd, 1, 0) <= 0 || (fd.revents & POLLIN) == 0)
            break;
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n <= 0)
            break;
        bytes.append(buffer, static_cast<std::size_t>(n));
    }
    return parseTerminalKeys(bytes);
}

void Terminal::present(const TextCanvas& canvas) {
    writeAll(renderAnsiFrame(canvas));
}

} // namespace scripthost
