#pragma once
// Shared pieces of the control tests: a private temp folder and a server opened in it.

#include "../../../support/test_support.hpp"

#include <control/control_server.hpp>
#include <doctest/doctest.h>
#include <memory>

namespace scripthost::control::test {

using namespace std::chrono_literals;
using scripthost::testing::TempDir;
using scripthost::testing::waitUntil;

/// Opens a server at `path` and fails the test (with the error message) when it cannot.
inline std::unique_ptr<ControlServer> openServer(const std::filesystem::path& path,
                                                 ControlServerOptions options = {}) {
    auto server = ControlServer::open(path, options);
    REQUIRE_MESSAGE(server.has_value(), (server ? std::string() : server.error().message));
    return std::move(*server);
}

/// Waits for exactly one request and returns it (fails the test on timeout or extras).
inline Request takeOneRequest(ControlServer& server) {
    REQUIRE(server.waitForRequest(10s));
    auto requests = server.takeRequests();
    REQUIRE(requests.size() == 1);
    return std::move(requests.front());
}

} // namespace scripthost::control::test

#include <atomic>
#include <functional>
#include <thread>

namespace scripthost::control::test {

/// Plays the daemon's main thread: answers every request with `handler` on a thread of its
/// own until destroyed.
class AutoResponder {
public:
    using Handler = std::function<void(ControlServer&, const Request&)>;
    AutoResponder(ControlServer& server, Handler handler)
        : thread_([this, &server, handler = std::move(handler)] {
              while (!stop_) {
                  if (!server.waitForRequest(20ms))
                      continue;
                  for (const Request& request : server.takeRequests())
                      handler(server, request);
              }
          }) {}
    ~AutoResponder() {
        stop_ = true;
        thread_.join();
    }
    AutoResponder(const AutoResponder&) = delete;
    AutoResponder& operator=(const AutoResponder&) = delete;

private:
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

} // namespace scripthost::control::test

#include "socket_peer.hpp"

#include <control/protocol_messages.hpp>
#include <vector>

namespace scripthost::control::test {

/// One wire line for a request object.
inline std::string toLineForTest(const nlohmann::json& request) {
    return toLine(request);
}

/// Sends `peer`'s subscribe request for `topics` and, playing the daemon's main thread,
/// subscribes it and replies; returns the peer's client id.
inline ClientId subscribePeer(ControlServer& server, SocketPeer& peer,
                              const std::vector<std::string>& topics) {
    REQUIRE(peer.send(toLineForTest({{"id", "sub"}, {"cmd", "subscribe"}, {"topics", topics}})));
    const Request request = takeOneRequest(server);
    server.subscribe(request.client, topics);
    server.replyOk(request.client, request.id, {{"topics", topics}});
    const auto reply = peer.readJson();
    REQUIRE(reply.has_value());
    REQUIRE((*reply)["id"] == "sub");
    return request.client;
}

} // namespace scripthost::control::test
