// scriptctl: talk to a running scripthost over its control socket (host/control/PROTOCOL.md).
#include "exit_code.hpp"
#include "host_session.hpp"
#include "human_output.hpp"
#include "value_argument.hpp"
#include "watch_command.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <control/control_path.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <optional>

using nlohmann::json;
using namespace scriptctl;

namespace {

void printText(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
}

/// Writes an inline snapshot to `file` (pretty JSON); false with a message on failure.
bool writeSnapshot(const std::string& file, const json& result) {
    const json& snapshot = result.contains("snapshot") ? result["snapshot"] : result;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << snapshot.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
    out.close();
    if (!out) {
        HostSession::printProblem(fmt::format("cannot write {}", file));
        return false;
    }
    return true;
}

/// The command line: the options every command takes, the subcommands, and the command the
/// parse chose (each subcommand's callback sets `command`: the request to send and how to
/// print its result). Lambdas keep `this`, so it stays where it was made.
struct CommandLine {
    CLI::App app{"scriptctl: control a running scripthost (status, reload, fields, events).\n"
                 "Exit codes: 0 ok, 1 the host answered with an error, 2 usage error,\n"
                 "3 cannot connect / timeout / connection lost."};
    std::string socket;
    double timeoutSeconds = 10;
    bool jsonOutput = false;
    CLI::Option* timeoutOption = nullptr;

    std::function<int(HostSession&)> command;
    bool longRunning = false;

    // The arguments of the subcommands that take some.
    std::string entity, script, field, value, snapshotFile, action, rawLine;
    double actionValue = 0;
    int frames = 1;
    bool withLogs = false;
    bool inspectUrl = false;
    bool activeValue = true, keepLocal = false;

    CommandLine() {
        app.set_version_flag("--version", std::string("scriptctl ") + SCRIPTHOST_VERSION);
        app.require_subcommand(1);
        // --json, --control and --timeout anywhere on the line: `scriptctl status --json` too.
        app.fallthrough();
        app.add_option("--control", socket,
                       "control socket of the host (default: " +
                           scripthost::control::defaultControlPath().string() + ")")
            ->envname("SCRIPTHOST_CONTROL");
        timeoutOption = app.add_option("--timeout", timeoutSeconds,
                                       "seconds to wait for the host (default 10, 60 for reload)")
                            ->check(CLI::PositiveNumber);
        app.add_flag("--json", jsonOutput, "print raw result objects, one JSON object per line");
        addReportCommands();
        addFieldCommands();
        addLoopCommands();
        addEntityCommands();
        addStreamCommands();
    }
    CommandLine(const CommandLine&) = delete;
    CommandLine& operator=(const CommandLine&) = delete;

    /// A subcommand that sends `name` with no arguments and prints the generic result.
    void addSimple(const char* name, const char* description) {
        app.add_subcommand(name, description)->callback([this, name] {
            command = [name](HostSession& session) {
                return session.run(name, json::object(), [](const json& result) {
                    printText(genericResultText(result));
                });
            };
        });
    }

    /// status, reload, entities, coroutines.
    void addReportCommands() {
        app.add_subcommand("status", "generation, uptime, fps, counts, last reload")
            ->callback([this] {
                command = [](HostSession& session) {
                    return session.run("status", json::object(), [&](const json& result) {
                        printText(statusText(result, session.palette()));
                    });
                };
            });
        app.add_subcommand("reload", "reload the scripts now and print the report")
            ->callback([this] {
                longRunning = true;
                command = [](HostSession& session) {
                    return session.run("reload", json::object(), [&](const json& result) {
                        const json& report = result.contains("report") ? result["report"] : result;
                        printText(reportText(report, session.palette()));
                    });
                };
            });
        app.add_subcommand("entities", "list entities, their scripts and components")
            ->callback([this] {
                command = [](HostSession& session) {
                    return session.run("entities", json::object(),
                                       [](const json& result) { printText(entityTable(result)); });
                };
            });
        app.add_subcommand("coroutines", "list running coroutines and what each waits for")
            ->callback([this] {
                command = [](HostSession& session) {
                    return session.run("coroutines", json::object(), [](const json& result) {
                        printText(coroutineTable(result));
                    });
                };
            });
    }

