// ControlClient against a real ControlServer.
#include "support/control_test_support.hpp"

#include <control/control_client.hpp>

using namespace scripthost::control;
using namespace scripthost::control::test;
using nlohmann::json;

TEST_CASE("ControlClient: no server at the path is a clear error naming it") {
    TempDir dir("control");
    const auto path = dir / "nobody.sock";
    auto client = ControlClient::connect(path, 2s);
    REQUIRE_FALSE(client.has_value());
    CHECK(client.error().message.find("no host at " + path.string()) != std::string::npos);
    CHECK(client.error().message.find("is scripthost running?") != std::string::npos);
}

TEST_CASE("ControlClient: call sends id, cmd and args and returns the whole matching reply") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    AutoResponder responder(*server, [](ControlServer& s, const Request& request) {
        s.replyOk(request.client, request.id, {{"cmd", request.cmd}, {"body", request.body}});
    });
    auto client = ControlClient::connect(server->path(), 5s);
    REQUIRE(client.has_value());
    for (int call = 1; call <= 3; ++call) {
        auto reply = client->call("get", {{"entity", "Player"}, {"field", call}}, 5s);
        REQUIRE(reply.has_value());
        CHECK((*reply)["ok"] == true);
        CHECK((*reply)["id"] == call);
        CHECK((*reply)["result"]["cmd"] == "get");
        CHECK((*reply)["result"]["body"]["entity"] == "Player");
        CHECK((*reply)["result"]["body"]["field"] == call);
    }
}

TEST_CASE("ControlClient: an error reply is a successful call carrying the error") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    AutoResponder responder(*server, [](ControlServer& s, const Request& request) {
        s.replyError(request.client, request.id, error_code::notFound, "no entity 'Ghost'");
    });
    auto client = ControlClient::connect(server->path(), 5s);
    REQUIRE(client.has_value());
    auto reply = client->call("get", {{"entity", "Ghost"}}, 5s);
    REQUIRE(reply.has_value());
    CHECK((*reply)["ok"] == false);
    CHECK((*reply)["error"]["code"] == "not_found");
    CHECK((*reply)["error"]["message"] == "no entity 'Ghost'");
}

TEST_CASE("ControlClient: events arriving during a call are kept for next()") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    AutoResponder responder(*server, [](ControlServer& s, const Request& request) {
        s.subscribe(request.client, request.body["topics"].get<std::vector<std::string>>());
        s.publish("reload", {{"sequence", 1}}); // queued before the reply
        s.replyOk(request.client, request.id, {{"topics", request.body["topics"]}});
        s.publish("reload", {{"sequence", 2}});
    });
    auto client = ControlClient::connect(server->path(), 5s);
    REQUIRE(client.has_value());
    auto reply = client->call("subscribe", {{"topics", {"reload"}}}, 5s);
    REQUIRE(reply.has_value());
    CHECK((*reply)["result"]["topics"] == json{"reload"});

    for (int sequence = 1; sequence <= 2; ++sequence) {
        auto event = client->next(5s);
        REQUIRE(event.has_value());
        REQUIRE(event->has_value());
        CHECK((**event)["event"] == "reload");
        CHECK((**event)["data"]["sequence"] == sequence);
    }
    auto nothing = client->next(50ms);
    REQUIRE(nothing.has_value());
    CHECK_FALSE(nothing->has_value());
}

TEST_CASE("ControlClient: a host that does not answer is a timeout naming the command") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    auto client = ControlClient::connect(server->path(), 5s);
    REQUIRE(client.has_value());
    auto reply = client->call("reload", json::object(), 200ms);
    REQUIRE_FALSE(reply.has_value());
    CHECK(reply.error().message.find("timed out") != std::string::npos);
    CHECK(reply.error().message.find("\"reload\"") != std::string::npos);
    CHECK(server->waitForRequest(5s)); // it did arrive; the host was just slow

    // A late reply to the timed-out call is skipped; the next call gets its own answer.
    for (const Request& late : server->takeRequests())
        server->replyOk(late.client, late.id, "late");
    AutoResponder responder(*server, [](ControlServer& s, const Request& request) {
        s.replyOk(request.client, request.id, "fresh");
    });
    auto next = client->call("status", json::object(), 5s);
    REQUIRE(next.has_value());
    CHECK((*next)["result"] == "fresh");
}

TEST_CASE("ControlClient: a host that goes away is reported as a closed connection") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    const auto path = server->path();
    auto client = ControlClient::connect(path, 5s);
    REQUIRE(client.has_value());
    REQUIRE(server->waitForClientCount(1, 5s));
    server.reset();
    auto reply = client->call("status", json::object(), 5s);
    REQUIRE_FALSE(reply.has_value());
    CHECK(reply.error().message == "the host at " + path.string() + " closed the connection");
    auto event = client->next(1s);
    CHECK_FALSE(event.has_value());
}

TEST_CASE("ControlClient: sendRaw passes a line through and returns the server's own error") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    auto client = ControlClient::connect(server->path(), 5s);
    REQUIRE(client.has_value());
    auto reply = client->sendRaw("{broken", 5s);
    REQUIRE(reply.has_value());
    CHECK((*reply)["error"]["code"] == "bad_json");
}

TEST_CASE("ControlClient: request is one call on a connection of its own: the result, or an "
          "error for no host and for an error reply") {
    TempDir dir("control");
    CHECK(ControlClient::request(dir / "nobody.sock", "status", json::object(), 100ms, 1s)
              .error()
              .message.find("no host at") != std::string::npos);
    auto server = openServer(dir / "control.sock");
    AutoResponder responder(*server, [](ControlServer& s, const Request& request) {
        if (request.cmd == "status")
            s.replyOk(request.client, request.id, {{"frame", 42}});
        else
            s.replyError(request.client, request.id, error_code::notFound, "no such thing");
    });
    auto status = ControlClient::request(server->path(), "status", json::object(), 5s, 5s);
    REQUIRE(status.has_value());
    CHECK(*status == json{{"frame", 42}});
    auto refused = ControlClient::request(server->path(), "get", {{"entity", "Ghost"}}, 5s, 5s);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message == "get failed: no such thing");
}
