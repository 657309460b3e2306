#include "host_session.hpp"

#include "exit_code.hpp"
#include "human_output.hpp"

#include <control/protocol_messages.hpp>
#include <cstdio>
#include <fmt/format.h>

namespace scriptctl {

using nlohmann::json;

namespace {

void printLine(const json& object) {
    const std::string line = object.dump(-1, ' ', false, json::error_handler_t::replace);
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

} // namespace

HostSession::HostSession(SessionOptions options)
    : options_(std::move(options)), palette_(TerminalPalette::detect(stdout)) {}

void HostSession::printProblem(std::string_view message) {
    fmt::print(stderr, "scriptctl: {}\n", message);
    std::fflush(stderr);
}

std::optional<scripthost::control::ControlClient> HostSession::connect() {
    auto client = scripthost::control::ControlClient::connect(options_.socket, options_.timeout);
    if (!client) {
        printProblem(client.error().message);
        return std::nullopt;
    }
    return std::move(*client);
}

int HostSession::run(std::string_view cmd, const json& args, const ResultPrinter& printHuman) {
    auto client = connect();
    if (!client)
        return kExitNoHost;
    auto reply = client->call(cmd, args, options_.timeout);
    if (!reply) {
        printProblem(reply.error().message);
        return kExitNoHost;
    }
    return handleReply(*reply, printHuman);
}

int HostSession::handleReply(const json& reply, const ResultPrinter& printHuman) {
    if (scripthost::control::isOkReply(reply)) {
        const json result = reply.contains("result") ? reply["result"] : json();
        if (options_.json)
            printLine(result);
        else
            printHuman(result);
        std::fflush(stdout);
        return kExitOk;
    }
    const json error =
        reply.contains("error") && reply["error"].is_object() ? reply["error"] : json::object();
    if (options_.json) {
        printLine(error);
    } else if (error.contains("report") && error["report"].is_object()) {
        const std::string block = reportText(error["report"], palette_);
        std::fwrite(block.data(), 1, block.size(), stdout);
        std::fflush(stdout);
    }
    printProblem(fmt::format("{}: {}", scripthost::control::replyErrorCode(reply),
                             scripthost::control::replyErrorMessage(reply)));
    return kExitErrorReply;
}

int HostSession::raw(const std::string& line) {
    auto client = connect();
    if (!client)
        return kExitNoHost;
    auto reply = client->sendRaw(line, options_.timeout);
    if (!reply) {
        printProblem(reply.error().message);
        return kExitNoHost;
    }
    printLine(*reply);
    return scripthost::control::isOkReply(*reply) ? kExitOk : kExitErrorReply;
}

} // namespace scriptctl
