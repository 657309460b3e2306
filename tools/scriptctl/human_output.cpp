#include "human_output.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <optional>
#include <utility>
#include <vector>

namespace scriptctl {

using nlohmann::json;

namespace {

/// The member `key` of `object` if it exists (null otherwise), also looking one level down
/// in `nested` (the report keeps timings under "timings").
const json& member(const json& object, const char* key, const char* nested = nullptr) {
    static const json null;
    if (!object.is_object())
        return null;
    if (const auto found = object.find(key); found != object.end())
        return *found;
    if (nested) {
        if (const auto inner = object.find(nested); inner != object.end())
            return member(*inner, key);
    }
    return null;
}

std::string numberText(const json& value, int decimals) {
    if (value.is_number_integer())
        return std::to_string(value.get<long long>());
    if (value.is_number())
        return fmt::format("{:.{}f}", value.get<double>(), decimals);
    return valueText(value);
}

std::string millisText(const json& value) {
    return value.is_number() ? fmt::format("{:.1f} ms", value.get<double>()) : std::string("?");
}

std::string uptimeText(const json& value) {
    if (!value.is_number())
        return valueText(value);
    const double seconds = value.get<double>();
    if (seconds < 60)
        return fmt::format("{:.1f}s", seconds);
    const auto whole = static_cast<long long>(seconds);
    if (whole < 3600)
        return fmt::format("{}m {:02}s", whole / 60, whole % 60);
    return fmt::format("{}h {:02}m {:02}s", whole / 3600, (whole / 60) % 60, whole % 60);
}

std::string yesNo(const json& value) {
    if (value.is_boolean())
        return value.get<bool>() ? "yes" : "no";
    return valueText(value);
}

/// Aligned "key: value" lines.
std::string alignedLines(const std::vector<std::pair<std::string, std::string>>& rows) {
    std::size_t width = 0;
    for (const auto& [key, value] : rows)
        width = std::max(width, key.size() + 1);
    std::string text;
    for (const auto& [key, value] : rows)
        text += fmt::format("{:<{}} {}\n", key + ":", width, value);
    return text;
}

/// Whether a report says the reload worked: "success" (ReloadReport::toJson) or "ok".
std::optional<bool> reportSucceeded(const json& report) {
    for (const char* key : {"success", "ok"}) {
        if (const json& value = member(report, key); value.is_boolean())
            return value.get<bool>();
    }
    return std::nullopt;
}

std::string joined(const json& list, std::string_view separator) {
    std::string text;
    if (!list.is_array())
        return valueText(list);
    for (const json& item : list) {
        if (!text.empty())
            text += separator;
        text += valueText(item);
    }
    return text;
}

std::string logTime(const json& time) {
    if (!time.is_number())
        return valueText(time);
    const double seconds = time.get<double>();
    const std::time_t whole = static_cast<std::time_t>(seconds);
    std::tm local{};
    ::localtime_r(&whole, &local);
    const int millis = static_cast<int>((seconds - std::floor(seconds)) * 1000);
    return fmt::format("{:02}:{:02}:{:02}.{:03}", local.tm_hour, local.tm_min, local.tm_sec,
                       millis);
}

/// "file(line,col): error CS1525: message", as mcs prints it and as editors' problem matchers
/// (VS Code's $msCompile) read it; no colour, so a matcher reading a terminal sees it as is.
/// Without a file: "error CS2001: message"; without a code: "error: message".
std::string diagnosticLine(const json& diagnostic) {
    if (!diagnostic.is_object())
        return valueText(diagnostic);
    std::string line;
    if (const json& file = member(diagnostic, "file");
        file.is_string() && !file.get_ref<const std::string&>().empty()) {
        line = fmt::format("{}({},{}): ", file.get_ref<const std::string&>(),
                           valueText(member(diagnostic, "line")),
                           valueText(member(diagnostic, "column")));
    }
    const json& severity = member(diagnostic, "severity");
    line += severity.is_string() ? severity.get<std::string>() : std::string("error");
    if (const json& code = member(diagnostic, "code");
        code.is_string() && !code.get_ref<const std::string&>().empty())
        line += " " + code.get_ref<const std::string&>();
    return line + ": " + valueText(member(diagnostic, "message"));
}

/// "2 errors, 1 warning", "1 error": how many of each severity a list holds.
std::string severityCounts(const json& diagnostics) {
    std::size_t errors = 0, warnings = 0;
    for (const json& d : diagnostics)
        (member(d, "severity") == "warning" ? warnings : errors)++;
    std::string text;
    for (const auto& [count, noun] : {std::pair{errors, "error"}, std::pair{warnings, "warning"}}) {
        if (count > 0)
            text += fmt::format("{}{} {}{}", text.empty() ? "" : ", ", count, noun,
                                count == 1 ? "" : "s");
    }
    return text;
}

// Rows of four columns, each padded to its widest cell, two spaces apart; no trailing blanks.
std::string alignedTable(const std::vector<std::array<std::string, 4>>& rows) {
    std::array<std::size_t, 4> widths{};
    for (const auto& row : rows) {
        for (std::size_t column = 0; column < row.size(); ++column)
            widths[column] = std::max(widths[column], row[column].size());
    }
    std::string text;
    for (const auto& row : rows) {
        std::string line = fmt::format("{:<{}}  {:<{}}  {:<{}}  {}", row[0], widths[0], row[1],
                                       widths[1], row[2], widths[2], row[3]);
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        text += line + "\n";
    }
    return text;
}

// " (text)" when `note` is a non-empty string, else nothing: a report line's detail or reason.
std::string inParentheses(const json& note) {
    return note.is_string() && !note.get<std::string>().empty()
               ? " (" + note.get<std::string>() + ")"
               : std::string();
}

} // namespace

std::string valueText(const json& value) {
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_null())
        return "-";
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

/// The debugger row of a status: "listening on 127.0.0.1:55555, attached", or "" without the
/// agent.
std::string debuggerText(const json& debugger) {
    if (!debugger.is_object())
        return "";
    std::string text = valueText(member(debugger, "agent"));
    text += member(debugger, "attached") == true ? ", attached" : ", no client";
    if (const json& held = member(debugger, "heldSeconds"); held.is_number())
        text += fmt::format(", main thread held {:.1f} s", held.get<double>());
    return text;
}

} // namespace

