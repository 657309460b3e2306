#include "compiler_bridge/compile_failure.hpp"

#include <string_view>

namespace scripthost::compiler {

namespace {

/// The log without trailing blank space: mcs ends it with a newline (or a blank line), which
/// would otherwise dangle at the end of a message.
std::string_view trimmedLog(std::string_view log) {
    const std::size_t last = log.find_last_not_of(" \t\r\n");
    return last == std::string_view::npos ? std::string_view{} : log.substr(0, last + 1);
}

} // namespace

std::vector<std::string> errorLines(const CompileResult& result) {
    std::vector<std::string> lines;
    for (const Diagnostic& d : result.diagnostics) {
        if (d.severity == Severity::Error) {
            lines.push_back(format(d));
        }
    }
    if (!lines.empty()) {
        return lines;
    }
    const std::string_view log = trimmedLog(result.log);
    if (log.empty()) {
        lines.emplace_back("the build failed");
    } else {
        lines.push_back("the build failed:\n" + std::string(log));
    }
    return lines;
}

std::string failureText(const CompileResult& result) {
    std::string text;
    for (const std::string& line : errorLines(result)) {
        if (!text.empty()) {
            text += '\n';
        }
        text += line;
    }
    return text;
}

} // namespace scripthost::compiler
