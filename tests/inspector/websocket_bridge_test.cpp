// WebSocketBridge: the control protocol over a WebSocket, through a real control server.
#include "support/inspector_fixture.hpp"

#include <atomic>
#include <thread>
#include <vector>

using namespace scripthost::inspector;
using namespace scripthost::inspector::test;

namespace {
Headers browser(const InspectorFixture& fixture) {
    return {{"Cookie", fixture.cookie()}, {"Origin", fixture.origin()}};
}

/// A tab's WebSocket is open and the server has reached the host for it.
void requireConnected(WsClient& ws) {
    REQUIRE(ws.upgraded());
    REQUIRE(ws.waitForHost("connected"));
}
} // namespace

TEST_CASE("Inspector WebSocket: without the token, or from a foreign Origin, the upgrade is "
          "refused with 403") {
    InspectorFixture fixture;
    const Headers upgrade = {{"Connection", "Upgrade"},
                             {"Upgrade", "websocket"},
                             {"Sec-WebSocket-Version", "13"},
                             {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}};
    Headers anonymous = upgrade;
    anonymous["Origin"] = fixture.origin();
    HttpReply refused = fixture.request("GET", "/ws", anonymous);
    CHECK(refused.status == 403);
    CHECK(refused.body.find("token") != std::string::npos);
    Headers foreign = upgrade;
    foreign["Cookie"] = fixture.cookie();
    foreign["Origin"] = "https://evil.example";
    refused = fixture.request("GET", "/ws", foreign);
    CHECK(refused.status == 403);
    CHECK(refused.body.find("Origin") != std::string::npos);
    CHECK_FALSE(WsClient(fixture, {{"Origin", fixture.origin()}}).upgraded());
    Headers own = upgrade;
    own["Cookie"] = fixture.cookie();
    own["Origin"] = fixture.origin();
    CHECK(fixture.request("GET", "/ws", own).status == 101);
    CHECK(WsClient(fixture, browser(fixture)).upgraded());
}

TEST_CASE("Inspector WebSocket: a message is a control request, replies and events come back") {
    InspectorFixture fixture;
    WsClient ws(fixture, browser(fixture));
    requireConnected(ws);
    ws.send(R"({"id":1,"cmd":"status"})");
    auto reply = ws.reply();
    REQUIRE(reply.has_value());
    CHECK((*reply)["id"] == 1);
    CHECK((*reply)["result"]["cmd"] == "status");

    // Pretty-printed JSON is still one request.
    ws.send("{\n  \"id\": 2,\n  \"cmd\": \"get\",\n  \"field\": \"speed\"\n}");
    reply = ws.reply();
    REQUIRE(reply.has_value());
    CHECK((*reply)["id"] == 2);
    CHECK((*reply)["result"]["request"]["field"] == "speed");

    ws.send(R"({"id":3,"cmd":"subscribe","topics":["reload"]})");
    REQUIRE(ws.reply().has_value());
    ws.send(R"({"id":4,"cmd":"publish","topic":"reload","data":{"generation":9}})");
    bool sawEvent = false;
    for (int i = 0; i < 4 && !sawEvent; ++i) {
        auto message = ws.next();
        REQUIRE(message.has_value());
        sawEvent = message->value("event", "") == "reload" && (*message)["data"]["generation"] == 9;
    }
    CHECK(sawEvent);
}

TEST_CASE("Inspector WebSocket: malformed requests get the control socket's own errors and the "
          "connection stays") {
    InspectorFixture fixture;
    WsClient ws(fixture, browser(fixture));
    requireConnected(ws);
    ws.send("{not json");
    auto reply = ws.reply();
    REQUIRE(reply.has_value());
    CHECK((*reply)["error"]["code"] == "bad_json");
    ws.send(R"({"id":5,"nocmd":true})");
    reply = ws.reply();
    REQUIRE(reply.has_value());
    CHECK((*reply)["error"]["code"] == "bad_request");
    CHECK((*reply)["id"] == 5);
    ws.send(R"({"id":6,"cmd":"status"})");
    reply = ws.reply();
    REQUIRE(reply.has_value());
    CHECK((*reply)["id"] == 6);
}

TEST_CASE(
    "Inspector WebSocket: a message over the limit closes the socket with 1009, others go on") {
    InspectorOptions options;
    options.maxMessageBytes = 64 * 1024;
    InspectorFixture fixture(std::move(options));
    WsClient big(fixture, browser(fixture));
    WsClient other(fixture, browser(fixture));
    REQUIRE(big.upgraded());
    REQUIRE(other.upgraded());
    REQUIRE(big.waitForHost("connected"));
    big.send(R"({"cmd":"status","pad":")" + std::string(70 * 1024, 'x') + "\"}");
    std::optional<nlohmann::json> message;
    do {
        message = big.next();
    } while (message.has_value());
    CAPTURE(big.lastError());
    CHECK(big.closedWith() == 1009);
    REQUIRE(other.waitForHost("connected"));
    other.send(R"({"id":1,"cmd":"status"})");
    CHECK(other.reply().has_value());
}

TEST_CASE("Inspector WebSocket: when the host goes the tab is told, requests get host_unavailable, "
          "and it is connected again when the host is back") {
    InspectorFixture fixture;
    WsClient ws(fixture, browser(fixture));
    requireConnected(ws);
    fixture.stopHost();
    REQUIRE(ws.waitForHost("disconnected"));
    ws.send(R"({"id":"while-away","cmd":"status"})");
    auto reply = ws.reply();
    REQUIRE(reply.has_value());
    CHECK((*reply)["id"] == "while-away");
    CHECK((*reply)["error"]["code"] == "host_unavailable");
    fixture.startHost();
    REQUIRE(ws.waitForHost("connected"));
    ws.send(R"({"id":"back","cmd":"status"})");
    reply = ws.reply();
    REQUIRE(reply.has_value());
    CHECK((*reply)["id"] == "back");
    CHECK((*reply)["ok"] == true);
}

TEST_CASE("Inspector WebSocket: 20 clients flooding requests each get every reply, in order") {
    InspectorFixture fixture;
    constexpr int kClients = 20;
    constexpr int kRequests = 200;
    std::atomic<int> complete{0};
    std::vector<std::thread> threads;
    for (int c = 0; c < kClients; ++c) {
        threads.emplace_back([&fixture, &complete, c] {
            WsClient ws(fixture, browser(fixture));
            if (!ws.upgraded() || !ws.waitForHost("connected"))
                return;
            for (int i = 0; i < kRequests; ++i)
                ws.send(nlohmann::json{{"id", i}, {"cmd", "status"}, {"client", c}}.dump());
            for (int i = 0; i < kRequests; ++i) {
                auto reply = ws.reply(30s);
                if (!reply || (*reply)["id"] != i || (*reply)["result"]["request"]["client"] != c)
                    return;
            }
            ++complete;
        });
    }
    for (auto& thread : threads)
        thread.join();
    CHECK(complete == kClients);
}
