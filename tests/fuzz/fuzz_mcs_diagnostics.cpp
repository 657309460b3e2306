// Fuzzes parseMcsDiagnostics, the parser of mcs's output. Invariants:
// - it never throws and finds at most one diagnostic per line;
// - every diagnostic has a "CS<digits>" code, no line break in any member, and a location
//   (line, column) only with a file;
// - format() then parse gives back the same diagnostic, and parsing the formatted lines
//   of all of them gives back the whole list.

#include "compiler_bridge/diagnostic.hpp"
#include "fuzz_check.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace scripthost::compiler;

namespace {

bool hasLineBreak(const std::string& text) {
    return text.find_first_of("\r\n") != std::string::npos;
}

bool isCode(const std::string& code) {
    return code.size() > 2 && code.starts_with("CS") &&
           std::all_of(code.begin() + 2, code.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view output(reinterpret_cast<const char*>(data), size);
    std::vector<Diagnostic> diagnostics;
    try {
        diagnostics = parseMcsDiagnostics(output);
    } catch (...) {
        FUZZ_CHECK(false, "parseMcsDiagnostics never throws");
    }
    const auto lines = static_cast<std::size_t>(std::count(output.begin(), output.end(), '\n')) + 1;
    FUZZ_CHECK(diagnostics.size() <= lines, "at most one diagnostic per line");

    std::string formatted;
    for (const Diagnostic& d : diagnostics) {
        FUZZ_CHECK(isCode(d.code), "a code is CS followed by digits");
        FUZZ_CHECK(!hasLineBreak(d.file) && !hasLineBreak(d.message), "no line breaks inside");
        FUZZ_CHECK(d.line >= 0 && d.column >= 0, "locations are not negative");
        FUZZ_CHECK(!d.file.empty() || (d.line == 0 && d.column == 0),
                   "a location comes with a file");
        const std::string text = format(d);
        const std::vector<Diagnostic> again = parseMcsDiagnostics(text);
        FUZZ_CHECK(again.size() == 1 && again[0] == d, "format then parse gives it back");
        formatted += text + "\n";
    }
    FUZZ_CHECK(parseMcsDiagnostics(formatted) == diagnostics,
               "the formatted list parses back to the same list");
    return 0;
}
