// ControlServer: requests in, replies out — ids, deferral, interleaving, malformed lines.
#include "support/control_test_support.hpp"
#include "support/socket_peer.hpp"

#include <map>

using namespace scripthost::control;
using namespace scripthost::control::test;
using nlohmann::json;

TEST_CASE("ControlServer: a request is queued with its id, command and body, and the reply echoes "
          "the id") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    REQUIRE(peer.send("{\"id\":7,\"cmd\":\"status\",\"verbose\":true}\n"));

    const Request request = takeOneRequest(*server);
    CHECK(request.cmd == "status");
    CHECK(request.id == 7);
    CHECK(request.body["verbose"] == true);
    server->replyOk(request.client, request.id, {{"frame", 42}});

    const auto reply = peer.readJson();
    REQUIRE(reply.has_value());
    CHECK(*reply == json::parse(R"({"id":7,"ok":true,"result":{"frame":42}})"));
}

TEST_CASE("ControlServer: CRLF line ends, empty lines and string ids are handled") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    REQUIRE(peer.send("\n\r\n{\"id\":\"abc\",\"cmd\":\"ping\"}\r\n"));
    const Request request = takeOneRequest(*server);
    CHECK(request.cmd == "ping");
    server->reply(request, json("pong"));
    CHECK(peer.readJson() == json::parse(R"({"id":"abc","ok":true,"result":"pong"})"));
}

TEST_CASE("ControlServer: a deferred reply arrives after a later request's reply") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    REQUIRE(peer.send("{\"id\":1,\"cmd\":\"reload\"}\n"));
    const Request reload = takeOneRequest(*server);
    REQUIRE(peer.send("{\"id\":2,\"cmd\":\"status\"}\n"));
    const Request status = takeOneRequest(*server);

    server->replyOk(status.client, status.id, {{"generation", 1}});
    const auto first = peer.readJson();
    REQUIRE(first.has_value());
    CHECK((*first)["id"] == 2);

    // The "reload" finishes later, in a later frame.
    server->reply(reload,
                  commandError(error_code::reloadFailed, "restore failed",
                               {{"report", {{"success", false}, {"failedPhase", "restore"}}}}));
    const auto second = peer.readJson();
    REQUIRE(second.has_value());
    CHECK((*second)["id"] == 1);
    CHECK((*second)["ok"] == false);
    CHECK((*second)["error"]["code"] == "reload_failed");
    CHECK((*second)["error"]["message"] == "restore failed");
    CHECK((*second)["error"]["report"]["failedPhase"] == "restore");
}

TEST_CASE("ControlServer: two clients with the same ids each get their own replies") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer a(server->path());
    SocketPeer b(server->path());
    REQUIRE(a.send("{\"id\":1,\"cmd\":\"get\",\"field\":\"a\"}\n"));
    REQUIRE(b.send("{\"id\":1,\"cmd\":\"get\",\"field\":\"b\"}\n"));
    REQUIRE(a.send("{\"id\":2,\"cmd\":\"get\",\"field\":\"a2\"}\n"));

    std::vector<Request> requests;
    REQUIRE(waitUntil([&] {
        auto more = server->takeRequests();
        requests.insert(requests.end(), more.begin(), more.end());
        return requests.size() >= 3;
    }));
    REQUIRE(requests.size() == 3);
    // Answer in reverse order of arrival; each answer carries the field its request named.
    for (auto it = requests.rbegin(); it != requests.rend(); ++it)
        server->replyOk(it->client, it->id, it->body["field"]);

    std::map<int, json> fromA;
    for (int i = 0; i < 2; ++i) {
        const auto reply = a.readJson();
        REQUIRE(reply.has_value());
        fromA[(*reply)["id"].get<int>()] = (*reply)["result"];
    }
    CHECK(fromA[1] == "a");
    CHECK(fromA[2] == "a2");
    const auto fromB = b.readJson();
    REQUIRE(fromB.has_value());
    CHECK(*fromB == json::parse(R"({"id":1,"ok":true,"result":"b"})"));
}

