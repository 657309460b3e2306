// ControlServer: subscribe and publish.
#include "support/control_test_support.hpp"
#include "support/socket_peer.hpp"

#include <thread>

using namespace scripthost::control;
using namespace scripthost::control::test;
using nlohmann::json;

namespace {

/// Sends a request and answers it: since each client's output is in order, the next line
/// the peer reads is this reply exactly when no event was queued for it before.
void checkNothingElseQueued(ControlServer& server, SocketPeer& peer) {
    REQUIRE(peer.send("{\"id\":\"fence\",\"cmd\":\"status\"}\n"));
    const Request request = takeOneRequest(server);
    server.replyOk(request.client, request.id, nullptr);
    const auto next = peer.readJson();
    REQUIRE(next.has_value());
    CHECK(*next == json::parse(R"({"id":"fence","ok":true,"result":null})"));
}

} // namespace

TEST_CASE("ControlServer: publish reaches only the subscribers of that topic") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer reloads(server->path());
    subscribePeer(*server, reloads, {"reload"});
    SocketPeer logs(server->path());
    subscribePeer(*server, logs, {"log"});
    SocketPeer none(server->path());

    server->publish("reload", {{"success", true}, {"sequence", 1}});
    server->publish("log", {{"level", "info"}, {"message", "hello"}});

    CHECK(reloads.readJson() ==
          json::parse(R"({"event":"reload","data":{"success":true,"sequence":1}})"));
    CHECK(logs.readJson() ==
          json::parse(R"({"event":"log","data":{"level":"info","message":"hello"}})"));
    checkNothingElseQueued(*server, reloads);
    checkNothingElseQueued(*server, logs);
    checkNothingElseQueued(*server, none);
}

TEST_CASE("ControlServer: subscriptions add up") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    subscribePeer(*server, peer, {"reload"});
    subscribePeer(*server, peer, {"diagnostics"});
    server->publish("diagnostics", json::array());
    server->publish("reload", {{"sequence", 2}});
    CHECK(peer.readJson() == json::parse(R"({"event":"diagnostics","data":[]})"));
    CHECK(peer.readJson() == json::parse(R"({"event":"reload","data":{"sequence":2}})"));
}

TEST_CASE("ControlServer: publish from several threads delivers every event whole") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    subscribePeer(*server, peer, {"log"});

    constexpr int kThreads = 4;
    constexpr int kPerThread = 250;
    std::vector<std::thread> publishers;
    for (int t = 0; t < kThreads; ++t) {
        publishers.emplace_back([&server, t] {
            for (int i = 0; i < kPerThread; ++i)
                server->publish("log",
                                {{"thread", t}, {"n", i}, {"message", std::string(100, 'm')}});
        });
    }
    for (auto& publisher : publishers)
        publisher.join();

    std::vector<int> nextPerThread(kThreads, 0);
    for (int i = 0; i < kThreads * kPerThread; ++i) {
        const auto event = peer.readJson();
        REQUIRE(event.has_value());
        REQUIRE_FALSE(event->is_discarded());
        const int thread = (*event)["data"]["thread"];
        CHECK((*event)["data"]["n"] == nextPerThread[thread]); // in order per publisher
        ++nextPerThread[thread];
    }
    CHECK(nextPerThread == std::vector<int>(kThreads, kPerThread));
}

TEST_CASE("ControlServer: log text with invalid UTF-8 is published, not thrown") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    subscribePeer(*server, peer, {"log"});
    server->publish("log", {{"message", "bad \xC3 byte"}});
    const auto event = peer.readJson();
    REQUIRE(event.has_value());
    CHECK((*event)["data"]["message"] == "bad \xEF\xBF\xBD byte");
}

TEST_CASE("ControlServer: sendEvent reaches one client, subscribed or not, and unsentBytes "
          "tells what it has not read yet") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer asker(server->path());
    SocketPeer other(server->path());
    subscribePeer(*server, other, {"fields"});
    REQUIRE(asker.send("{\"id\":1,\"cmd\":\"watchFields\"}\n"));
    const Request request = takeOneRequest(*server);
    server->sendEvent(request.client, "fields", {{"watch", 1}});
    CHECK(asker.readJson() == json::parse(R"({"event":"fields","data":{"watch":1}})"));
    checkNothingElseQueued(*server, other);

    // More than a socket buffer holds: the rest waits in the outbox until the peer reads.
    const std::string big(4 * 1024 * 1024, 'x');
    server->sendEvent(request.client, "fields", {{"pad", big}});
    const auto queued = server->unsentBytes(request.client);
    REQUIRE(queued.has_value());
    CHECK(*queued > 0);
    const auto line = asker.readJson();
    REQUIRE(line.has_value());
    CHECK((*line)["data"]["pad"].get<std::string>().size() == big.size());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (server->unsentBytes(request.client).value_or(1) != 0 &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(server->unsentBytes(request.client) == std::optional<std::size_t>(0));
    CHECK_FALSE(server->unsentBytes(request.client + 1000).has_value()); // no such client
}
