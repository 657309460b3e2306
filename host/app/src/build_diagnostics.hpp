#pragma once
// The diagnostics of a failed build as the daemon shows them: the `diagnostics` event and
// `status` (JSON), and the lines the terminal view keeps in sight until a build succeeds.

#include "compiler_bridge/diagnostic.hpp"
#include "host/model/reload_report.hpp"

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace scripthost {

/// The compiler's diagnostics of the build behind `report`: a failed build's errors (the report
/// keeps them as mcs prints them, paths as the compiler was given them), or one diagnostic
/// without a location holding the first line of the reason when none parses (the compiler could
/// not run, no sources); none when the build succeeded, whatever became of the reload after.
[[nodiscard]] std::vector<compiler::Diagnostic> buildDiagnostics(const ReloadReport& report);

/// [{"file", "line", "column", "severity": "error"|"warning", "code", "message"}], the form the
/// control protocol sends (host/control/PROTOCOL.md).
[[nodiscard]] nlohmann::json diagnosticsJson(const std::vector<compiler::Diagnostic>& diagnostics);

/// The first `count` errors for the terminal view, "Game.cs(13,62): error CS1525: message": the
/// file relative to the script folder that holds it, each line cut to `width` columns ("..."
/// at the end when it was cut). Warnings are left out.
[[nodiscard]] std::vector<std::string>
diagnosticScreenLines(const std::vector<compiler::Diagnostic>& diagnostics,
                      const std::vector<std::filesystem::path>& scriptDirs, std::size_t count,
                      int width);

} // namespace scripthost