std::string statusText(const json& status, const TerminalPalette& palette) {
    const json& lastReload = member(status, "lastReload");
    if (const json& state = member(status, "state"); state.is_string()) {
        // The short answer of a host whose main thread a debugger holds (PROTOCOL.md).
        return alignedLines({{"state", state.get<std::string>()},
                             {"generation", valueText(member(status, "generation"))},
                             {"frame", valueText(member(status, "frame"))},
                             {"debugger", debuggerText(member(status, "debugger"))}});
    }
    std::vector<std::pair<std::string, std::string>> rows{
        {"generation", valueText(member(status, "generation"))},
        {"uptime", uptimeText(member(status, "uptimeSeconds"))},
        {"frame", valueText(member(status, "frame"))},
        {"fps", numberText(member(status, "fps"), 1)},
        {"paused", yesNo(member(status, "paused"))},
        {"entities", valueText(member(status, "entities"))},
        {"scripts", valueText(member(status, "scripts"))},
        {"failures", valueText(member(status, "failures"))},
        {"last reload",
         lastReload.is_null() ? std::string("none") : reloadSummary(lastReload, palette)},
    };
    if (const json& module = member(status, "gameModule"); module.is_string()) {
        std::string text = module.get<std::string>();
        if (const json& build = member(status, "gameModuleGeneration"); build.is_number())
            text += ", build " + valueText(build);
        if (const json& crash = member(status, "gameModuleCrash"); crash.is_string())
            text += ", " + palette.red("crashed: " + crash.get<std::string>());
        rows.emplace_back("game module", text);
        if (const json& reload = member(status, "lastModuleReload"); reload.is_object()) {
            rows.emplace_back("module reload", valueText(member(reload, "outcome")) + ": " +
                                                   valueText(member(reload, "text")));
        }
    }
    if (const std::string debugger = debuggerText(member(status, "debugger")); !debugger.empty())
        rows.emplace_back("debugger", debugger);
    if (const json& restarts = member(status, "restarts"); restarts.is_number() && restarts.get<int>() > 0) {
        const json& crash = member(status, "lastCrash");
        rows.emplace_back("restarts", palette.yellow(valueText(restarts) + " (last: " +
                                                     valueText(member(crash, "description")) + ")"));
    }
    if (const json& missing = member(status, "watchedFoldersMissing");
        missing.is_array() && !missing.empty()) {
        std::string folders;
        for (const json& folder : missing)
            folders += (folders.empty() ? "" : ", ") + valueText(folder);
        rows.emplace_back("missing folders", palette.red(folders + " (watched for their return)"));
    }
    std::string text = alignedLines(rows);
    // The failed build's diagnostics, until a build succeeds; one line each, as mcs prints them.
    if (const json& diagnostics = member(status, "buildDiagnostics");
        diagnostics.is_array() && !diagnostics.empty()) {
        text += palette.red("build failed: " + severityCounts(diagnostics)) + "\n";
        for (const json& diagnostic : diagnostics)
            text += diagnosticLine(diagnostic) + "\n";
    }
    return text;
}

