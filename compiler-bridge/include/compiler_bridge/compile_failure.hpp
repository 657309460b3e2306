#pragma once
// How a failed build is shown to people: the same text in a reload report, a start-up error
// and a tool's message.

#include "compiler_bridge/compile_request.hpp"

#include <string>
#include <vector>

namespace scripthost::compiler {

/// The lines that explain why `result` failed, for a list such as a reload report's errors:
///  - every error diagnostic, through format(d), one per line, in the compiler's order
///    (warnings are not reasons for a failure and are left out);
///  - when there is none, one entry "the build failed:\n<log>" with the compiler's raw output
///    (trailing blank space trimmed), since that is then the only clue;
///  - when the log is empty too, one entry "the build failed".
/// Never empty. Meant for unsuccessful results: it does not look at `success`.
[[nodiscard]] std::vector<std::string> errorLines(const CompileResult& result);

/// errorLines(result) joined by '\n' (no trailing newline), for one message such as a
/// start-up error.
[[nodiscard]] std::string failureText(const CompileResult& result);

} // namespace scripthost::compiler
