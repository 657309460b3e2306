#pragma once
// HostSession: one scriptctl command against the host — connect, call, print, exit code.

#include "terminal_palette.hpp"

#include <chrono>
#include <control/control_client.hpp>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace scriptctl {

/// The global options every command shares.
struct SessionOptions {
    std::filesystem::path socket;
    std::chrono::milliseconds timeout{10'000};
    bool json = false; ///< print raw JSON objects, one per line
};

/// Runs commands and turns their outcome into output and an exit code (exit_code.hpp).
class HostSession {
public:
    explicit HostSession(SessionOptions options);

    using ResultPrinter = std::function<void(const nlohmann::json& result)>;

    /// Sends `cmd` with `args`. An ok reply: prints its result (raw with --json, else through
    /// `printHuman`), exit 0. An error reply: "scriptctl: <code>: <message>" on stderr (and
    /// the error object on stdout with --json, a reload report as a block without), exit 1.
    /// No host, timeout or lost connection: a message naming the socket, exit 3.
    [[nodiscard]] int run(std::string_view cmd, const nlohmann::json& args,
                          const ResultPrinter& printHuman);

    /// Sends `line` as it is and prints the first reply as JSON; exit 1 when it is an error.
    [[nodiscard]] int raw(const std::string& line);

    /// Connects, or prints why not and returns nullopt (exit 3).
    [[nodiscard]] std::optional<scripthost::control::ControlClient> connect();

    [[nodiscard]] const SessionOptions& options() const noexcept { return options_; }
    [[nodiscard]] const TerminalPalette& palette() const noexcept { return palette_; }

    /// "scriptctl: <message>" on stderr.
    static void printProblem(std::string_view message);

private:
    [[nodiscard]] int handleReply(const nlohmann::json& reply, const ResultPrinter& printHuman);

    SessionOptions options_;
    TerminalPalette palette_;
};

} // namespace scriptctl