std::string reloadSummary(const json& report, const TerminalPalette& palette) {
    const auto succeeded = reportSucceeded(report);
    std::string outcome;
    if (!succeeded.has_value()) {
        outcome = "unknown outcome";
    } else if (*succeeded) {
        outcome = palette.green("ok");
    } else {
        const json& phase = member(report, "failedPhase");
        outcome = palette.red(phase.is_string() && !phase.get<std::string>().empty()
                                  ? "rolled back (" + phase.get<std::string>() + ")"
                                  : std::string("rolled back"));
    }
    return fmt::format("{}, stall {}, total {}", outcome,
                       millisText(member(report, "frameStallMs", "timings")),
                       millisText(member(report, "totalMs", "timings")));
}

std::string reportText(const json& report, const TerminalPalette& palette) {
    const auto succeeded = reportSucceeded(report);
    for (const char* key : {"text", "summary"}) {
        if (const json& text = member(report, key); text.is_string()) {
            std::string block = text.get<std::string>();
            if (!block.empty() && block.back() != '\n')
                block.push_back('\n');
            if (!succeeded.has_value())
                return block;
            // Colour the outcome line, keep the rest as the host wrote it.
            const auto firstLineEnd = block.find('\n');
            const std::string first = block.substr(0, firstLineEnd);
            return (*succeeded ? palette.green(first) : palette.red(first)) +
                   block.substr(firstLineEnd);
        }
    }

    std::string text;
    const json& sequence = member(report, "sequence");
    text += fmt::format("reload{}: {}", sequence.is_null() ? "" : " #" + valueText(sequence),
                        reloadSummary(report, palette));
    const json& from = member(report, "fromGeneration");
    const json& to = member(report, "toGeneration");
    if (!from.is_null() || !to.is_null())
        text += fmt::format(" (generation {} -> {})", valueText(from), valueText(to));
    text += "\n";
    if (const json& trigger = member(report, "trigger"); trigger.is_array() && !trigger.empty())
        text += "  trigger: " + joined(trigger, ", ") + "\n";
    std::vector<std::string> counts;
    for (const char* key : {"restored", "created", "parked", "reenabled", "released"}) {
        const json& value = member(report, key);
        if (value.is_number() && (value.get<double>() != 0 || std::string(key) == "restored"))
            counts.push_back(fmt::format("{} {}", key, valueText(value)));
    }
    if (!counts.empty()) {
        std::string line = "  ";
        for (std::size_t i = 0; i < counts.size(); ++i)
            line += (i ? ", " : "") + counts[i];
        text += line + "\n";
    }
    if (const json& fields = member(report, "fields"); fields.is_array()) {
        for (const json& field : fields) {
            text +=
                fmt::format("  {}.{}: {}", valueText(member(field, "class")),
                            valueText(member(field, "field")), valueText(member(field, "outcome")));
            text += inParentheses(member(field, "detail")) + "\n";
        }
    }
    if (const json& coroutines = member(report, "coroutines"); coroutines.is_array()) {
        for (const json& c : coroutines) {
            const std::string outcome = valueText(member(c, "outcome"));
            std::string line = fmt::format("coroutine {}.{}: {}", valueText(member(c, "class")),
                                           valueText(member(c, "method")), outcome) +
                               inParentheses(member(c, "reason"));
            text += "  " + (outcome == "stopped" ? palette.yellow(line) : line) + "\n";
        }
    }
    if (const json& delegates = member(report, "delegates"); delegates.is_array()) {
        for (const json& d : delegates) {
            const std::string outcome = valueText(member(d, "outcome"));
            std::string line =
                fmt::format("delegate {}.{} -> {}: {}", valueText(member(d, "class")),
                            valueText(member(d, "field")), valueText(member(d, "target")),
                            outcome) +
                inParentheses(member(d, "reason"));
            text += "  " + (outcome == "dropped" ? palette.yellow(line) : line) + "\n";
        }
    }
    if (const json& awaits = member(report, "cancelledAwaits"); awaits.is_array()) {
        for (const json& a : awaits)
            text += "  " + palette.yellow("await cancelled: " + valueText(a)) + "\n";
    }
    if (const json& missing = member(report, "missingClasses"); missing.is_array()) {
        for (const json& name : missing)
            text += "  " + palette.yellow("missing class " + valueText(name)) + "\n";
    }
    if (const json& warnings = member(report, "warnings"); warnings.is_array()) {
        for (const json& warning : warnings)
            text += "  " + palette.yellow("warning: " + valueText(warning)) + "\n";
    }
    if (const json& errors = member(report, "errors"); errors.is_array()) {
        for (const json& error : errors)
            text += "  " + palette.red("error: " + valueText(error)) + "\n";
    }
    return text;
}

