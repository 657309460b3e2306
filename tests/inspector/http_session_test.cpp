// HttpSession against a real InspectorServer on loopback: who is refused, what is served.
#include "support/inspector_fixture.hpp"

using namespace scripthost::inspector;
using namespace scripthost::inspector::test;

TEST_CASE("Inspector HTTP: without the token the page is 403, with it 303 to a cookie, then 200") {
    InspectorFixture fixture;
    HttpReply refused = fixture.request("GET", "/");
    CHECK(refused.status == 403);
    CHECK(refused.body.find("token") != std::string::npos);
    CHECK(refused.body.find("marker") == std::string::npos);
    CHECK(fixture.request("GET", "/app.js").status == 403);

    HttpReply redirect = fixture.request("GET", "/?token=" + fixture.token());
    CHECK(redirect.status == 303);
    CHECK(redirect.headers["location"] == "/");
    const std::string cookie = redirect.headers["set-cookie"];
    CHECK(cookie.starts_with(fixture.cookie() + ";"));
    CHECK(cookie.find("HttpOnly") != std::string::npos);
    CHECK(cookie.find("SameSite=Strict") != std::string::npos);

    HttpReply page = fixture.request("GET", "/", {{"Cookie", fixture.cookie()}});
    CHECK(page.status == 200);
    CHECK(page.body.find("inspector page marker") != std::string::npos);
    CHECK(page.headers["content-type"] == "text/html; charset=utf-8");
    CHECK(page.headers["x-frame-options"] == "DENY");
    CHECK(page.headers["referrer-policy"] == "no-referrer");
    CHECK(page.headers["content-security-policy"].find("frame-ancestors 'none'") !=
          std::string::npos);
    HttpReply script = fixture.request("GET", "/app.js", {{"Cookie", fixture.cookie()}});
    CHECK(script.status == 200);
    CHECK(script.headers["content-type"] == "text/javascript; charset=utf-8");
}

TEST_CASE(
    "Inspector HTTP: a foreign Host or Origin is refused even with the token (DNS rebinding)") {
    InspectorFixture fixture;
    const std::string target = "/?token=" + fixture.token();
    HttpReply rebound = fixture.request(
        "GET", target, {{"Host", "evil.example:" + std::to_string(fixture.port())}});
    CHECK(rebound.status == 403);
    CHECK(rebound.body.find("Host") != std::string::npos);
    HttpReply foreign = fixture.request(
        "GET", "/", {{"Cookie", fixture.cookie()}, {"Origin", "https://evil.example"}});
    CHECK(foreign.status == 403);
    CHECK(foreign.body.find("Origin") != std::string::npos);
    HttpReply own =
        fixture.request("GET", "/", {{"Cookie", fixture.cookie()}, {"Origin", fixture.origin()}});
    CHECK(own.status == 200);
}

TEST_CASE("Inspector HTTP: unknown paths, files outside the page and other methods are refused") {
    InspectorFixture fixture;
    const Headers cookie = {{"Cookie", fixture.cookie()}};
    CHECK(fixture.request("GET", "/missing.js", cookie).status == 404);
    CHECK(fixture.request("GET", "/../secret.html", cookie).status == 404);
    CHECK(fixture.request("GET", "/%2e%2e/secret.html", cookie).status == 404);
    CHECK(fixture.request("DELETE", "/", cookie).status == 405);
    HttpReply head = fixture.request("HEAD", "/", cookie);
    CHECK(head.status == 200);
    CHECK(head.body.empty());
}

TEST_CASE("Inspector HTTP: a body over the limit gets 413, headers over 16 KiB get 431") {
    InspectorOptions options;
    options.maxMessageBytes = 4096;
    InspectorFixture fixture(std::move(options));
    const Headers auth = {{"Authorization", "Bearer " + fixture.token()}};
    CHECK(fixture.request("POST", "/api", auth, std::string(5000, ' ')).status == 413);
    CHECK(fixture.request("GET", "/", {{"X-Big", std::string(20000, 'x')}}).status == 431);
    // The server goes on serving.
    CHECK(fixture.request("GET", "/", {{"Cookie", fixture.cookie()}}).status == 200);
}
