#include "build_diagnostics.hpp"

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace scripthost {

std::vector<compiler::Diagnostic> buildDiagnostics(const ReloadReport& report) {
    if (report.success || report.failedPhase != "build")
        return {};
    std::string output;
    for (const std::string& line : report.errors)
        output += line + "\n";
    std::vector<compiler::Diagnostic> diagnostics = compiler::parseMcsDiagnostics(output);
    if (diagnostics.empty()) {
        compiler::Diagnostic reason;
        reason.message = output.substr(0, output.find('\n'));
        if (reason.message.empty())
            reason.message = "the build failed";
        diagnostics.push_back(std::move(reason));
    }
    return diagnostics;
}

nlohmann::json diagnosticsJson(const std::vector<compiler::Diagnostic>& diagnostics) {
    nlohmann::json list = nlohmann::json::array();
    for (const compiler::Diagnostic& d : diagnostics) {
        list.push_back({{"file", d.file},
                        {"line", d.line},
                        {"column", d.column},
                        {"severity", d.severity == compiler::Severity::Error ? "error" : "warning"},
                        {"code", d.code},
                        {"message", d.message}});
    }
    return list;
}

namespace {

/// `file` relative to the script folder that holds it; as given when none does.
std::string shortFileName(const std::string& file, const std::vector<fs::path>& scriptDirs) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(file, ec);
    for (const fs::path& dir : scriptDirs) {
        const fs::path relative = absolute.lexically_relative(fs::absolute(dir, ec));
        if (!ec && !relative.empty() && *relative.begin() != "..")
            return relative.string();
    }
    return file;
}

} // namespace

std::vector<std::string> diagnosticScreenLines(const std::vector<compiler::Diagnostic>& diagnostics,
                                               const std::vector<fs::path>& scriptDirs,
                                               std::size_t count, int width) {
    std::vector<std::string> lines;
    const std::size_t room = static_cast<std::size_t>(std::max(width, 0));
    for (const compiler::Diagnostic& d : diagnostics) {
        if (lines.size() == count)
            break;
        if (d.severity != compiler::Severity::Error)
            continue;
        compiler::Diagnostic shown = d;
        if (!shown.file.empty())
            shown.file = shortFileName(shown.file, scriptDirs);
        std::string line = compiler::format(shown);
        if (line.size() > room)
            line = room > 3 ? line.substr(0, room - 3) + "..." : line.substr(0, room);
        lines.push_back(std::move(line));
    }
    return lines;
}

} // namespace scripthost