std::string entityTable(const json& result) {
    const json& entities = member(result, "entities");
    if (!entities.is_array() || entities.empty())
        return "no entities\n";
    std::vector<std::array<std::string, 4>> rows{{"ID", "NAME", "SCRIPTS", "COMPONENTS"}};
    for (const json& entity : entities) {
        std::string scripts;
        if (const json& list = member(entity, "scripts"); list.is_array()) {
            for (const json& script : list) {
                std::string name = valueText(member(script, "class"));
                if (member(script, "parked") == true)
                    name += " (parked)";
                else if (member(script, "enabled") == false)
                    name += " (disabled)";
                if (const json& running = member(script, "coroutines");
                    running.is_array() && !running.empty())
                    name += fmt::format(" ({} coroutine{})", running.size(),
                                        running.size() == 1 ? "" : "s");
                scripts += (scripts.empty() ? "" : ", ") + name;
            }
        }
        std::string components;
        if (const json& list = member(entity, "components"); list.is_array()) {
            for (const json& component : list)
                components +=
                    (components.empty() ? "" : ", ") + valueText(member(component, "type"));
        }
        rows.push_back({valueText(member(entity, "id")), valueText(member(entity, "name")),
                        scripts.empty() ? "-" : scripts, components.empty() ? "-" : components});
    }
    return alignedTable(rows);
}

std::string fieldText(const json& result) {
    if (const json& fields = member(result, "fields"); fields.is_array()) {
        std::vector<std::pair<std::string, std::string>> rows;
        for (const json& field : fields) {
            rows.emplace_back(valueText(member(field, "name")),
                              fmt::format("{} ({})", valueText(member(field, "value")),
                                          valueText(member(field, "type"))));
        }
        return rows.empty() ? std::string("no fields\n") : alignedLines(rows);
    }
    const json& type = member(result, "type");
    const json& value = member(result, "value");
    if (value.is_object() && type.is_object()) { // every field: {value:{f:v}, type:{f:t}}
        std::vector<std::pair<std::string, std::string>> rows;
        for (const auto& [name, fieldValue] : value.items()) {
            rows.emplace_back(name, fmt::format("{} ({})", valueText(fieldValue),
                                                valueText(member(type, name.c_str()))));
        }
        return rows.empty() ? std::string("no fields\n") : alignedLines(rows);
    }
    if (type.is_null())
        return valueText(member(result, "value")) + "\n";
    return fmt::format("{} ({})\n", valueText(member(result, "value")), valueText(type));
}

