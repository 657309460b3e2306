// InspectorServer: its URL, its connection limit, and stop().
#include "support/inspector_fixture.hpp"

#include <inspector/access_token.hpp>
#include <inspector/loopback_listener.hpp>

using namespace scripthost::inspector;
using namespace scripthost::inspector::test;

TEST_CASE("InspectorServer: the URL names 127.0.0.1, the port and the token") {
    CHECK(inspectorUrl(7410, "ab12") == "http://127.0.0.1:7410/?token=ab12");
    auto listener = LoopbackListener::bind(0);
    REQUIRE(listener.has_value());
    const std::uint16_t port = listener->port();
    auto token = makeAccessToken();
    REQUIRE(token.has_value());
    InspectorOptions options;
    options.listener = listener->release();
    options.port = port;
    options.token = *token;
    auto server = InspectorServer::open(std::move(options));
    REQUIRE(server.has_value());
    CHECK((*server)->url() == "http://127.0.0.1:" + std::to_string(port) + "/?token=" + *token);
    CHECK((*server)->port() == port);
}

TEST_CASE("InspectorServer: refuses to start without a listener or with a short token") {
    InspectorOptions none;
    none.token = std::string(64, 'a');
    CHECK_FALSE(InspectorServer::open(std::move(none)).has_value());
    auto listener = LoopbackListener::bind(0);
    REQUIRE(listener.has_value());
    InspectorOptions shortToken;
    shortToken.listener = listener->release();
    shortToken.token = "abc";
    auto refused = InspectorServer::open(std::move(shortToken));
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message.find("token") != std::string::npos);
}

TEST_CASE("InspectorServer: past maxSessions a connection is closed, the rest are served") {
    InspectorOptions options;
    options.maxSessions = 2;
    InspectorFixture fixture(std::move(options));
    WsClient first(fixture, {{"Cookie", fixture.cookie()}});
    WsClient second(fixture, {{"Cookie", fixture.cookie()}});
    REQUIRE(first.upgraded());
    REQUIRE(second.upgraded());
    WsClient third(fixture, {{"Cookie", fixture.cookie()}});
    CHECK_FALSE(third.upgraded());
    first.send(R"({"id":1,"cmd":"status"})");
    CHECK(first.reply().has_value());
}

TEST_CASE("InspectorServer: the page's folder is found beside the running binary") {
    // The test binary sits in the build's bin/, as scripthost does; so does the page.
    const std::filesystem::path folder = pageFolderBesideExecutable();
    CHECK(folder.filename() == "inspector");
    CHECK(std::filesystem::equivalent(folder.parent_path(),
                                      std::filesystem::canonical("/proc/self/exe").parent_path()));
    CHECK(std::filesystem::is_regular_file(folder / "index.html"));
}
