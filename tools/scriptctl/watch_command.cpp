#include "watch_command.hpp"

#include "exit_code.hpp"
#include "human_output.hpp"

#include <control/protocol_messages.hpp>
#include <csignal>
#include <cstdio>

namespace scriptctl {

using nlohmann::json;

namespace {

volatile std::sig_atomic_t stopRequested = 0;

void requestStop(int) {
    stopRequested = 1;
}

/// SIGINT/SIGTERM set a flag instead of killing us; no SA_RESTART, so a blocked poll()
/// returns EINTR and the loop sees the flag at once.
void installStopHandlers() {
    struct sigaction action {};
    action.sa_handler = requestStop;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
}

} // namespace

int watchHost(HostSession& session, const std::vector<std::string>& topics) {
    auto client = session.connect();
    if (!client)
        return kExitNoHost;
    auto reply = client->call("subscribe", {{"topics", topics}}, session.options().timeout);
    if (!reply) {
        HostSession::printProblem(reply.error().message);
        return kExitNoHost;
    }
    if (!scripthost::control::isOkReply(*reply)) {
        HostSession::printProblem(scripthost::control::replyErrorCode(*reply) + ": " +
                                  scripthost::control::replyErrorMessage(*reply));
        return kExitErrorReply;
    }
    installStopHandlers();
    while (!stopRequested) {
        auto event = client->next(std::chrono::milliseconds(500));
        if (!event) {
            if (stopRequested)
                break;
            HostSession::printProblem(event.error().message);
            return kExitNoHost;
        }
        if (!*event)
            continue;
        std::string text =
            session.options().json
                ? (*event)->dump(-1, ' ', false, json::error_handler_t::replace) + "\n"
                : eventText(**event, session.palette());
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
    }
    return kExitOk;
}

} // namespace scriptctl
