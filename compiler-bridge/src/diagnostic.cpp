#include "compiler_bridge/diagnostic.hpp"

#include <charconv>
#include <regex>

namespace scripthost::compiler {

namespace {

int toInt(const std::string& text) {
    int value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

Severity severityOf(const std::string& word) {
    return word == "warning" ? Severity::Warning : Severity::Error;
}

} // namespace

std::vector<Diagnostic> parseMcsDiagnostics(std::string_view output) {
    // The file part is greedy so paths containing spaces or parentheses still parse:
    // the location is the last "(line,column): " before the severity.
    static const std::regex located(R"(^(.*)\((\d+),(\d+)\): (error|warning) (CS\d+): (.*)$)");
    static const std::regex unlocated(R"(^(?:.*: )?(error|warning) (CS\d+): (.*)$)");
    std::vector<Diagnostic> diagnostics;
    std::size_t start = 0;
    while (start < output.size()) {
        std::size_t end = output.find('\n', start);
        if (end == std::string_view::npos) {
            end = output.size();
        }
        std::string line(output.substr(start, end - start));
        start = end + 1;
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        std::smatch m;
        if (std::regex_match(line, m, located)) {
            diagnostics.push_back({m[1], toInt(m[2]), toInt(m[3]), severityOf(m[4]), m[5], m[6]});
        } else if (std::regex_match(line, m, unlocated)) {
            diagnostics.push_back({"", 0, 0, severityOf(m[1]), m[2], m[3]});
        }
    }
    return diagnostics;
}

std::string format(const Diagnostic& d) {
    std::string text;
    if (!d.file.empty()) {
        text = d.file + "(" + std::to_string(d.line) + "," + std::to_string(d.column) + "): ";
    }
    text += d.severity == Severity::Error ? "error " : "warning ";
    text += d.code + ": " + d.message;
    return text;
}

} // namespace scripthost::compiler
