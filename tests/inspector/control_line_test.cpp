// From a browser's message to a control line, and the inspector's own replies.
#include "control_line.hpp"

#include <doctest/doctest.h>

using namespace scripthost::inspector;

TEST_CASE("toControlLine: one line, raw line breaks between tokens become spaces") {
    CHECK(toControlLine(R"({"cmd":"status"})") == "{\"cmd\":\"status\"}\n");
    const std::string pretty = "{\n  \"id\": 1,\r\n  \"cmd\": \"get\"\n}";
    const std::string line = toControlLine(pretty);
    CHECK(line.find('\n') == line.size() - 1);
    CHECK(line.find('\r') == std::string::npos);
    const auto parsed = nlohmann::json::parse(line);
    CHECK(parsed["cmd"] == "get");
    CHECK(parsed["id"] == 1);
}

TEST_CASE("requestIdOf: the id of an object, null for anything else") {
    CHECK(requestIdOf(R"({"id":7,"cmd":"x"})") == 7);
    CHECK(requestIdOf(R"({"cmd":"x","id":"a"})") == "a");
    CHECK(requestIdOf(R"({"cmd":"x"})").is_null());
    CHECK(requestIdOf("[1,2]").is_null());
    CHECK(requestIdOf("{not json").is_null());
    std::string deep = "{\"id\":3,\"x\":";
    for (int i = 0; i < 200; ++i)
        deep += "[";
    for (int i = 0; i < 200; ++i)
        deep += "]";
    deep += "}";
    CHECK(requestIdOf(deep).is_null());
}

TEST_CASE("hostUnavailableReply and hostEvent: the shapes the page reads") {
    const auto reply = nlohmann::json::parse(hostUnavailableReply(5));
    CHECK(reply["id"] == 5);
    CHECK(reply["ok"] == false);
    CHECK(reply["error"]["code"] == "host_unavailable");
    CHECK_FALSE(nlohmann::json::parse(hostUnavailableReply(nullptr)).contains("id"));
    const auto down = nlohmann::json::parse(hostEvent(false, "gone"));
    CHECK(down["event"] == "inspector");
    CHECK(down["data"]["host"] == "disconnected");
    CHECK(down["data"]["message"] == "gone");
    CHECK(nlohmann::json::parse(hostEvent(true, ""))["data"]["host"] == "connected");
}
