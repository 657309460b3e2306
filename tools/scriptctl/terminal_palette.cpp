#include "terminal_palette.hpp"

#include <cstdlib>
#include <unistd.h>

namespace scriptctl {

TerminalPalette TerminalPalette::detect(std::FILE* stream) {
    const char* noColor = std::getenv("NO_COLOR");
    const bool colourWanted = noColor == nullptr || *noColor == '\0';
    return TerminalPalette(colourWanted && ::isatty(::fileno(stream)) == 1);
}

std::string TerminalPalette::wrap(std::string_view code, std::string_view text) const {
    if (!enabled_)
        return std::string(text);
    std::string wrapped = "\x1b[";
    wrapped.append(code).append("m").append(text).append("\x1b[0m");
    return wrapped;
}

} // namespace scriptctl