std::string genericResultText(const json& result) {
    if (!result.is_object())
        return result.is_null() ? std::string("ok\n") : valueText(result) + "\n";
    if (result.empty())
        return "ok\n";
    std::vector<std::pair<std::string, std::string>> rows;
    for (const auto& [key, value] : result.items())
        rows.emplace_back(key, valueText(value));
    return alignedLines(rows);
}

std::string eventText(const json& event, const TerminalPalette& palette) {
    const std::string topic = valueText(member(event, "event"));
    const json& data = member(event, "data");
    if (topic == "reload")
        return reportText(data, palette);
    if (topic == "module") {
        const std::string outcome = valueText(member(data, "outcome"));
        const std::string label = outcome == "swapped"  ? palette.green("module " + outcome)
                                  : outcome == "failed" ? palette.red("module " + outcome)
                                                        : palette.yellow("module " + outcome);
        return fmt::format("{}: {}\n", label, valueText(member(data, "text")));
    }
    if (topic == "crashed") {
        std::string text = fmt::format("{}: {} (restart {})\n", palette.red("host crashed"),
                                       valueText(member(data, "description")),
                                       valueText(member(data, "restarts")));
        if (const json& report = member(data, "report"); report.is_string())
            text += fmt::format("  Mono's crash report: {}\n", report.get<std::string>());
        return text;
    }
    if (topic == "moduleBuild") {
        const bool ok = member(data, "success") == true;
        const json& ms = member(data, "milliseconds");
        std::string text = fmt::format("{} in {:.0f} ms\n",
                                       ok ? palette.green("module build ok")
                                          : palette.red("module build failed (exit code " +
                                                        valueText(member(data, "exitCode")) + ")"),
                                       ms.is_number() ? ms.get<double>() : 0.0);
        if (!ok)
            text += valueText(member(data, "outputTail"));
        return text;
    }
    if (topic == "log") {
        const std::string level = valueText(member(data, "level"));
        std::string label = "[" + level + "]";
        if (level == "error" || level == "critical" || level == "err")
            label = palette.red(label);
        else if (level == "warning" || level == "warn")
            label = palette.yellow(label);
        return fmt::format("{} {} {}\n", palette.dim(logTime(member(data, "time"))), label,
                           valueText(member(data, "message")));
    }
    if (topic == "diagnostics") {
        // One block per build, framed by lines a problem matcher's background patterns find:
        // "diagnostics: …" begins it, "diagnostics end" ends it (README, "scriptctl watch").
        const json& list = data.is_array() ? data : member(data, "diagnostics");
        if (!list.is_array())
            return "diagnostics: " + valueText(data) + "\n";
        std::string text =
            "diagnostics: " + (list.empty() ? std::string("clean") : severityCounts(list)) + "\n";
        for (const json& diagnostic : list)
            text += diagnosticLine(diagnostic) + "\n";
        return text + "diagnostics end\n";
    }
    return fmt::format("{}: {}\n", topic, valueText(data));
}

std::string coroutineTable(const json& result) {
    const json& running = member(result, "coroutines");
    if (!running.is_array() || running.empty())
        return "no coroutines running\n";
    std::vector<std::array<std::string, 4>> rows{{"ENTITY", "SCRIPT", "COROUTINE", "WAITING FOR"}};
    for (const json& c : running) {
        rows.push_back({valueText(member(c, "entity")),
                        valueText(member(c, "class")) + " " + valueText(member(c, "script")),
                        valueText(member(c, "method")), valueText(member(c, "waitingFor"))});
    }
    return alignedTable(rows);
}

} // namespace scriptctl
