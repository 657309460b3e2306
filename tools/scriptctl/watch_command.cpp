#include "watch_command.hpp"

#include "exit_code.hpp"
#include "human_output.hpp"

#include <control/protocol_messages.hpp>
#include <csignal>
#include <filesystem>
#include <cstdio>
#include <optional>
#include <thread>
#include <variant>

namespace scriptctl {

using nlohmann::json;
using scripthost::control::ControlClient;

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

// How long `watch` waits for a host that went away to come back (a supervised restart takes
// a second or two).
constexpr std::chrono::seconds kReconnectFor{60};

// Connects and subscribes; an exit code when that failed.
std::variant<ControlClient, int> subscribe(HostSession& session,
                                           const std::vector<std::string>& topics, bool quiet) {
    std::optional<ControlClient> client;
    if (!quiet) {
        client = session.connect();
    } else if (auto quick = ControlClient::connect(session.options().socket,
                                                   std::chrono::milliseconds(500))) {
        client.emplace(std::move(*quick));
    }
    if (!client)
        return kExitNoHost;
    auto reply = client->call("subscribe", {{"topics", topics}}, session.options().timeout);
    if (!reply) {
        if (!quiet)
            HostSession::printProblem(reply.error().message);
        return kExitNoHost;
    }
    if (!scripthost::control::isOkReply(*reply)) {
        HostSession::printProblem(scripthost::control::replyErrorCode(*reply) + ": " +
                                  scripthost::control::replyErrorMessage(*reply));
        return kExitErrorReply;
    }
    return std::move(*client);
}

} // namespace

int watchHost(HostSession& session, const std::vector<std::string>& topics) {
    auto first = subscribe(session, topics, false);
    if (const int* code = std::get_if<int>(&first))
        return *code;
    ControlClient client = std::move(std::get<ControlClient>(first));
    installStopHandlers();
    // The restarts already printed (-1: none seen yet). A restarted host publishes `crashed` on
    // its first frame, which may come before this client is back: after a reconnect its status
    // says it too, and whichever comes first is printed once.
    int restartsShown = -1;
    auto show = [&](const json& event) {
        const std::string text =
            session.options().json
                ? event.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"
                : eventText(event, session.palette());
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
    };
    auto showCrash = [&](const json& crash) {
        const int restarts = crash.is_object() ? crash.value("restarts", 0) : 0;
        if (restarts <= restartsShown || restarts == 0)
            return;
        restartsShown = restarts;
        show(json{{"event", "crashed"}, {"data", crash}});
    };
    while (!stopRequested) {
        auto event = client.next(std::chrono::milliseconds(500));
        if (!event) {
            if (stopRequested)
                break;
            // The host went away. A host that stopped removed its socket file: done. One that
            // crashed left it behind, and its supervisor (or a restart by hand) will serve the
            // same path again: wait for that (kReconnectFor), then go on.
            std::error_code ec;
            if (!std::filesystem::exists(session.options().socket, ec)) {
                HostSession::printProblem(event.error().message);
                return kExitNoHost;
            }
            std::fprintf(stderr, "scriptctl: lost the host (%s); reconnecting…\n",
                         event.error().message.c_str());
            std::optional<ControlClient> again;
            const auto until = std::chrono::steady_clock::now() + kReconnectFor;
            while (!again && !stopRequested && std::chrono::steady_clock::now() < until) {
                auto next = subscribe(session, topics, true);
                if (ControlClient* c = std::get_if<ControlClient>(&next))
                    again.emplace(std::move(*c));
                else if (std::get<int>(next) == kExitErrorReply)
                    return kExitErrorReply;
                else
                    std::this_thread::sleep_for(std::chrono::milliseconds(250));
            }
            if (!again) {
                if (stopRequested)
                    break;
                HostSession::printProblem("no host came back within " +
                                          std::to_string(kReconnectFor.count()) + " s");
                return kExitNoHost;
            }
            client = std::move(*again);
            std::fprintf(stderr, "scriptctl: reconnected\n");
            if (auto status = client.call("status", json::object(), session.options().timeout);
                status && scripthost::control::isOkReply(*status)) {
                showCrash((*status)["result"].value("lastCrash", json()));
            }
            continue;
        }
        if (!*event)
            continue;
        if ((*event)->value("event", "") == "crashed") {
            showCrash((*event)->value("data", json()));
            continue;
        }
        show(**event);
    }
    return kExitOk;
}

} // namespace scriptctl
