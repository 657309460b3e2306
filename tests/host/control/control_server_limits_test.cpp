// ControlServer: hostile and broken clients — long lines, half lines, slow readers, crowds.
#include "support/control_test_support.hpp"
#include "support/socket_peer.hpp"

#include <atomic>
#include <thread>

using namespace scripthost::control;
using namespace scripthost::control::test;
using nlohmann::json;

namespace {

void checkServes(ControlServer& server) {
    SocketPeer peer(server.path());
    REQUIRE(peer.send("{\"id\":1,\"cmd\":\"status\"}\n"));
    const Request request = takeOneRequest(server);
    server.replyOk(request.client, request.id, "alive");
    CHECK(peer.readJson() == json::parse(R"({"id":1,"ok":true,"result":"alive"})"));
}

} // namespace

TEST_CASE(
    "ControlServer: a 2 MiB line gets line_too_long, the client is closed, others are served") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    const std::string huge = "{\"cmd\":\"set\",\"value\":\"" + std::string(2 << 20, 'x') + "\"}\n";
    peer.send(huge); // may fail part-way with EPIPE once the server closes: that is the point

    const auto error = peer.readJson();
    REQUIRE(error.has_value());
    CHECK((*error)["ok"] == false);
    CHECK((*error)["error"]["code"] == "line_too_long");
    CHECK((*error)["error"]["message"].get<std::string>().find("1048576") != std::string::npos);
    CHECK(peer.waitForEof(10s));
    CHECK(server->waitForClientCount(0, 10s));
    CHECK(server->takeRequests().empty());
    checkServes(*server);
}

TEST_CASE(
    "ControlServer: half a line then a disconnect queues nothing, the next client is served") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    {
        SocketPeer peer(server->path());
        REQUIRE(peer.send("{\"id\":1,\"cmd\":\"sta"));
        REQUIRE(server->waitForClientCount(1, 10s));
    }
    REQUIRE(server->waitForClientCount(0, 10s));
    CHECK(server->takeRequests().empty());
    checkServes(*server);
}

TEST_CASE("ControlServer: a client that never reads is dropped, a reading one gets every event") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer slow(server->path());
    const ClientId slowId = subscribePeer(*server, slow, {"log"});
    SocketPeer fast(server->path());
    subscribePeer(*server, fast, {"log"});

    constexpr int kEvents = 20;
    const std::string payload(1 << 20, 'p'); // 20 x 1 MiB = 20 MiB published
    std::atomic<int> received{0};
    std::atomic<bool> intact{true};
    std::thread reader([&] {
        for (int i = 0; i < kEvents; ++i) {
            const auto event = fast.readJson();
            if (!event || (*event)["event"] != "log" || (*event)["data"]["n"] != i ||
                (*event)["data"]["text"].get<std::string>().size() != payload.size()) {
                intact = false;
                return;
            }
            ++received;
        }
    });
    for (int i = 0; i < kEvents; ++i) {
        server->publish("log", {{"n", i}, {"text", payload}});
        // Keep pace with the reading client so only the silent one falls behind.
        CHECK(waitUntil([&] { return received.load() > i || !intact.load(); }));
    }
    reader.join();
    CHECK(intact.load());
    CHECK(received.load() == kEvents);

    CHECK(waitUntil([&] { return !server->isConnected(slowId); }));
    std::size_t slowBytes = 0;
    CHECK(slow.waitForEof(10s, &slowBytes));
    CHECK(slowBytes < std::size_t{kEvents} << 20); // it got some, not all, then was cut off
    CHECK(server->clientCount() == 1);

    server->publish("log", {{"n", "after"}});
    const auto after = fast.readJson();
    REQUIRE(after.has_value());
    CHECK((*after)["data"]["n"] == "after");
}

TEST_CASE("ControlServer: a subscriber that vanishes while events are queued does not hurt") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    {
        SocketPeer gone(server->path());
        subscribePeer(*server, gone, {"log"});
    }
    SocketPeer stays(server->path());
    subscribePeer(*server, stays, {"log"});
    for (int i = 0; i < 200; ++i) // EPIPE/ECONNRESET on the gone one, never SIGPIPE
        server->publish("log", {{"n", i}, {"text", std::string(4096, 'z')}});
    for (int i = 0; i < 200; ++i) {
        const auto event = stays.readJson();
        REQUIRE(event.has_value());
        CHECK((*event)["data"]["n"] == i);
    }
    CHECK(server->waitForClientCount(1, 10s));
}

TEST_CASE("ControlServer: beyond maxClients a connection gets too_many_clients and is closed") {
    TempDir dir("control");
    ControlServerOptions options;
    options.maxClients = 2;
    auto server = openServer(dir / "control.sock", options);
    auto first = std::make_unique<SocketPeer>(server->path());
    SocketPeer second(server->path());
    REQUIRE(server->waitForClientCount(2, 10s));

    SocketPeer third(server->path());
    const auto refusal = third.readJson();
    REQUIRE(refusal.has_value());
    CHECK((*refusal)["ok"] == false);
    CHECK((*refusal)["error"]["code"] == "too_many_clients");
    CHECK(third.waitForEof(10s));
    CHECK(server->clientCount() == 2);

    first.reset();
    REQUIRE(server->waitForClientCount(1, 10s));
    checkServes(*server);
}

TEST_CASE("ControlServer: 100 clients connecting and leaving quickly all get cleaned up") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    for (int i = 0; i < 100; ++i) {
        SocketPeer peer(server->path());
        if (i % 3 == 1)
            peer.send("{\"id\":1,\"cm"); // some leave half a line behind
    }
    // Served after all 100 (connections are accepted in order), then everyone is gone.
    checkServes(*server);
    CHECK(server->waitForClientCount(0, 10s));
    CHECK(server->clientCount() == 0);
    CHECK(server->takeRequests().empty());
}
