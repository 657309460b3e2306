// POST /api: one control request, its reply, on a connection of its own.
#include "support/inspector_fixture.hpp"

using namespace scripthost::inspector;
using namespace scripthost::inspector::test;

TEST_CASE("Inspector /api: a control request with the bearer token gets the host's reply") {
    InspectorFixture fixture;
    const Headers auth = {{"Authorization", "Bearer " + fixture.token()},
                          {"Content-Type", "application/json"}};
    HttpReply reply =
        fixture.request("POST", "/api", auth, R"({"id":4,"cmd":"status","verbose":true})");
    REQUIRE(reply.status == 200);
    CHECK(reply.headers["content-type"] == "application/json");
    const auto json = nlohmann::json::parse(reply.body);
    CHECK(json["id"] == 4);
    CHECK(json["ok"] == true);
    CHECK(json["result"]["cmd"] == "status");
    CHECK(json["result"]["request"]["verbose"] == true);

    // The host's own errors come through as they are.
    HttpReply bad = fixture.request("POST", "/api", auth, "{nope");
    REQUIRE(bad.status == 200);
    CHECK(nlohmann::json::parse(bad.body)["error"]["code"] == "bad_json");
}

TEST_CASE("Inspector /api: 403 without the token, 405 for GET, 503 with the host away") {
    InspectorFixture fixture;
    CHECK(fixture.request("POST", "/api", {}, R"({"cmd":"status"})").status == 403);
    const Headers auth = {{"Authorization", "Bearer " + fixture.token()}};
    CHECK(
        fixture.request("POST", "/api", {{"Authorization", "Bearer wrong"}}, R"({"cmd":"status"})")
            .status == 403);
    CHECK(fixture.request("GET", "/api", auth).status == 405);
    fixture.stopHost();
    HttpReply away = fixture.request("POST", "/api", auth, R"({"id":"x","cmd":"status"})");
    CHECK(away.status == 503);
    const auto json = nlohmann::json::parse(away.body);
    CHECK(json["id"] == "x");
    CHECK(json["error"]["code"] == "host_unavailable");
}
