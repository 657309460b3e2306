#pragma once
// TEMPORARY stand-in until the shared-pieces branch lands.
#include "compiler_bridge/compile_request.hpp"
#include <string>
#include <vector>
namespace scripthost::compiler {
inline std::vector<std::string> errorLines(const CompileResult& result) {
    std::vector<std::string> lines;
    for (const auto& d : result.diagnostics)
        if (d.severity == Severity::Error) lines.push_back(format(d));
    if (lines.empty()) lines.push_back("the build failed:\n" + result.log);
    return lines;
}
inline std::string failureText(const CompileResult& result) {
    std::string text;
    for (const auto& d : result.diagnostics)
        if (d.severity == Severity::Error) text += format(d) + "\n";
    if (!text.empty()) text.pop_back();
    else text = result.log.empty() ? "the build failed" : result.log;
    return text;
}
}
