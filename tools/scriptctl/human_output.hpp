#pragma once
// Human-readable renderings of the host's results and events (the default output; --json
// prints the raw objects instead). Every function tolerates missing or oddly typed members:
// the daemon's side of the contract may grow.

#include "terminal_palette.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace scriptctl {

/// `status`: aligned "key: value" lines.
[[nodiscard]] std::string statusText(const nlohmann::json& status, const TerminalPalette& palette);

/// One line about a reload report: "ok, stall 1.2 ms, total 250.0 ms" or "rolled back ...".
[[nodiscard]] std::string reloadSummary(const nlohmann::json& report,
                                        const TerminalPalette& palette);

/// A reload report as a block: its "text"/"summary" when it has one, else the key fields.
[[nodiscard]] std::string reportText(const nlohmann::json& report, const TerminalPalette& palette);

/// `entities`: a table of id, name, scripts and components.
[[nodiscard]] std::string entityTable(const nlohmann::json& result);

/// `coroutines`: a table of entity, script, coroutine method and what it waits for.
[[nodiscard]] std::string coroutineTable(const nlohmann::json& result);

/// `get`: "value (type)", or one aligned line per field when `value` and `type` are
/// objects keyed by field name (or a "fields" list).
[[nodiscard]] std::string fieldText(const nlohmann::json& result);

/// Results without a special form (set, pause, resume, step, stop): "key: value" lines, or
/// "ok" when there is nothing to say.
[[nodiscard]] std::string genericResultText(const nlohmann::json& result);

/// One `watch` event ({"event","data"}) as a block.
[[nodiscard]] std::string eventText(const nlohmann::json& event, const TerminalPalette& palette);

/// A JSON value for people: strings without quotes, everything else as compact JSON.
[[nodiscard]] std::string valueText(const nlohmann::json& value);

} // namespace scriptctl