TEST_CASE("ControlServer: a garbage line gets bad_json and the client can go on") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    REQUIRE(peer.send("this is not json\n"));
    const auto error = peer.readJson();
    REQUIRE(error.has_value());
    CHECK((*error)["ok"] == false);
    CHECK((*error)["error"]["code"] == "bad_json");
    CHECK_FALSE(error->contains("id"));
    CHECK(server->takeRequests().empty());

    REQUIRE(peer.send("{\"id\":5,\"cmd\":\"status\"}\n"));
    const Request request = takeOneRequest(*server);
    server->replyOk(request.client, request.id, json::object());
    CHECK(peer.readJson() == json::parse(R"({"id":5,"ok":true,"result":{}})"));
}

TEST_CASE("ControlServer: non-object JSON and a missing cmd get bad_request, with the id when "
          "there is one") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    REQUIRE(peer.send("[1,2,3]\n{\"id\":3}\n{\"id\":4,\"cmd\":[\"status\"]}\n"));

    const auto array = peer.readJson();
    REQUIRE(array.has_value());
    CHECK((*array)["error"]["code"] == "bad_request");
    CHECK_FALSE(array->contains("id"));
    const auto noCmd = peer.readJson();
    REQUIRE(noCmd.has_value());
    CHECK((*noCmd)["id"] == 3);
    CHECK((*noCmd)["error"]["code"] == "bad_request");
    const auto badCmd = peer.readJson();
    REQUIRE(badCmd.has_value());
    CHECK((*badCmd)["id"] == 4);
    CHECK((*badCmd)["error"]["code"] == "bad_request");
    CHECK(server->takeRequests().empty());
    CHECK(server->clientCount() == 1);
}

TEST_CASE("ControlServer: replying to a client that has gone is a no-op") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    Request request;
    {
        SocketPeer peer(server->path());
        REQUIRE(peer.send("{\"id\":1,\"cmd\":\"reload\"}\n"));
        request = takeOneRequest(*server);
    }
    REQUIRE(server->waitForClientCount(0, 10s));
    CHECK_FALSE(server->isConnected(request.client));
    server->replyOk(request.client, request.id, {{"late", true}});
    server->replyError(request.client, request.id, error_code::internal, "late");

    // The server is unaffected: a new client gets served.
    SocketPeer next(server->path());
    REQUIRE(next.send("{\"id\":2,\"cmd\":\"status\"}\n"));
    const Request second = takeOneRequest(*server);
    CHECK(second.client != request.client);
    server->replyOk(second.client, second.id, 1);
    CHECK(next.readJson() == json::parse(R"({"id":2,"ok":true,"result":1})"));
}

TEST_CASE("ControlServer: a client that shuts down its sending side still gets its replies") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    REQUIRE(peer.send("{\"id\":1,\"cmd\":\"status\"}\n"));
    peer.shutdownWrite(); // like `printf ... | socat - UNIX-CONNECT:...`
    const Request request = takeOneRequest(*server);
    server->replyOk(request.client, request.id, {{"frame", 9}});
    CHECK(peer.readJson() == json::parse(R"({"id":1,"ok":true,"result":{"frame":9}})"));
    // Nothing is outstanding any more, so the server closes the connection.
    CHECK(peer.waitForEof(10s));
    CHECK(server->waitForClientCount(0, 10s));
}

TEST_CASE("ControlServer: a result serialised already is sent as the same reply a JSON result "
          "makes") {
    TempDir dir("control");
    auto server = openServer(dir / "control.sock");
    SocketPeer peer(server->path());
    REQUIRE(peer.send("{\"id\":\"a\",\"cmd\":\"entities\"}\n"));
    const Request first = takeOneRequest(*server);
    REQUIRE(peer.send("{\"id\":7,\"cmd\":\"entities\"}\n"));
    const Request second = takeOneRequest(*server);
    server->replySerializedOk(first.client, first.id, R"({"entities":[{"name":"Bäll"}]})");
    server->replyOk(second.client, second.id, json{{"entities", {{{"name", "Bäll"}}}}});
    const auto text = peer.readJson();
    const auto tree = peer.readJson();
    REQUIRE(text.has_value());
    REQUIRE(tree.has_value());
    CHECK((*text)["id"] == "a");
    CHECK((*tree)["id"] == 7);
    CHECK((*text)["result"] == (*tree)["result"]);
    CHECK((*text)["ok"] == true);
}
