#pragma once
// Diagnostic: one compiler message, and the parser for mcs's output.

#include <string>
#include <string_view>
#include <vector>

namespace scripthost::compiler {

enum class Severity { Error, Warning };

/// One message from the compiler. `file` is empty and `line`/`column` are 0 when the
/// message has no location (e.g. "error CS2001: Source file `x.cs' could not be found").
struct Diagnostic {
    std::string file;
    int line = 0;
    int column = 0;
    Severity severity = Severity::Error;
    std::string code; ///< "CS0029"
    std::string message;

    bool operator==(const Diagnostic&) const = default;
};

/// Parses mcs's output (either stream) into diagnostics, in order. Lines that are not
/// diagnostics (the "Compilation failed" summary, blank lines) are skipped.
[[nodiscard]] std::vector<Diagnostic> parseMcsDiagnostics(std::string_view output);

/// "File.cs(12,5): error CS0103: The name `x' does not exist" — the way mcs and IDEs
/// print it, so editors can jump to the location. Without a file: "error CS2001: …"; without a
/// code (a reason that is not a compiler message): "error: …".
[[nodiscard]] std::string format(const Diagnostic& diagnostic);

} // namespace scripthost::compiler
