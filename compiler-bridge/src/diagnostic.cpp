#include "compiler_bridge/diagnostic.hpp"

#include <charconv>
#include <optional>

namespace scripthost::compiler {

namespace {

// The parser scans each line by hand instead of with std::regex: libstdc++'s regex
// matcher recurses once per character, so one long line of compiler output (a quoted
// literal, a long generic type) overflowed the stack.

/// Reads a run of ASCII digits at `at`, advancing past it; nullopt when there is none.
/// A number too large for int reads as 0.
std::optional<int> readNumber(std::string_view line, std::size_t& at) {
    const std::size_t start = at;
    while (at < line.size() && line[at] >= '0' && line[at] <= '9')
        ++at;
    if (at == start)
        return std::nullopt;
    int value = 0;
    std::from_chars(line.data() + start, line.data() + at, value);
    return value;
}

bool readLiteral(std::string_view line, std::size_t& at, std::string_view literal) {
    if (line.substr(at).starts_with(literal)) {
        at += literal.size();
        return true;
    }
    return false;
}

/// "error CS0103: message" or "warning CS0219: message" from `at` to the end of the line.
std::optional<Diagnostic> readTail(std::string_view line, std::size_t at) {
    Diagnostic d;
    if (readLiteral(line, at, "error ")) {
        d.severity = Severity::Error;
    } else if (readLiteral(line, at, "warning ")) {
        d.severity = Severity::Warning;
    } else {
        return std::nullopt;
    }
    const std::size_t codeStart = at;
    if (!readLiteral(line, at, "CS") || !readNumber(line, at))
        return std::nullopt;
    d.code = std::string(line.substr(codeStart, at - codeStart));
    if (!readLiteral(line, at, ": "))
        return std::nullopt;
    d.message = std::string(line.substr(at));
    return d;
}

/// "File(line,column): <tail>". The file is the longest prefix that leaves a valid
/// location and tail, so paths containing spaces or parentheses keep their whole name.
std::optional<Diagnostic> readLocated(std::string_view line) {
    for (std::size_t open = line.rfind('('); open != std::string_view::npos && open > 0;
         open = line.rfind('(', open - 1)) {
        std::size_t at = open + 1;
        const auto lineNumber = readNumber(line, at);
        if (!lineNumber || !readLiteral(line, at, ","))
            continue;
        const auto column = readNumber(line, at);
        if (!column || !readLiteral(line, at, "): "))
            continue;
        auto d = readTail(line, at);
        if (!d)
            continue;
        d->file = std::string(line.substr(0, open));
        d->line = *lineNumber;
        d->column = column.value();
        return d;
    }
    return std::nullopt;
}

/// "[anything: ]<tail>" without a location (e.g. "error CS2001: Source file ...").
std::optional<Diagnostic> readUnlocated(std::string_view line) {
    for (std::size_t sep = line.rfind(": "); sep != std::string_view::npos;
         sep = sep == 0 ? std::string_view::npos : line.rfind(": ", sep - 1)) {
        if (auto d = readTail(line, sep + 2))
            return d;
    }
    return readTail(line, 0);
}

} // namespace

std::vector<Diagnostic> parseMcsDiagnostics(std::string_view output) {
    std::vector<Diagnostic> diagnostics;
    std::size_t start = 0;
    while (start < output.size()) {
        std::size_t end = output.find('\n', start);
        if (end == std::string_view::npos) {
            end = output.size();
        }
        std::string_view line = output.substr(start, end - start);
        start = end + 1;
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (line.find('\r') != std::string_view::npos) {
            continue; // not a line mcs writes; a message holds no line break
        }
        if (auto d = readLocated(line)) {
            diagnostics.push_back(std::move(*d));
        } else if (auto u = readUnlocated(line)) {
            diagnostics.push_back(std::move(*u));
        }
    }
    return diagnostics;
}

std::string format(const Diagnostic& d) {
    std::string text;
    if (!d.file.empty()) {
        text = d.file + "(" + std::to_string(d.line) + "," + std::to_string(d.column) + "): ";
    }
    text += d.severity == Severity::Error ? "error" : "warning";
    if (!d.code.empty())
        text += " " + d.code;
    text += ": " + d.message;
    return text;
}

} // namespace scripthost::compiler