    /// get, set, snapshot.
    void addFieldCommands() {
        auto* get = app.add_subcommand("get", "read a script field (all fields without FIELD)");
        get->add_option("ENTITY", entity, "entity name or id")->required();
        get->add_option("SCRIPT", script, "script class name or id")->required();
        get->add_option("FIELD", field, "field name");
        get->callback([this] {
            command = [this](HostSession& session) {
                json args = {{"entity", entity}, {"script", script}};
                if (!field.empty())
                    args["field"] = field;
                return session.run("get", args,
                                   [](const json& result) { printText(fieldText(result)); });
            };
        });

        auto* set = app.add_subcommand(
            "set", "write a script field; VALUE is JSON if it parses (3.5, \"text\", [1,2]), "
                   "else a string");
        set->add_option("ENTITY", entity, "entity name or id")->required();
        set->add_option("SCRIPT", script, "script class name or id")->required();
        set->add_option("FIELD", field, "field name")->required();
        set->add_option("VALUE", value, "the new value")->required();
        set->callback([this] {
            command = [this](HostSession& session) {
                const json args = {{"entity", entity},
                                   {"script", script},
                                   {"field", field},
                                   {"value", parseValueArgument(value)}};
                return session.run("set", args, [this](const json& result) {
                    printText(fmt::format("{}.{}.{} = {}\n", entity, script, field,
                                          valueText(result.value("value", json()))));
                });
            };
        });

        auto* snapshot =
            app.add_subcommand("snapshot", "print the host's snapshot (or --out FILE)");
        snapshot->add_option("--out", snapshotFile, "write the snapshot to FILE instead");
        snapshot->callback([this] {
            command = [this](HostSession& session) {
                bool written = true;
                const int code = session.run("snapshot", json::object(), [&](const json& result) {
                    if (snapshotFile.empty()) {
                        const json& tree =
                            result.contains("snapshot") ? result["snapshot"] : result;
                        printText(tree.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
                    } else if ((written = writeSnapshot(snapshotFile, result))) {
                        printText(fmt::format("wrote {}\n", snapshotFile));
                    }
                });
                if (code == kExitOk && !written)
                    return static_cast<int>(kExitErrorReply);
                return code;
            };
        });
    }

    /// pause, resume, stop, step, input.
    void addLoopCommands() {
        addSimple("pause", "pause the game loop (scripts stop ticking)");
        addSimple("resume", "resume the game loop");
        addSimple("stop", "stop the host cleanly");

        auto* step = app.add_subcommand("step", "advance a paused host by N frames (default 1)");
        step->add_option("N", frames, "frames")->check(CLI::PositiveNumber);
        step->callback([this] {
            command = [this](HostSession& session) {
                return session.run("step", {{"frames", frames}}, [](const json& result) {
                    printText(genericResultText(result));
                });
            };
        });

        auto* input = app.add_subcommand(
            "input", "set an input action (e.g. MoveForward 1), as a key would; 0 releases it");
        input->add_option("ACTION", action, "action name")->required();
        input->add_option("VALUE", actionValue, "value, usually -1 … 1")->required();
        input->callback([this] {
            command = [this](HostSession& session) {
                return session.run(
                    "input", {{"action", action}, {"value", actionValue}},
                    [](const json& result) { printText(genericResultText(result)); });
            };
        });
    }

    /// active, parent.
    void addEntityCommands() {
        auto* active = app.add_subcommand(
            "active", "switch an entity on or off (its scripts get OnEnable or OnDisable)");
        active->add_option("ENTITY", entity, "entity name or id")->required();
        active->add_option("VALUE", activeValue, "true or false")->required();
        active->callback([this] {
            command = [this](HostSession& session) {
                return session.run(
                    "active", {{"entity", entity}, {"value", activeValue}},
                    [](const json& result) { printText(genericResultText(result)); });
            };
        });

        auto* parent = app.add_subcommand(
            "parent", "make an entity a child of another (\"none\": a root), keeping its place");
        parent->add_option("ENTITY", entity, "entity name or id")->required();
        parent->add_option("PARENT", value, "the new parent's name or id, or none")->required();
        parent->add_flag("--local", keepLocal,
                         "keep its local transform (it moves with the new parent) instead");
        parent->callback([this] {
            command = [this](HostSession& session) {
                const json args{{"entity", entity},
                                {"parent", value == "none" ? json() : json(value)},
                                {"keepWorld", !keepLocal}};
                return session.run("parent", args, [](const json& result) {
                    printText(genericResultText(result));
                });
            };
        });
    }

    /// watch, raw.
    void addStreamCommands() {
        auto* watch = app.add_subcommand(
            "watch", "print reload reports and diagnostics as they happen, until Ctrl+C");
        watch->add_flag("--logs", withLogs, "also print the host's log lines");
        watch->callback([this] {
            command = [this](HostSession& session) {
                std::vector<std::string> topics{"reload", "diagnostics", "module", "moduleBuild",
                                                "crashed"};
                if (withLogs)
                    topics.emplace_back("log");
                return watchHost(session, topics);
            };
        });

        auto* inspect = app.add_subcommand(
            "inspect", "how to open the host's browser inspector (scripthost run --inspect)");
        inspect->add_flag(
            "--url", inspectUrl,
            "print the URL alone (for scripts: `xdg-open $(scriptctl inspect --url)`)");
        inspect->callback([this] {
            command = [this](HostSession& session) {
                bool missing = false;
                const int code =
                    session.run("status", json::object(), [this, &missing](const json& result) {
                        const json& inspector = result.value("inspector", json());
                        if (!inspector.is_object()) {
                            missing = true;
                            std::fputs("scriptctl: this host serves no inspector (start it with "
                                       "`scripthost run --inspect`, or run `scripthost inspect`)\n",
                                       stderr);
                            return;
                        }
                        const std::string url = inspector.value("url", "");
                        printText(inspectUrl ? url + "\n"
                                             : "open " + url +
                                                   " in a browser on this machine (the token in "
                                                   "it is this host's: keep it to yourself)\n");
                    });
                return code == kExitOk && missing ? kExitErrorReply : code;
            };
        });

        auto* raw = app.add_subcommand("raw", "send one raw request line and print the reply");
        raw->add_option("JSON", rawLine, "the request, e.g. '{\"id\":1,\"cmd\":\"status\"}'")
            ->required();
        raw->callback(
            [this] { command = [this](HostSession& session) { return session.raw(rawLine); }; });
    }
};

} // namespace

int main(int argc, char** argv) {
    CommandLine cli;
    try {
        cli.app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        const int code = cli.app.exit(error); // prints help, version or the usage error
        return code == 0 ? kExitOk : kExitUsage;
    }

    SessionOptions options;
    options.socket = cli.socket.empty() ? scripthost::control::defaultControlPath()
                                        : std::filesystem::path(cli.socket);
    if (cli.longRunning && cli.timeoutOption->count() == 0)
        cli.timeoutSeconds = 60;
    options.timeout = std::chrono::milliseconds(std::llround(cli.timeoutSeconds * 1000));
    options.json = cli.jsonOutput;
    HostSession session(std::move(options));
    return cli.command ? cli.command(session) : kExitUsage;
}
